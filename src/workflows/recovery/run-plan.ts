/**
 * A runbook's plan made into a run's: every pod target gets the uid it has now, which is how
 * the steps tell the pod they were asked to restart from its replacement, however often they run.
 */
import type { Listed, ObjectClient } from '../../cluster/objects.js';
import { durationOf, type RecoveryPlan } from '../../recovery/plan.js';
import { apiVersionOf } from '../../model/kube-object.js';
import { REPLACING_OWNERS, type RunPlan } from './model.js';

/**
 * What a run's watch-fed caches start from, listed before its approval so that the first batch
 * starts the moment it is approved: by `cluster\0namespace\0kind`, the pods of each namespace the
 * plan's targets are in and the workloads that replace them.
 */
export type Listings = ReadonlyMap<string, Listed>;

export const listingKey = (cluster: string, namespace: string, kind: string) => `${cluster}\0${namespace}\0${kind}`;

/** Lists what a plan's run reads first, each namespace and kind once: the pods, and with
 * `workloads` the workloads that replace them too (a plan frozen only for its uids needs none). */
export async function listTargets(
  plan: RecoveryPlan,
  client: (cluster: string) => ObjectClient,
  { workloads }: { workloads: boolean },
): Promise<Listings> {
  const wanted = new Map<string, { cluster: string; namespace: string; kind: string }>();
  const want = (cluster: string, namespace: string, kind: string) =>
    wanted.set(listingKey(cluster, namespace, kind), { cluster, namespace, kind });
  for (const t of plan.runbook.targets) {
    if (t.kind === 'Pod') want(t.cluster, t.namespace, 'Pod');
    const workload = t.kind === 'Pod' ? t.owner?.kind : t.kind;
    if (workloads && workload && REPLACING_OWNERS.has(workload)) want(t.cluster, t.namespace, workload);
  }
  return new Map(
    await Promise.all(
      [...wanted].map(
        async ([key, { cluster, namespace, kind }]) =>
          [key, await client(cluster).list({ apiVersion: apiVersionOf(kind), kind, namespace })] as const,
      ),
    ),
  );
}

/** The run's plan, from pods listed now. */
export async function freezePlan(
  plan: RecoveryPlan,
  client: (cluster: string) => ObjectClient,
  at: Date,
): Promise<RunPlan> {
  return freezeWith(plan, await listTargets(plan, client, { workloads: false }), at);
}

/** The run's plan from the pods listed for it. */
export function freezeWith(plan: RecoveryPlan, listed: Listings, at: Date): RunPlan {
  const { runbook } = plan;
  const uids = new Map<string, string>();
  // by listing and name: only the pod listings' entries are looked up
  for (const [key, { items }] of listed)
    for (const p of items) uids.set(`${key}\0${String(p.metadata?.name)}`, String(p.metadata?.uid));
  return {
    runbook: runbook.name,
    action: runbook.action,
    maxUnavailable: runbook.strategy.maxUnavailable,
    clusterConcurrency: runbook.strategy.clusterConcurrency,
    healthTimeoutMs: durationOf(runbook.strategy.healthTimeout),
    onFailure: runbook.strategy.onFailure,
    restartedAt: at.toISOString(),
    batches: plan.batches.map((b) => ({
      ...b,
      targets: b.targets.map((t) => {
        const uid = t.kind === 'Pod' ? uids.get(`${listingKey(t.cluster, t.namespace, 'Pod')}\0${t.name}`) : undefined;
        return uid ? { ...t, uid } : t;
      }),
    })),
    unresolved: runbook.unresolved,
    blastRadius: plan.blastRadius,
  };
}
