/**
 * What the console asks before an apply or destroy, from the plan on screen: where it goes,
 * what it changes, and whether a prod context is touched (then the stack's name must be
 * typed); likewise before a recovery runs. Refuses, with the reason, when there is nothing to
 * show or do. Pure.
 */
import { summarize } from '../../diff/change-set.js';
import type { RecoveryPlan } from '../../recovery/plan.js';
import type { RunRecord } from '../../workflows/recovery/run-store.js';
import type { ConsoleState, StackEntry } from './state.js';

export interface Confirmation {
  action: 'apply' | 'destroy' | 'recover';
  /** The stack, or the runbook for a recovery. */
  subject: string;
  /** What must be typed to confirm (the stack, or the prod clusters' names); y/N when absent. */
  typed?: string;
  /** What will happen, a line each. */
  summary: string[];
}

export function confirmationFor(
  action: 'apply' | 'destroy',
  s: StackEntry,
  state: ConsoleState,
): Confirmation | { refused: string } {
  if (s.compile.state === 'error')
    return {
      refused: `${s.key} does not compile (${s.compile.failure.summary}); fix it and save, then ${action} again`,
    };
  if (!s.changeSet) return { refused: `${s.key} has no plan yet; ${action} once it shows` };
  const clusters = [
    ...new Set([...s.changeSet.changes.map((c) => c.cluster), ...(s.stack.cluster ? [s.stack.cluster] : [])]),
  ].sort();
  const prod = new Set(state.contexts.filter((c) => c.prod).map((c) => c.name));
  const onProd = clusters.filter((c) => prod.has(c));
  const where =
    clusters.map((c) => `${c}${prod.has(c) ? ' (prod)' : ''}`).join(', ') || state.context || 'the current context';
  const n = summarize(s.changeSet.changes);
  const summary =
    action === 'apply'
      ? [
          `to ${where}`,
          `${n.Create} to create, ${n.Update} to update, ${n.Delete} to delete, ${n.UnChanged} unchanged${n.Import ? `, ${n.Import} to adopt` : ''}`,
        ]
      : [
          `on ${where}`,
          `deletes the ${s.changeSet.changes.filter((c) => c.prior).length} resources kdeck applied, dependents first`,
        ];
  const drifted = s.changeSet.changes.filter((c) => c.decision.drift).length;
  if (action === 'apply' && drifted)
    summary.push(
      `${drifted} resource${drifted === 1 ? ' has' : 's have'} drifted; the apply puts ${drifted === 1 ? 'it' : 'them'} back as planned`,
    );
  const taken = s.changeSet.changes.filter((c) => c.conflict).length;
  if (action === 'apply' && taken)
    summary.push(
      `${taken} resource${taken === 1 ? ' has' : 's have'} fields another manager owns now; the apply takes them back`,
    );
  if (action === 'apply' && n.Create + n.Update + n.Delete + n.Import === 0)
    summary.push('Nothing to change: the apply only records the stack as it is.');
  return { action, subject: s.key, summary, ...(onProd.length ? { typed: s.key } : {}) };
}

/** The clusters a recovery touches, prod ones marked, and the names to type when any is prod. */
function recoveryClusters(batches: { cluster: string }[], state: ConsoleState): { where: string; typed?: string } {
  const clusters = [...new Set(batches.map((b) => b.cluster))].sort();
  const prod = new Set(state.contexts.filter((c) => c.prod).map((c) => c.name));
  const onProd = clusters.filter((c) => prod.has(c));
  return {
    where: clusters.map((c) => `${c}${prod.has(c) ? ' (prod)' : ''}`).join(', '),
    ...(onProd.length ? { typed: onProd.join(',') } : {}),
  };
}

/** Before a recovery runs: what it restarts where; the prod clusters' names typed when it touches any. */
export function recoveryConfirmation(plan: RecoveryPlan, state: ConsoleState): Confirmation | { refused: string } {
  if (plan.batches.length === 0)
    return {
      refused: plan.runbook.unresolved.length
        ? `no pod was found for ${plan.runbook.unresolved.join(', ')}: nothing to restart`
        : 'the runbook has no targets: nothing to restart',
    };
  const { where, typed } = recoveryClusters(plan.batches, state);
  const what = plan.runbook.action === 'rollout-restart' ? 'roll out again' : plan.runbook.action;
  const summary = [
    `${what} ${plan.runbook.targets.length} target${plan.runbook.targets.length === 1 ? '' : 's'} in ${where}`,
    `${plan.batches.length} batches, at most ${plan.runbook.strategy.maxUnavailable} of a workload at once; on failure: ${plan.runbook.strategy.onFailure}`,
  ];
  return { action: 'recover', subject: plan.runbook.name, summary, ...(typed ? { typed } : {}) };
}

/** Before a saved run is carried on: where it restarts pods; prod clusters typed as for a new run. */
export function savedRunConfirmation(runId: string, record: RunRecord, state: ConsoleState): Confirmation {
  const { where, typed } = recoveryClusters(record.plan.batches, state);
  const summary = [
    `carry on run ${runId}, started by ${record.who}`,
    `in ${where}; verified batches are not run again`,
  ];
  return { action: 'recover', subject: record.plan.runbook, summary, ...(typed ? { typed } : {}) };
}
