/**
 * The engine's part of `npm run bench`: a generated stack of about 500 resources (a namespace,
 * then per app a ConfigMap, a Service and a Deployment that depends on both) applied to a
 * sandbox cluster at concurrency 16, health followed as `kdeck apply` does. Reported: the wall
 * time, and its ratio to the lower bound no schedule can beat (lower-bound.ts); then a preview
 * of the applied stack. Readiness delay 0 by default; `--readiness MS` (with pods starting in
 * 300 ms) shows the bound where pods take their time, as they always do.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ClusterSet } from '../src/cluster/cluster-set.js';
import { loadKubeconfig } from '../src/cluster/kubeconfig.js';
import { compileStack } from '../src/konfig/compile.js';
import { startSandbox } from '../src/sandbox/launcher.js';
import { LocalStateBackend } from '../src/state/local.js';
import { executeChanges } from '../src/workflows/execute.js';
import { summarize } from '../src/diff/change-set.js';
import { planChanges } from '../src/workflows/plan.js';
import { watchedHealth } from '../src/health/watched-health.js';
import { generatedWorkspace } from './workspace.js';
import { lowerBoundMs } from './lower-bound.js';
import { printTargets, runBench } from './report.js';

const APPS = 166;
const CONCURRENCY = 16;
const TARGET_RATIO = 1.5;
const TARGET_PREVIEW_MS = 2000;

function readinessMs(): number {
  const at = process.argv.indexOf('--readiness');
  return at >= 0 ? Number(process.argv[at + 1]) : 0;
}

async function main(): Promise<number> {
  const readiness = readinessMs();
  const sandbox = await startSandbox({
    clusters: 1,
    timings: { podStartMs: readiness ? 300 : 0, readinessDelayMs: readiness, terminationMs: 0 },
  });
  const root = generatedWorkspace(APPS);
  try {
    const dir = path.join(root, 'apps/load/many');
    const clusters = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath));
    const compiled = compileStack(dir);
    const backend = new LocalStateBackend(root);
    /** The time spent in the executor's API calls, summed over the calls (they overlap). */
    let callMs = 0;
    let timing = false;
    const timed =
      <A extends unknown[], R>(call: (...a: A) => Promise<R>) =>
      async (...a: A): Promise<R> => {
        const t = performance.now();
        try {
          return await call(...a);
        } finally {
          if (timing) callMs += performance.now() - t;
        }
      };
    const ports = {
      resolve: (c: string | undefined) => clusters.resolve(c),
      client: (c: string) => {
        const client = clusters.client(c);
        return {
          cluster: client.cluster,
          get: timed(client.get.bind(client)),
          apply: timed(client.apply.bind(client)),
          delete: timed(client.delete.bind(client)),
          list: client.list.bind(client),
          waitGone: client.waitGone.bind(client),
        };
      },
    };
    const changeSet = await planChanges({ stack: compiled.stack, spec: compiled.spec, clusters: ports, backend });
    const started = new Map<string, number>();
    const applied = new Map<string, number>();
    const durations = new Map<string, number>();
    const healthMs = new Map<string, number>();
    const health = watchedHealth(clusters);
    timing = true;
    const t0 = performance.now();
    const result = await executeChanges(
      {
        stack: compiled.stack,
        changeSet,
        clusters: ports,
        backend,
        operation: 'apply',
        operator: 'bench@local',
        concurrency: CONCURRENCY,
        timeoutMs: 120_000,
        followHealth: health.follow,
        signal: new AbortController().signal,
      },
      (e) => {
        const now = performance.now();
        if (e.type === 'started') started.set(e.id, now);
        if (e.type === 'applied') applied.set(e.id, now);
        if (e.type === 'finished') {
          durations.set(e.id, now - started.get(e.id)!);
          healthMs.set(e.id, now - (applied.get(e.id) ?? now));
        }
      },
    );
    const wall = performance.now() - t0;
    timing = false;
    health.close();
    if (result.failed.length || result.skipped.length) {
      console.log(`  apply          FAILED: ${result.failed.length} failed, ${result.skipped.length} skipped`);
      return 1;
    }
    const bound = lowerBoundMs(changeSet.graph, durations, healthMs, callMs, CONCURRENCY);
    const ratio = wall / bound;
    const p0 = performance.now();
    const again = await planChanges({ stack: compiled.stack, spec: compiled.spec, clusters: ports, backend });
    const previewMs = performance.now() - p0;
    const unchanged = summarize(again.changes).UnChanged;
    console.log(
      `kdeck engine benchmark (one sandbox cluster, readiness delay ${readiness} ms${readiness ? ', pods start in 300 ms' : ''})`,
    );
    console.log(
      `  apply          ${changeSet.changes.length} resources at concurrency ${CONCURRENCY}: ${(wall / 1000).toFixed(2)} s, lower bound ${(bound / 1000).toFixed(2)} s, ratio ${ratio.toFixed(2)}`,
    );
    console.log(
      `  preview        the applied stack: ${previewMs.toFixed(0)} ms (${unchanged}/${again.changes.length} unchanged)`,
    );
    printTargets([
      { name: `apply wall / lower bound <= ${TARGET_RATIO}`, ok: ratio <= TARGET_RATIO, detail: ratio.toFixed(2) },
      {
        name: `preview < ${TARGET_PREVIEW_MS} ms`,
        ok: previewMs < TARGET_PREVIEW_MS,
        detail: `${previewMs.toFixed(0)} ms`,
      },
    ]);
    return 0;
  } finally {
    await sandbox.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

runBench(main);
