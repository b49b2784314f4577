/**
 * Starting a recovery run and opening one again, as `kdeck recover` and the console both do:
 * the plan frozen with the pods' uids, the run's record written under `.kdeck/runs/`, and the
 * machine started with steps against the clusters.
 */
import type { RecoveryPlan } from '../../recovery/plan.js';
import { operatorName } from '../../state/holder.js';
import { clusterSteps, type ClusterAccess, type StepOptions } from './cluster-steps.js';
import type { RunPlan } from './model.js';
import { freezeWith, listTargets, type Listings } from './run-plan.js';
import { newRunId, RunStore, type RunRecord } from './run-store.js';
import type { RunSnapshot } from './run-machine.js';
import { startRun, type LiveRun, type RunUpdate } from './runner.js';

export interface OpenOptions {
  onUpdate?: (u: RunUpdate) => void;
  /** The persisted snapshot of a run being resumed. */
  snapshot?: unknown;
  /** What this process changes of the plan (with no operator to ask, pause becomes stop). */
  adjust?: (plan: RunPlan) => RunPlan;
  /** The clusters' clock, for a rehearsal's sandbox that runs faster than the wall clock. */
  clock?: Pick<StepOptions, 'now' | 'timeScale'>;
  /** What was just listed for the run (the pods the plan was frozen from, their workloads): its caches start from it. */
  listed?: Listings;
}

/** A run from its record: fresh, or resumed from its snapshot. */
export function openRun(
  store: RunStore,
  record: RunRecord,
  clusters: ClusterAccess,
  options: OpenOptions = {},
): LiveRun {
  const plan = options.adjust ? options.adjust(record.plan) : record.plan;
  return startRun({
    store,
    who: operatorName(),
    steps: (audit) =>
      clusterSteps(clusters, audit, {
        batches: plan.batches,
        ...options.clock,
        ...(options.listed ? { listed: options.listed } : {}),
      }),
    input: { runId: store.id },
    plan,
    ...(options.snapshot !== undefined ? { snapshot: options.snapshot } : {}),
    ...(options.onUpdate ? { onUpdate: options.onUpdate } : {}),
    ...(record.predicted ? { predicted: record.predicted } : {}),
  });
}

/** A new run of `plan`, awaiting approval. `runbook` is the file relative to the workspace. */
export async function launchRun(
  root: string,
  runbook: string,
  options: [string, string][],
  plan: RecoveryPlan,
  clusters: ClusterAccess,
  open: OpenOptions = {},
): Promise<LiveRun> {
  // the pods the plan is frozen from, and their workloads, are where the run's caches start: the
  // run reads them once, before its approval, and its first batch starts the moment it is approved
  const listed = await listTargets(plan, (c) => clusters.client(c), { workloads: true });
  return launchFrozenRun(root, runbook, options, freezeWith(plan, listed, new Date()), clusters, { ...open, listed });
}

/**
 * A new run of a plan frozen before (one a rehearsal ran), awaiting approval; `extra` goes into
 * its record (what the rehearsal predicted, for the audit to set beside what happened).
 */
export function launchFrozenRun(
  root: string,
  runbook: string,
  options: [string, string][],
  runPlan: RunPlan,
  clusters: ClusterAccess,
  open: OpenOptions = {},
  extra: Pick<RunRecord, 'predicted'> = {},
): LiveRun {
  const at = new Date();
  const store = new RunStore(root, newRunId(runPlan.runbook, at));
  const record = store.create({
    runbook,
    options,
    createdAt: at.toISOString(),
    who: operatorName(),
    plan: runPlan,
    ...extra,
  });
  return openRun(store, record, clusters, open);
}

/** What opening a saved run again comes to: nothing left to do, or the run, ready to go on. */
export type Resumption =
  | { kind: 'over'; message: string }
  | {
      kind: 'ready';
      run: LiveRun;
      record: RunRecord;
      /** False for a run that stopped before it was approved: ask the operator before go(). */
      approved: boolean;
      /** Carries the run on from where it stood: approves it, retries its stopped clusters or resumes it. */
      go(): void;
    };

/** Opens the run of `store` again, as `kdeck recover --resume` and the console's `:resume` do. */
export async function resumeRun(
  store: RunStore,
  clusters: ClusterAccess,
  options: OpenOptions = {},
): Promise<Resumption> {
  const record = store.record();
  const snapshot = store.snapshot() as RunSnapshot | undefined;
  if (snapshot?.status === 'done')
    return { kind: 'over', message: `Run ${store.id} was cancelled before it started; nothing to resume.` };
  const run = openRun(store, record, clusters, { ...options, ...(snapshot !== undefined ? { snapshot } : {}) });
  const s = run.actor.getSnapshot();
  const send = (type: 'APPROVE' | 'RETRY_STOPPED' | 'RESUME') => () => run.actor.send({ type });
  if (s.matches('awaitingApproval')) {
    // snapshots are written behind the run: the audit log, written first, knows it was approved
    const approved = store.auditLog().some((e) => e.action === 'run' && e.outcome === 'approved');
    return { kind: 'ready', run, record, approved, go: send('APPROVE') };
  }
  if (s.matches('finished')) {
    if (!Object.values(s.context.settled).some((r) => r.end === 'stopped')) {
      await run.close();
      return {
        kind: 'over',
        message: `Run ${store.id} already finished: ${Object.entries(s.context.settled)
          .map(([c, r]) => `${c} ${r.end}`)
          .join(', ')}.`,
      };
    }
    return { kind: 'ready', run, record, approved: true, go: send('RETRY_STOPPED') };
  }
  return { kind: 'ready', run, record, approved: true, go: s.context.paused ? send('RESUME') : () => undefined };
}
