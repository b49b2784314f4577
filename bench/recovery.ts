/**
 * The recovery part of `npm run bench`: 300 pods over three sandbox clusters (recovery-fleet.ts)
 * restarted by one run in batches of ten, at most one replica of a workload down at once,
 * readiness delay 200 ms. Reported: the wall time of the run (approval to the last cluster
 * verified), and its ratio to the lower bound: batches per cluster × readiness delay, clusters
 * in parallel. The clusters run in a process of their own, as real ones do: in the bench's
 * process they shared one event loop with the run they serve. Where a batch's time goes beyond
 * the readiness: recovery-batches.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { printTargets, runBench } from './report.js';
import { launchRun } from '../src/workflows/recovery/launch.js';
import { CLUSTERS, READINESS_MS, startFleet } from './recovery-fleet.js';

/** The bar of issue 18. */
const TARGET_RATIO = 1.2;

async function main(): Promise<number> {
  const { sandbox, clusters, plan, batchesPerCluster } = await startFleet();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-bench-recovery-'));
  try {
    const run = await launchRun(root, 'bench', [], plan, clusters);
    const started = performance.now();
    run.actor.send({ type: 'APPROVE' });
    const final = await run.settled();
    const wallMs = performance.now() - started;
    await run.close();
    const ends = Object.values(final.context.settled).map((r) => r.end);
    if (ends.length !== CLUSTERS || ends.some((e) => e !== 'done'))
      throw new Error(`the run did not finish cleanly: ${JSON.stringify(final.context.settled)}`);
    const boundMs = batchesPerCluster * READINESS_MS;
    const ratio = wallMs / boundMs;
    const pods = plan.batches.reduce((n, b) => n + b.targets.length, 0);
    console.log(
      `recovery: ${pods} pods over ${CLUSTERS} clusters, batches of ${plan.runbook.strategy.batchSize} (${batchesPerCluster} per cluster), readiness ${READINESS_MS} ms`,
    );
    console.log(
      `  wall ${(wallMs / 1000).toFixed(2)} s, lower bound ${(boundMs / 1000).toFixed(2)} s, ratio ${ratio.toFixed(2)}`,
    );
    printTargets([
      { name: `recovery wall / lower bound <= ${TARGET_RATIO}`, ok: ratio <= TARGET_RATIO, detail: ratio.toFixed(2) },
    ]);
    return 0;
  } finally {
    await sandbox.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

runBench(main);
