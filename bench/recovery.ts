/**
 * The recovery part of `npm run bench`: 300 pods over three sandbox clusters (recovery-fleet.ts)
 * restarted by one run in batches of ten, at most one replica of a workload down at once,
 * readiness delay 200 ms. Reported: the wall time of the run (approval to the last cluster
 * verified), and its ratio to the lower bound: batches per cluster × readiness delay, clusters
 * in parallel. The clusters run in a process of their own, as real ones do: in the bench's
 * process they shared one event loop with the run they serve. Beside it, the clusters' own pace:
 * the same plan done on a fleet of its own by the thinnest client (recovery-pace.ts), and kdeck's
 * time against it, which is what kdeck itself adds. Median of three of each, a run and a pace in
 * turn, so that both see the same phases of a shared machine. Where a batch's time goes beyond
 * the readiness: recovery-batches.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, printTargets, runBench } from './report.js';
import { launchRun } from '../src/workflows/recovery/launch.js';
import { CLUSTERS, READINESS_MS, onFleet, type Fleet } from './recovery-fleet.js';
import { recoveryPace } from './recovery-pace.js';

/** The bar of issue 18. */
const TARGET_RATIO = 1.2;
const RUNS = 3;

interface Run {
  wallMs: number;
  /** The plan's shape, the same for every fleet. */
  boundMs: number;
  pods: number;
  batchSize: number;
  batches: number;
}

/** One run of the plan by kdeck: approval to the last cluster verified. */
async function run({ clusters, plan, batchesPerCluster }: Fleet): Promise<Run> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-bench-recovery-'));
  try {
    const launched = await launchRun(root, 'bench', [], plan, clusters);
    const started = performance.now();
    launched.actor.send({ type: 'APPROVE' });
    const final = await launched.settled();
    const wallMs = performance.now() - started;
    await launched.close();
    const ends = Object.values(final.context.settled).map((r) => r.end);
    if (ends.length !== CLUSTERS || ends.some((e) => e !== 'done'))
      throw new Error(`the run did not finish cleanly: ${JSON.stringify(final.context.settled)}`);
    return {
      wallMs,
      boundMs: batchesPerCluster * READINESS_MS,
      pods: plan.batches.reduce((n, b) => n + b.targets.length, 0),
      batchSize: plan.runbook.strategy.batchSize,
      batches: batchesPerCluster,
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const runs: Run[] = [];
  const paces: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    runs.push(await onFleet(run));
    paces.push(await onFleet(recoveryPace));
  }
  const { boundMs, pods, batchSize, batches } = runs[0]!;
  const walls = runs.map((r) => r.wallMs);
  const wallMs = median(walls);
  const paceMs = median(paces);
  const ratio = wallMs / boundMs;
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const each = (xs: number[]) => xs.map(s).join(', ');
  console.log(
    `recovery: ${pods} pods over ${CLUSTERS} clusters, batches of ${batchSize} (${batches} per cluster), readiness ${READINESS_MS} ms; median of ${RUNS}`,
  );
  console.log(`  wall ${s(wallMs)} (${each(walls)}), lower bound ${s(boundMs)}, ratio ${ratio.toFixed(2)}`);
  console.log(
    `  the clusters' pace (the same plan by the thinnest client): ${s(paceMs)} (${each(paces)}), ${(paceMs / boundMs).toFixed(2)} × the lower bound; kdeck / pace ${(wallMs / paceMs).toFixed(2)}`,
  );
  printTargets([
    { name: `recovery wall / lower bound <= ${TARGET_RATIO}`, ok: ratio <= TARGET_RATIO, detail: ratio.toFixed(2) },
  ]);
  return 0;
}

runBench(main);
