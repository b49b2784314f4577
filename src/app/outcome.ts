/**
 * How an apply or destroy ended, in the words both faces use: the totals, and one sentence for
 * the outcome. Only what happened is counted.
 */
import type { OperationSnapshot } from '../workflows/operation-machine.js';
import type { Operation } from '../workflows/stack-operation.js';

export type OutcomeKind = 'done' | 'interrupted' | 'failed' | 'cancelled';

export interface Outcome {
  kind: OutcomeKind;
  /** `3 created, 0 updated, 3 deleted` (a destroy: `3 deleted`). */
  totals: string;
  /** One sentence: what happened and, when it did not all happen, what to do. */
  text: string;
}

export function operationOutcome(final: OperationSnapshot, operation: Operation): Outcome {
  const { result, error } = final.context;
  const c = result?.counts ?? { created: 0, updated: 0, deleted: 0 };
  // kept objects are counted apart from deleted ones: they are still in the cluster
  const kept = result?.forgotten.length ? `, ${result.forgotten.length} forgotten (kept for another stack)` : '';
  const totals =
    (operation === 'apply'
      ? `${c.created} created, ${c.updated} updated, ${c.deleted} deleted`
      : `${c.deleted} deleted`) + kept;
  const Op = operation === 'apply' ? 'Apply' : 'Destroy';
  switch (final.value) {
    case 'done':
      return { kind: 'done', totals, text: `${Op} complete! Resources: ${totals}.` };
    case 'cancelled':
      return { kind: 'cancelled', totals, text: `${Op} cancelled: nothing was changed.` };
    case 'interrupted':
      return {
        kind: 'interrupted',
        totals,
        text: `${Op} interrupted. Resources: ${totals}; ${result?.stopped.length ? `${result.stopped.length} stopped while progressing (health unknown), ` : ''}${result?.notStarted.length ?? 0} not started. The state records what reached the cluster; run ${operation} again to finish.`,
      };
    default: {
      const unhealthy = result?.unhealthy.length
        ? ` The stack is unhealthy: ${result.unhealthy.map((r) => r.id).join(', ')} did not become healthy.`
        : '';
      return {
        kind: 'failed',
        totals,
        text:
          error && !result
            ? error
            : `${Op} failed: ${result?.failed.length ?? 0} failed, ${result?.skipped.length ?? 0} skipped (they depend on a failure). Resources: ${totals}.${unhealthy}`,
      };
    }
  }
}
