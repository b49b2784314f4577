/**
 * What the console asks before an apply, a destroy or a recovery, from the plan on screen: where
 * it goes, what it changes, and, when it touches production, the production contexts' names to
 * type (the confirmation policy both faces use). An apply whose plan finds fields another manager
 * owns is refused unless asked for with `:apply --force-conflicts`, whose confirmation lists
 * them. Refuses, with the reason, when there is nothing to show or do. Pure.
 */
import { summarize, touchedClusters } from '../../diff/change-set.js';
import type { RecoveryPlan } from '../../recovery/plan.js';
import { clustersOf } from '../../workflows/recovery/run-machine.js';
import type { RunRecord } from '../../workflows/recovery/run-store.js';
import { approvalFor, typedApproves, typedText, type Approval } from '../policy/confirmation.js';
import { conflictLines, conflictRefusal, conflictsOf, FORCE_IN_CONSOLE } from '../policy/conflicts.js';
import type { ObjectAction, ObjectActionRequest } from './object-actions.js';
import type { ConsoleState, StackEntry } from './state.js';

export interface Confirmation {
  action: 'apply' | 'destroy' | 'recover' | ObjectAction;
  /** The stack, the runbook for a recovery, or the object (`deployment/web`) of a per-object action. */
  subject: string;
  /** The production contexts touched: their names must be typed; y/N when there are none. */
  approval: Approval;
  /** What must be typed to confirm, as shown; absent when a y will do. */
  typed?: string;
  /** What will happen, a line each. */
  summary: string[];
  /** An apply that takes back fields another manager owns. */
  forceConflicts?: boolean;
  /** A per-object action (restart, scale, delete a pod): what to carry out once confirmed. */
  object?: ObjectActionRequest;
}

/** Whether what was typed confirms. */
export const confirmedBy = (c: Confirmation, input: string): boolean => typedApproves(c.approval, input);

const withApproval = (approval: Approval) => ({
  approval,
  ...(approval.production.length ? { typed: typedText(approval) } : {}),
});

/** Where a list of clusters is, production marked. */
const whereText = (clusters: string[], approval: Approval) =>
  clusters.map((c) => `${c}${approval.production.includes(c) ? ' (prod)' : ''}`).join(', ');

export function confirmationFor(
  action: 'apply' | 'destroy',
  s: StackEntry,
  state: ConsoleState,
  forceConflicts = false,
): Confirmation | { refused: string } {
  if (s.compile.state === 'error')
    return {
      refused: `${s.key} does not compile (${s.compile.failure.summary}); fix it and save, then ${action} again`,
    };
  if (!s.changeSet) return { refused: `${s.key} has no plan yet; ${action} once it shows` };
  const conflicts = action === 'apply' ? conflictsOf(s.changeSet) : [];
  const refusal = conflictRefusal(conflicts, forceConflicts, FORCE_IN_CONSOLE);
  if (refusal) return { refused: `${s.key}: ${refusal}` };
  const clusters = [
    ...new Set([...touchedClusters(s.changeSet), ...(s.stack.cluster ? [s.stack.cluster] : [])]),
  ].sort();
  const approval = approvalFor(clusters, state.production);
  const where = whereText(clusters, approval) || state.context || 'the current context';
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
  if (conflicts.length) summary.push('takes back fields another manager owns now:', ...conflictLines(conflicts));
  if (action === 'apply' && n.Create + n.Update + n.Delete + n.Import === 0)
    summary.push('Nothing to change: the apply only records the stack as it is.');
  return {
    action,
    subject: s.key,
    summary,
    ...withApproval(approval),
    ...(conflicts.length ? { forceConflicts: true } : {}),
  };
}

/** The clusters a recovery touches, prod ones marked, and its approval. */
function recoveryClusters(
  plan: { batches: { cluster: string }[] },
  state: ConsoleState,
): { where: string; approval: Approval } {
  const clusters = clustersOf(plan).sort();
  const approval = approvalFor(clusters, state.production);
  return { where: whereText(clusters, approval), approval };
}

/** Before a recovery runs: what it restarts where; the prod clusters' names typed when it touches any. */
export function recoveryConfirmation(plan: RecoveryPlan, state: ConsoleState): Confirmation | { refused: string } {
  if (plan.batches.length === 0)
    return {
      refused: plan.runbook.unresolved.length
        ? `no pod was found for ${plan.runbook.unresolved.join(', ')}: nothing to restart`
        : 'the runbook has no targets: nothing to restart',
    };
  const { where, approval } = recoveryClusters(plan, state);
  const what = plan.runbook.action === 'rollout-restart' ? 'roll out again' : plan.runbook.action;
  const summary = [
    `${what} ${plan.runbook.targets.length} target${plan.runbook.targets.length === 1 ? '' : 's'} in ${where}`,
    `${plan.batches.length} batches, at most ${plan.runbook.strategy.maxUnavailable} of a workload at once; on failure: ${plan.runbook.strategy.onFailure}`,
  ];
  return { action: 'recover', subject: plan.runbook.name, summary, ...withApproval(approval) };
}

/** Before a saved run is carried on: where it restarts pods; prod clusters typed as for a new run. */
export function savedRunConfirmation(runId: string, record: RunRecord, state: ConsoleState): Confirmation {
  const { where, approval } = recoveryClusters(record.plan, state);
  const summary = [
    `carry on run ${runId}, started by ${record.who}`,
    `in ${where}; verified batches are not run again`,
  ];
  return { action: 'recover', subject: record.plan.runbook, summary, ...withApproval(approval) };
}
