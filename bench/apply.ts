/**
 * The engine's part of `npm run bench`: a generated stack of about 500 resources (a namespace,
 * then per app a ConfigMap, a Service and a Deployment that depends on both) applied to a
 * sandbox cluster with readiness delay 0 at concurrency 16, health followed as `kdeck apply`
 * does. Reported: the wall time, and its ratio to the lower bound no schedule can beat (the
 * longest dependency chain of measured resource times, or all the work spread over 16 slots,
 * whichever is longer); then a preview of the applied stack.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ClusterSet } from '../src/cluster/cluster-set.js';
import { loadKubeconfig } from '../src/cluster/kubeconfig.js';
import { healthFollower } from '../src/health/follow.js';
import { compileStack } from '../src/konfig/compile.js';
import { startSandbox } from '../src/sandbox/launcher.js';
import { LocalStateBackend } from '../src/state/local.js';
import { executeChanges } from '../src/workflows/execute.js';
import { summarize, type ChangeSet } from '../src/diff/change-set.js';
import { planChanges } from '../src/workflows/plan.js';
import { generatedWorkspace } from './workspace.js';
import { printTargets, runBench } from './report.js';

const APPS = 166;
const CONCURRENCY = 16;
const TARGET_RATIO = 1.5;
const TARGET_PREVIEW_MS = 2000;

/** The best any schedule could do with these resource times: the longest chain, or the work over the slots. */
export function lowerBoundMs(changeSet: ChangeSet, durations: Map<string, number>, concurrency: number): number {
  const finish = new Map<string, number>();
  for (const id of changeSet.graph.order()) {
    const start = Math.max(0, ...changeSet.graph.dependenciesOf(id).map((d) => finish.get(d) ?? 0));
    finish.set(id, start + (durations.get(id) ?? 0));
  }
  const chain = Math.max(0, ...finish.values());
  const work = [...durations.values()].reduce((a, b) => a + b, 0) / concurrency;
  return Math.max(chain, work);
}

async function main(): Promise<number> {
  const sandbox = await startSandbox({
    clusters: 1,
    timings: { podStartMs: 0, readinessDelayMs: 0, terminationMs: 0 },
  });
  const root = generatedWorkspace(APPS);
  try {
    const dir = path.join(root, 'apps/load/many');
    const clusters = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath));
    const compiled = compileStack(dir);
    const backend = new LocalStateBackend(root);
    const ports = {
      resolve: (c: string | undefined) => clusters.resolve(c),
      client: (c: string) => clusters.client(c),
    };
    const changeSet = await planChanges({ stack: compiled.stack, spec: compiled.spec, clusters: ports, backend });
    const started = new Map<string, number>();
    const durations = new Map<string, number>();
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
        followHealth: healthFollower(clusters),
        signal: new AbortController().signal,
      },
      (e) => {
        if (e.type === 'started') started.set(e.id, performance.now());
        if (e.type === 'finished') durations.set(e.id, performance.now() - started.get(e.id)!);
      },
    );
    const wall = performance.now() - t0;
    if (result.failed.length || result.skipped.length) {
      console.log(`  apply          FAILED: ${result.failed.length} failed, ${result.skipped.length} skipped`);
      return 1;
    }
    const bound = lowerBoundMs(changeSet, durations, CONCURRENCY);
    const ratio = wall / bound;
    const p0 = performance.now();
    const again = await planChanges({ stack: compiled.stack, spec: compiled.spec, clusters: ports, backend });
    const previewMs = performance.now() - p0;
    const unchanged = summarize(again.changes).UnChanged;
    console.log('kdeck engine benchmark (one sandbox cluster, readiness delay 0)');
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
