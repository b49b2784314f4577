/**
 * A runbook's plan made into a run's: every pod target gets the uid it has now, which is how
 * the steps tell the pod they were asked to restart from its replacement, however often they run.
 */
import type { ObjectClient } from '../../cluster/objects.js';
import { durationOf, type RecoveryPlan } from '../../recovery/plan.js';
import type { RunPlan } from './model.js';

export async function freezePlan(
  plan: RecoveryPlan,
  client: (cluster: string) => ObjectClient,
  at: Date,
): Promise<RunPlan> {
  const { runbook } = plan;
  const uids = new Map<string, string>();
  const namespaces = new Set(
    runbook.targets.filter((t) => t.kind === 'Pod').map((t) => `${t.cluster}\0${t.namespace}`),
  );
  await Promise.all(
    [...namespaces].map(async (key) => {
      const [cluster, namespace] = key.split('\0') as [string, string];
      for (const p of (await client(cluster).list({ apiVersion: 'v1', kind: 'Pod', namespace })).items) {
        uids.set(`${cluster}\0${namespace}\0${String(p.metadata?.name)}`, String(p.metadata?.uid));
      }
    }),
  );
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
        const uid = t.kind === 'Pod' ? uids.get(`${t.cluster}\0${t.namespace}\0${t.name}`) : undefined;
        return uid ? { ...t, uid } : t;
      }),
    })),
    unresolved: runbook.unresolved,
    blastRadius: plan.blastRadius,
  };
}
