/**
 * The console's compile worker: compiles stacks off the render thread, one request at a time,
 * keeping the compiler's parse cache warm between requests and, after a stack's first compile,
 * V8's code for the evaluator (warm-up.ts). A file that sends the compiler into a long loop
 * delays only this thread; the console stays responsive and stops it at its limit.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { CompileReply, CompileRequest, CompileSettings } from './compile-protocol.js';
import { writeKeptParses } from '../../kcl/ast-cache.js';
import { compileForConsole, compileOutcome } from './compile-stack.js';
import { WarmUp } from './warm-up.js';

const settings = workerData as CompileSettings;

const warmUp = new WarmUp((dir) => {
  try {
    return compileForConsole(dir, settings).repeatable;
  } catch {
    // the files changed under the warm-up and no longer compile: the next request says how
    return false;
  }
});

parentPort?.on('message', (request: CompileRequest) => {
  warmUp.interrupt();
  // the parses go to disk once the answer is out: a save's compile does not wait for the disk
  const { outcome, repeatable } = compileOutcome(request.dir, settings, { writeParsesLater: true });
  const reply: CompileReply = { id: request.id, ...outcome };
  parentPort?.postMessage(reply);
  writeKeptParses();
  warmUp.compiled(request.dir, repeatable, outcome.ms);
});
