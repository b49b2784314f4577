/**
 * The recovery part of `npm run bench`: 300 pods over three sandbox clusters (ten Deployments of
 * ten replicas each per cluster) restarted by one run in batches of ten, at most one replica of
 * a workload down at once, readiness delay 200 ms (pods start and stop at once, so readiness is
 * the only wait a batch cannot avoid). Reported: the wall time of the run (approval to the last
 * cluster verified), and its ratio to the lower bound: batches per cluster × readiness delay,
 * clusters in parallel. The clusters run in a process of their own, as real ones do: in the
 * bench's process they shared one event loop with the run they serve.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ClusterSet } from '../src/cluster/cluster-set.js';
import { loadKubeconfig } from '../src/cluster/kubeconfig.js';
import type { KubeObject } from '../src/model/kube-object.js';
import { planRecovery, type RecoveryTarget } from '../src/recovery/plan.js';
import { printTargets, runBench } from './report.js';
import { launchRun } from '../src/workflows/recovery/launch.js';
import { startSandboxProcess } from './sandbox-process.js';

const CLUSTERS = 3;
const WORKLOADS = 10;
const REPLICAS = 10;
const BATCH = 10;
const READINESS_MS = 200;
/** The bar of issue 18. */
const TARGET_RATIO = 1.2;

const deployment = (i: number): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: `app-${i}`, namespace: 'default' },
  spec: {
    replicas: REPLICAS,
    selector: { matchLabels: { app: `app-${i}` } },
    template: {
      metadata: { labels: { app: `app-${i}` } },
      spec: { containers: [{ name: 'main', image: `registry.example/app:${i}` }] },
    },
  },
});

async function allReady(clusters: ClusterSet, contexts: string[]): Promise<KubeObject[][]> {
  for (;;) {
    const pods = await Promise.all(
      contexts.map(
        async (c) => (await clusters.client(c).list({ apiVersion: 'v1', kind: 'Pod', namespace: 'default' })).items,
      ),
    );
    const ready = (p: KubeObject) =>
      ((p.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some(
        (x) => x.type === 'Ready' && x.status === 'True',
      );
    if (pods.every((ps) => ps.length === WORKLOADS * REPLICAS && ps.every(ready))) return pods;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function main(): Promise<number> {
  const sandbox = await startSandboxProcess({
    clusters: CLUSTERS,
    nodes: 5,
    seed: 11,
    timings: { podStartMs: 0, readinessDelayMs: READINESS_MS, terminationMs: 0 },
  });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-bench-recovery-'));
  try {
    const clusters = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath));
    const contexts = clusters.contexts.map((c) => c.name);
    for (const c of contexts) for (let i = 0; i < WORKLOADS; i++) await clusters.client(c).apply(deployment(i));
    const pods = await allReady(clusters, contexts);
    const targets: RecoveryTarget[] = contexts.flatMap((cluster, ci) =>
      pods[ci]!.map((p) => {
        const name = String(p.metadata?.name);
        return {
          cluster,
          namespace: 'default',
          kind: 'Pod',
          name,
          owner: { kind: 'Deployment', name: name.replace(/-[a-z0-9]+-[a-z0-9]+$/, '') },
        };
      }),
    );
    const plan = planRecovery({
      name: 'bench',
      action: 'delete',
      strategy: {
        batchSize: BATCH,
        maxUnavailable: 1,
        clusterConcurrency: CLUSTERS,
        healthTimeout: '2m',
        onFailure: 'abort',
      },
      targets,
      unresolved: [],
    });
    const run = await launchRun(root, 'bench', [], plan, clusters);
    const started = performance.now();
    run.actor.send({ type: 'APPROVE' });
    const final = await run.settled();
    const wallMs = performance.now() - started;
    await run.close();
    const ends = Object.values(final.context.settled).map((r) => r.end);
    if (ends.length !== CLUSTERS || ends.some((e) => e !== 'done'))
      throw new Error(`the run did not finish cleanly: ${JSON.stringify(final.context.settled)}`);
    const batchesPerCluster = Math.max(...contexts.map((c) => plan.batches.filter((b) => b.cluster === c).length));
    const boundMs = batchesPerCluster * READINESS_MS;
    const ratio = wallMs / boundMs;
    console.log(
      `recovery: ${targets.length} pods over ${CLUSTERS} clusters, batches of ${BATCH} (${batchesPerCluster} per cluster), readiness ${READINESS_MS} ms`,
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
