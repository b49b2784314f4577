/**
 * How the console compiles stacks: in a worker thread (the default), so that compiling never
 * blocks input, with a time limit after which the worker is stopped and replaced; or inline,
 * for tests that want the same answers without a thread.
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { CompileOutcome, CompileReply, CompileSettings } from './compile-protocol.js';
import { compileOutcome } from './compile-stack.js';

export interface StackCompiler {
  compile(dir: string): Promise<CompileOutcome>;
  close(): Promise<void>;
}

/** Compiles in this thread (tests). */
export class InlineCompiler implements StackCompiler {
  constructor(private readonly settings: CompileSettings = { readOnly: false }) {}

  async compile(dir: string): Promise<CompileOutcome> {
    return compileOutcome(dir, this.settings).outcome;
  }

  async close(): Promise<void> {}
}

/**
 * The worker script beside this module once built: dist/bin/compile-worker.mjs in the bundle (an
 * ES module entry point beside the CommonJS script, scripts/bundle.ts), compile-worker.js beside
 * tsc's output in dist/src/app/console/. Looked for when a compiler is made, not on import.
 */
function workerScript(): URL {
  const bundled = new URL('./compile-worker.mjs', import.meta.url);
  return fs.existsSync(bundled) ? bundled : new URL('./compile-worker.js', import.meta.url);
}

/**
 * The worker's young generation, MB: V8 sizes it for a whole process (up to 48 MB here), but a
 * compile's garbage is short-lived and the console's memory is one budget, main thread and
 * worker together; 12 MB (semi-spaces of 4 MB) takes about 15 MB off a 1,000-resource stack's peak.
 */
const WORKER_YOUNG_GENERATION_MB = 12;

const stopped = (dir: string, why: string): CompileOutcome => ({
  ok: false,
  failure: { summary: why, text: why },
  ms: 0,
  inputs: { files: [], folders: [dir] },
});

/**
 * Compiles in a worker thread, one stack at a time. A compile that outlives `limitMs`, or a
 * worker that dies, ends that compile with a failure and a fresh worker takes the next one.
 */
export class WorkerCompiler implements StackCompiler {
  private worker: Worker | undefined;
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  private readonly script: URL;
  private readonly limitMs: number;
  private readonly settings: CompileSettings;

  /** `script` for tests (a stand-in worker); `limitMs` the time a compile may take. */
  constructor(options: Partial<CompileSettings> & { script?: URL; limitMs?: number } = {}) {
    this.script = options.script ?? workerScript();
    this.limitMs = options.limitMs ?? 30_000;
    this.settings = { readOnly: options.readOnly === true };
  }

  compile(dir: string): Promise<CompileOutcome> {
    const run = this.queue.then(() => this.runOne(dir));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private started(): Worker {
    if (!this.worker) {
      this.worker = new Worker(this.script, {
        workerData: this.settings,
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
      });
      // the console's process may end while the worker idles
      this.worker.unref();
    }
    return this.worker;
  }

  private runOne(dir: string): Promise<CompileOutcome> {
    if (this.closed) return Promise.resolve(stopped(dir, 'the console is closing'));
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve) => {
      const finish = (outcome: CompileOutcome, replaceWorker: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (replaceWorker) {
          this.worker = undefined;
          void worker.terminate();
        }
        resolve(outcome);
      };
      const onMessage = (reply: CompileReply) => {
        if (reply.id !== id) return;
        const { id: _id, ...outcome } = reply;
        finish(outcome, false);
      };
      const onError = (e: Error) =>
        finish(
          stopped(
            dir,
            `the compiler stopped with an error: ${e.message}; the stack is compiled again at the next save`,
          ),
          true,
        );
      const onExit = () =>
        finish(stopped(dir, 'the compiler stopped; the stack is compiled again at the next save'), true);
      const timer = setTimeout(
        () =>
          finish(
            stopped(
              dir,
              `compiling took longer than ${this.limitMs >= 1000 ? `${Math.round(this.limitMs / 1000)} s` : `${this.limitMs} ms`} and was stopped (an endless loop or a runaway recursion?); fix the file and save again`,
            ),
            true,
          ),
        this.limitMs,
      );
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ id, dir });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    this.worker = undefined;
    await w?.terminate();
  }
}
