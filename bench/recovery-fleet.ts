/**
 * The fleet of the recovery benches: three sandbox clusters in a process of their own (as real
 * ones run apart from kdeck), ten Deployments of ten replicas each per cluster, all Ready, and
 * the plan that restarts their 300 pods in batches of ten, at most one replica of a workload down
 * at once. Pods start and stop at once and turn Ready 200 ms after they start, so readiness is
 * the only wait a batch cannot avoid.
 */
import { ClusterSet } from '../src/cluster/cluster-set.js';
import { loadKubeconfig } from '../src/cluster/kubeconfig.js';
import type { KubeObject } from '../src/model/kube-object.js';
import { planRecovery, type RecoveryPlan, type RecoveryTarget } from '../src/recovery/plan.js';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process.js';

export const CLUSTERS = 3;
const WORKLOADS = 10;
const REPLICAS = 10;
const BATCH = 10;
export const READINESS_MS = 200;

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

export const podReady = (p: KubeObject) =>
  ((p.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some(
    (x) => x.type === 'Ready' && x.status === 'True',
  );

async function allReady(clusters: ClusterSet, contexts: string[]): Promise<KubeObject[][]> {
  for (;;) {
    const pods = await Promise.all(
      contexts.map(
        async (c) => (await clusters.client(c).list({ apiVersion: 'v1', kind: 'Pod', namespace: 'default' })).items,
      ),
    );
    if (pods.every((ps) => ps.length === WORKLOADS * REPLICAS && ps.every(podReady))) return pods;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Fleet {
  sandbox: SandboxProcess;
  clusters: ClusterSet;
  contexts: string[];
  plan: RecoveryPlan;
  /** The most batches one cluster has: the clusters go in parallel. */
  batchesPerCluster: number;
}

/**
 * `use` on a fleet of its own, stopped afterwards whatever happens: a run replaces every pod its
 * plan names, so each run needs fresh clusters.
 */
export async function onFleet<T>(use: (fleet: Fleet) => Promise<T>): Promise<T> {
  const fleet = await startFleet();
  try {
    return await use(fleet);
  } finally {
    await fleet.sandbox.stop();
  }
}

/** Starts the clusters and their workloads (stop `sandbox` when done, whatever happens). */
export async function startFleet(): Promise<Fleet> {
  const sandbox = await startSandboxProcess({
    clusters: CLUSTERS,
    nodes: 5,
    seed: 11,
    timings: { podStartMs: 0, readinessDelayMs: READINESS_MS, terminationMs: 0 },
  });
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
    const batchesPerCluster = Math.max(...contexts.map((c) => plan.batches.filter((b) => b.cluster === c).length));
    return { sandbox, clusters, contexts, plan, batchesPerCluster };
  } catch (e) {
    await sandbox.stop();
    throw e;
  }
}
