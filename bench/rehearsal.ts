/**
 * The rehearsal part of `npm run bench`: the fixture's three clusters (bench/rehearsal-fixture.ts:
 * workloads of 2 to 4 replicas, readiness 1 to 4 s, a PodDisruptionBudget that refuses one
 * eviction) stand in for production. The runbook (AppRecovery, -D action=evict) is planned and
 * frozen once, rehearsed on the embedded copy at each time scale given (default: 0.25, four
 * times as fast), then run for real; reported: the predicted and the actual wall time (approval
 * to the last cluster verified), per cluster and per batch, and the error of the forecast.
 *
 *   node dist/bench/rehearsal.js [--time-scale 0.25,1]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { planRecovery } from '../src/app/recovery.js';
import {
  DEFAULT_TIME_SCALE,
  freezeRecovery,
  launchRehearsedRun,
  rehearseRecovery,
} from '../src/app/rehearsal/rehearsal.js';
import { ClusterSet } from '../src/cluster/cluster-set.js';
import { loadKubeconfig } from '../src/cluster/kubeconfig.js';
import type { Rehearsal } from '../src/recovery/rehearsal.js';
import { startSandbox } from '../src/sandbox/launcher.js';
import type { AuditEntry } from '../src/workflows/recovery/model.js';
import { deployFixture, fixtureHosts, settledFixture } from './rehearsal-fixture.js';
import { printTargets, runBench } from './report.js';

const TARGET_ERROR = 0.3;
const RUNBOOK = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'konfig-sample',
  'runbooks',
  'AppRecovery.k',
);
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function scales(): number[] {
  const i = process.argv.indexOf('--time-scale');
  const text = i > 0 ? process.argv[i + 1] : undefined;
  return text ? text.split(',').map(Number) : [DEFAULT_TIME_SCALE];
}

async function main(): Promise<number> {
  const sandbox = await startSandbox({ clusters: 3, nodes: 3, seed: 19 });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-bench-rehearsal-'));
  try {
    const clusters = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath));
    await deployFixture(clusters);
    const hosts = await fixtureHosts(clusters);
    const { plan } = await planRecovery(RUNBOOK, [`hosts=${hosts.join(',')}`, 'action=evict'], {
      clusterSet: () => Promise.resolve(clusters),
    });
    const frozen = await freezeRecovery(plan, clusters);
    const rehearsals: Rehearsal[] = [];
    for (const timeScale of scales()) rehearsals.push(await rehearseRecovery(frozen, clusters, { timeScale }));
    await settledFixture(clusters);

    const run = launchRehearsedRun(root, 'runbooks/AppRecovery.k', [], frozen, rehearsals[0]!, clusters);
    const started = performance.now();
    run.actor.send({ type: 'APPROVE' });
    const final = await run.settled();
    const actualMs = performance.now() - started;
    await run.close();
    // each batch's and cluster's actual time, from the run's audit log, counted from its approval
    const audit = fs
      .readFileSync(path.join(root, '.kdeck', 'runs', run.id, 'audit.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditEntry);
    const t0 = Date.parse(audit.find((e) => e.action === 'run' && e.outcome === 'approved')!.time);
    const verified = new Map<string, number>();
    const ends = new Map<string, number>();
    for (const e of audit) {
      const at = Date.parse(e.time) - t0;
      if (e.action === 'batch' && e.outcome === 'verified') verified.set(`${e.cluster} ${e.target}`, at);
      if (e.action === 'cluster' && e.cluster) ends.set(e.cluster, at);
    }
    if (Object.values(final.context.settled).some((r) => r.end !== 'done'))
      throw new Error(`the real run did not finish cleanly: ${JSON.stringify(final.context.settled)}`);

    console.log(
      `rehearsal: ${frozen.batches.length} batches over 3 clusters (evict, one PDB refusal); real run ${s(actualMs)}`,
    );
    const targets = [];
    for (const r of rehearsals) {
      const error = Math.abs(r.predicted.overallMs - actualMs) / actualMs;
      console.log(
        `  time scale ${r.timeScale}: predicted ${s(r.predicted.overallMs)} (rehearsal took ${s(r.tookMs)}), actual ${s(actualMs)}, error ${(error * 100).toFixed(0)}%; lower bound ${s(r.lowerBound.overallMs)}`,
      );
      for (const c of r.predicted.clusters)
        console.log(`    ${c.cluster}: predicted ${s(c.wallMs)}, actual ${s(ends.get(c.cluster) ?? NaN)}`);
      for (const b of r.batches)
        console.log(
          `      ${b.cluster} batch ${b.index}: predicted verified at ${s(b.endMs ?? NaN)}, actual ${s(verified.get(`${b.cluster} batch ${b.index}`) ?? NaN)}`,
        );
      targets.push({
        name: `|predicted − actual| / actual <= ${TARGET_ERROR} (x${r.timeScale})`,
        ok: error <= TARGET_ERROR,
        detail: `${(error * 100).toFixed(0)}%`,
      });
    }
    printTargets(targets);
    return 0;
  } finally {
    await sandbox.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

runBench(main);
