/**
 * A runbook's plan made into a run's: every pod target gets the uid it has now, which is how
 * the steps tell the pod they were asked to restart from its replacement, however often they run.
 */
import type { Listed, ObjectClient } from '../../cluster/objects.js';
import { durationOf, type RecoveryPlan } from '../../recovery/plan.js';
import type { RunPlan } from './model.js';

/** The pods of each namespace a plan's pod targets are in, by `cluster\0namespace`. */
export type TargetPods = ReadonlyMap<string, Listed>;

export const podsKey = (cluster: string, namespace: string) => `${cluster}\0${namespace}`;

/** Lists the namespaces of a plan's pod targets, each once. */
export async function listTargetPods(
  plan: RecoveryPlan,
  client: (cluster: string) => ObjectClient,
): Promise<TargetPods> {
  const keys = new Set(
    plan.runbook.targets.filter((t) => t.kind === 'Pod').map((t) => podsKey(t.cluster, t.namespace)),
  );
  return new Map(
    await Promise.all(
      [...keys].map(async (key) => {
        const [cluster, namespace] = key.split('\0') as [string, string];
        return [key, await client(cluster).list({ apiVersion: 'v1', kind: 'Pod', namespace })] as const;
      }),
    ),
  );
}

/** The run's plan, from pods listed now. */
export async function freezePlan(
  plan: RecoveryPlan,
  client: (cluster: string) => ObjectClient,
  at: Date,
): Promise<RunPlan> {
  return freezeWith(plan, await listTargetPods(plan, client), at);
}

/** The run's plan from the pods listed for it. */
export function freezeWith(plan: RecoveryPlan, pods: TargetPods, at: Date): RunPlan {
  const { runbook } = plan;
  const uids = new Map<string, string>();
  for (const [key, { items }] of pods)
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
        const uid = t.kind === 'Pod' ? uids.get(`${podsKey(t.cluster, t.namespace)}\0${t.name}`) : undefined;
        return uid ? { ...t, uid } : t;
      }),
    })),
    unresolved: runbook.unresolved,
    blastRadius: plan.blastRadius,
  };
}
