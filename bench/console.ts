/**
 * The console's part of `npm run bench` (React in production mode, as the console runs it):
 *   1. a stack of 1,000 resources, applied to a sandbox cluster that runs in its own process:
 *      the console's time to show its plan, then frame times (key to frame) while scrolling
 *      and switching views, p95, and the console process's memory (peak resident set);
 *   2. watch mode, save to screen: 20 saves of an image change in a sample stack's main.k,
 *      each timed from the write until the frame shows the new image in the stack's diff (file
 *      watch, compile in the worker, plan against the cluster, render); p50 and p95. Then 8
 *      saves 8 s apart, as a user who reads and types between saves makes them: an idle V8 heap
 *      gives memory back, which the next save's work faults in again (about 13 µs a page fault
 *      on the bench's machine).
 * The process is tuned as the console tunes its own (runtime.ts) before the app loads.
 */
import { confirmationFor } from '../src/app/console/confirmation.js';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { GENERATED_STACK, generatedWorkspace } from './workspace.js';
import type { BenchScreen } from './console-harness.js';
import { tuneConsoleRuntime } from '../src/ui/runtime.js';
import { until } from '../src/ui/testing/until.js';
import type { ConsoleSession } from '../src/app/console/session.js';
import { percentile, printTargets, runBench } from './report.js';

tuneConsoleRuntime();
const { createElement } = await import('react');
const { ClusterSet } = await import('../src/cluster/cluster-set.js');
const { loadKubeconfig } = await import('../src/cluster/kubeconfig.js');
const { LocalStateBackend } = await import('../src/state/local.js');
const { App } = await import('../src/ui/App.js');
const { DEFAULT_BINDINGS } = await import('../src/ui/actions.js');
const { benchRender } = await import('./console-harness.js');
const { WorkerCompiler } = await import('../src/app/console/compiler.js');
const { ConsoleSession: Session } = await import('../src/app/console/session.js');

const SAVES = 20;
const PAUSED_SAVES = 8;
const PAUSE_MS = 8_000;
const APPS = 333;
const TARGET_SAVE_P50_MS = 100;
const TARGET_FRAME_P95_MS = 16;
const TARGET_MEMORY_MB = 250;
const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = path.join(ROOT, 'dist', 'bin', 'kdeck.js');
const SAMPLE_STACK = 'appops/nginx-example/dev';
/** The bound on each wait for the console: planning 1,000 resources takes seconds. */
const WAIT_MS = 120_000;

const ms = (x: number) => `${x.toFixed(1)} ms`;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

/** Runs kdeck to its end (bounded), failing with its output. */
function kdeck(args: string[], limitMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`kdeck ${args.join(' ')} exited ${code}:\n${out}`));
    });
  });
}

/** A sandbox in its own process, so that the console's memory is measured alone. */
async function sandboxProcess(
  clusters: number,
  dir: string,
): Promise<{ kubeconfig: string; stop: () => Promise<void> }> {
  const kubeconfig = path.join(dir, 'kubeconfig');
  const child: ChildProcess = spawn(
    process.execPath,
    [CLI, 'sandbox', '--clusters', String(clusters), '--kubeconfig', kubeconfig, '--readiness-delay', '0'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  await until(() => out.includes('Press Ctrl-C to stop.') || child.exitCode !== null, 'the sandbox to start', 30_000);
  if (child.exitCode !== null) throw new Error(`the sandbox did not start:\n${out}`);
  return {
    kubeconfig,
    async stop() {
      child.kill('SIGINT');
      const exited = new Promise((r) => child.once('exit', r));
      if ((await Promise.race([exited, sleep(10_000).then(() => 'late')])) === 'late') child.kill('SIGKILL');
    },
  };
}

function consoleOn(dir: string, kubeconfig: string): { session: ConsoleSession; screen: BenchScreen } {
  const session = new Session({
    dir,
    clusterSet: new ClusterSet(loadKubeconfig(kubeconfig)),
    backend: new LocalStateBackend(dir),
    compiler: new WorkerCompiler(),
    contexts: [],
    readOnly: false,
    watch: true,
  });
  const screen = benchRender(
    createElement(App, { control: session, bindings: DEFAULT_BINDINGS, keymapFile: '', runbooks: [], unfinished: [] }),
  );
  return { session, screen };
}

const settled = (session: ConsoleSession, key: string) => () => {
  const e = session.store.get().stacks.find((s) => s.key === key);
  return e !== undefined && e.plan.state === 'ok' && !e.planning && !e.compiling;
};

interface LargeResult {
  toScreen: number;
  resources: number;
  scroll: number[];
  views: number[];
  /** The process before the console opens: node, client-node, Ink and React, the compiler. */
  baselineMb: number;
  peakMb: number;
}

async function largeStack(): Promise<LargeResult> {
  const root = generatedWorkspace(APPS);
  const sandbox = await sandboxProcess(1, root);
  let peak = 0;
  // rss() alone: the full memoryUsage() gathers the heap's statistics too, 50 times a second
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  try {
    await kdeck(
      [
        '--kubeconfig',
        sandbox.kubeconfig,
        'apply',
        '-y',
        '--no-watch',
        '--concurrency',
        '16',
        '-w',
        path.join(root, GENERATED_STACK),
      ],
      300_000,
    );
    const t0 = performance.now();
    const { session, screen } = consoleOn(root, sandbox.kubeconfig);
    try {
      const baseline = process.memoryUsage().rss;
      await session.start();
      await until(settled(session, 'load/many'), 'the 1,000-resource stack to be planned', WAIT_MS);
      const resources = session.store.get().stacks[0].changeSet!.changes.length;
      const toScreen = await screen.waitFor(`${resources} unchanged`, t0);
      // the live watch lists every object once: let it settle before timing frames
      await sleep(2_000);
      await screen.press('\r');
      const scroll: number[] = [];
      for (let i = 0; i < 200; i++) scroll.push(await screen.press(i % 50 < 40 ? 'j' : 'k'));
      for (let i = 0; i < 10; i++) scroll.push(await screen.press('\u001B[6~'));
      const views: number[] = [];
      for (let i = 0; i < 25; i++) for (const v of ['2', '3', '6', '1']) views.push(await screen.press(v));
      return {
        toScreen,
        resources,
        scroll,
        views,
        baselineMb: baseline / 2 ** 20,
        peakMb: Math.max(peak, process.memoryUsage().rss) / 2 ** 20,
      };
    } finally {
      screen.unmount();
      await session.close();
    }
  } finally {
    clearInterval(sampler);
    await sandbox.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

interface SaveFigures {
  inARow: number[];
  paused: number[];
}

async function saveToScreen(): Promise<SaveFigures> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-bench-console-'));
  fs.cpSync(path.join(ROOT, 'konfig-sample'), root, {
    recursive: true,
    filter: (src) => path.basename(src) !== '.kdeck',
  });
  const sandbox = await sandboxProcess(2, root);
  try {
    const { session, screen } = consoleOn(root, sandbox.kubeconfig);
    try {
      await session.start();
      const key = 'nginx-example/dev';
      await until(settled(session, key), `${key} to be planned`, WAIT_MS);
      // applied first, so that an image change is one Update of one field
      const state = session.store.get();
      const confirmation = confirmationFor(
        'apply',
        state.stacks.find((s) => s.key === key)!,
        state,
      );
      if ('refused' in confirmation) throw new Error(confirmation.refused);
      await session.operations.start(key, 'apply', confirmation);
      await until(() => session.store.get().operations.get(key)?.running === false, `the apply of ${key}`, WAIT_MS);
      await until(settled(session, key), `${key} to be planned again`, WAIT_MS);
      // enter on a Deployment lists its pods; 3 is its diff, which the saves change
      await screen.type(`:stack ${key}\r/Deployment\r3`);
      await screen.waitFor('apps/v1:Deployment:nginx-example-dev:nginx-example on sandbox-a');
      const main = path.join(root, SAMPLE_STACK, 'main.k');
      const original = fs.readFileSync(main, 'utf8');
      const figures: SaveFigures = { inARow: [], paused: [] };
      let saved = 0;
      for (const [times, count, pauseMs] of [
        [figures.inARow, SAVES, 0],
        [figures.paused, PAUSED_SAVES, PAUSE_MS],
      ] as const) {
        for (let i = 0; i < count; i++) {
          await sleep(pauseMs);
          const image = `nginx:b${++saved}`;
          const t0 = performance.now();
          fs.writeFileSync(main, `${original}\nappConfiguration: frontend.Server {\n    image = "${image}"\n}\n`);
          times.push(await screen.waitFor(image, t0));
          await until(settled(session, key), `${key} to settle after save ${saved}`, WAIT_MS);
        }
      }
      return figures;
    } finally {
      screen.unmount();
      await session.close();
    }
  } finally {
    await sandbox.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const large = await largeStack();
  const { inARow: saves, paused } = await saveToScreen();
  const scrollP95 = percentile(large.scroll, 95);
  const viewsP95 = percentile(large.views, 95);
  const saveP50 = percentile(saves, 50);
  const pausedP50 = percentile(paused, 50);
  console.log('kdeck console benchmark (100×30 frames, sandbox clusters in their own process)');
  console.log(
    `  1,000 resources  ${large.resources} applied resources on screen ${ms(large.toScreen)} after start (compile in the worker, plan, first frames)`,
  );
  console.log(
    `                   scrolling ${large.scroll.length} keys: p50 ${ms(percentile(large.scroll, 50))}, p95 ${ms(scrollP95)}; switching views ${large.views.length} times: p50 ${ms(percentile(large.views, 50))}, p95 ${ms(viewsP95)}`,
  );
  console.log(
    `                   memory: peak resident set ${large.peakMb.toFixed(0)} MB (${large.baselineMb.toFixed(0)} MB before the console opened)`,
  );
  console.log(
    `  save to screen   ${SAVES} saves of an image in ${SAMPLE_STACK}/main.k: p50 ${ms(saveP50)}, p95 ${ms(percentile(saves, 95))} (min ${ms(Math.min(...saves))}, max ${ms(Math.max(...saves))})`,
  );
  console.log(
    `                   ${PAUSED_SAVES} saves ${PAUSE_MS / 1000} s apart: p50 ${ms(pausedP50)}, p95 ${ms(percentile(paused, 95))} (min ${ms(Math.min(...paused))}, max ${ms(Math.max(...paused))})`,
  );
  printTargets([
    { name: `save to screen p50 < ${TARGET_SAVE_P50_MS} ms`, ok: saveP50 < TARGET_SAVE_P50_MS, detail: ms(saveP50) },
    {
      name: `saves ${PAUSE_MS / 1000} s apart p50 < ${TARGET_SAVE_P50_MS} ms`,
      ok: pausedP50 < TARGET_SAVE_P50_MS,
      detail: ms(pausedP50),
    },
    {
      name: `scrolling frame p95 < ${TARGET_FRAME_P95_MS} ms`,
      ok: scrollP95 < TARGET_FRAME_P95_MS,
      detail: ms(scrollP95),
    },
    {
      name: `view switch frame p95 < ${TARGET_FRAME_P95_MS} ms`,
      ok: viewsP95 < TARGET_FRAME_P95_MS,
      detail: ms(viewsP95),
    },
    {
      name: `memory < ${TARGET_MEMORY_MB} MB`,
      ok: large.peakMb < TARGET_MEMORY_MB,
      detail: `${large.peakMb.toFixed(0)} MB`,
    },
  ]);
  return 0;
}

runBench(main);
