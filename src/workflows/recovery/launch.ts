/**
 * Starting a recovery run and opening one again, as `kdeck recover` and the console both do:
 * the plan frozen with the pods' uids, the run's record written under `.kdeck/runs/`, and the
 * machine started with steps against the clusters.
 */
import type { RecoveryPlan } from '../../recovery/plan.js';
import { operatorName } from '../../state/holder.js';
import { clusterSteps, type ClusterAccess } from './cluster-steps.js';
import type { RunPlan } from './model.js';
import { freezePlan } from './run-plan.js';
import { newRunId, RunStore, type RunRecord } from './run-store.js';
import { startRun, type LiveRun, type RunUpdate } from './runner.js';

export interface OpenOptions {
  onUpdate?: (u: RunUpdate) => void;
  /** The persisted snapshot of a run being resumed. */
  snapshot?: unknown;
  /** What this process changes of the plan (with no operator to ask, pause becomes stop). */
  adjust?: (plan: RunPlan) => RunPlan;
}

/** A run from its record: fresh, or resumed from its snapshot. */
export function openRun(store: RunStore, record: RunRecord, clusters: ClusterAccess, options: OpenOptions = {}): LiveRun {
  const plan = options.adjust ? options.adjust(record.plan) : record.plan;
  return startRun({
    store,
    who: operatorName(),
    steps: (audit) => clusterSteps(clusters, audit),
    input: { runId: store.id },
    plan,
    ...(options.snapshot !== undefined ? { snapshot: options.snapshot } : {}),
    ...(options.onUpdate ? { onUpdate: options.onUpdate } : {}),
  });
}

/** A new run of `plan`, awaiting approval. `runbook` is the file relative to the workspace. */
export async function launchRun(root: string, runbook: string, options: [string, string][], plan: RecoveryPlan, clusters: ClusterAccess, open: OpenOptions = {}): Promise<LiveRun> {
  const at = new Date();
  const runPlan = await freezePlan(plan, (c) => clusters.client(c), at);
  const store = new RunStore(root, newRunId(plan.runbook.name, at));
  const record = store.create({ runbook, options, createdAt: at.toISOString(), who: operatorName(), plan: runPlan });
  return openRun(store, record, clusters, open);
}
