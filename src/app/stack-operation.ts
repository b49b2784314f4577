/**
 * An apply or destroy of one stack, as both faces run it: the stack's states locked on every
 * cluster it uses or used (so the plan is made on a state nobody else is changing, and a second
 * operation is refused naming this one), the operation machine planning, then waiting for the
 * face to approve after it has applied the policies, the locks renewed while it runs and
 * released once it ends, whatever the outcome.
 */
import { createActor, waitFor } from 'xstate';
import { touchedClusters, type ChangeSet } from '../diff/change-set.js';
import { describeHolder, type Lock, type LockLostError } from '../state/backend.js';
import { keepRenewed, type Renewal } from '../state/renewal.js';
import type { OperationActor, OperationSnapshot } from '../workflows/operation-machine.js';
import {
  lockStack,
  releaseAll,
  stackOperationMachine,
  type Operation,
  type StackOperationInput,
} from '../workflows/stack-operation.js';
import { errorMessage } from '../diagnostics/user-error.js';
import { approvalFor, type Approval } from './policy/confirmation.js';
import { conflictsOf, type Conflict } from './policy/conflicts.js';
import type { ProductionPolicy } from './policy/production.js';

/** The stack and where it goes: the clusters, and the state backend that records it. */
export type StackTarget = Pick<StackOperationInput, 'stack' | 'spec' | 'clusters' | 'clusterSet' | 'backend'>;

/** How the operation runs: limits, health, conflicts (the faces fill it from flags and policies). */
export type OperationSettings = Omit<StackOperationInput, keyof StackTarget | 'operation'>;

/** What the plan came to, once the machine has planned. */
export type Planned =
  | { kind: 'awaiting'; changeSet: ChangeSet }
  | { kind: 'nothing'; changeSet: ChangeSet }
  | { kind: 'failed'; error: string };

export class StackOperation {
  private released = false;
  private renewal: Renewal | undefined;
  /** Set when a lock was lost while running: the operation stopped because of it. */
  lostLock: LockLostError | undefined;

  private constructor(
    readonly operation: Operation,
    readonly actor: OperationActor,
    private readonly locks: Lock[],
    readonly planned: Planned,
  ) {}

  /**
   * Locks the stack and plans. `warn` hears what the user should know on the way (a stale lock
   * taken over). The operation waits for approve() or reject().
   */
  static async plan(
    target: StackTarget,
    operation: Operation,
    settings: OperationSettings,
    warn: (text: string) => void,
  ): Promise<StackOperation> {
    const locks = await lockStack(target.backend, target.clusters, target.stack, target.spec, operation);
    for (const l of locks)
      if (l.tookOverFrom)
        warn(`took over the stale lock of ${describeHolder(l.tookOverFrom)}: its holder stopped without releasing it`);
    try {
      const machine = stackOperationMachine({ ...target, ...settings, operation });
      const actor: OperationActor = createActor(machine, { input: { autoApprove: false } });
      actor.start();
      const s = await waitFor(actor, (x) => x.matches('awaitingApproval') || x.status === 'done', {
        timeout: Infinity,
      });
      const planned: Planned =
        s.value === 'failed'
          ? { kind: 'failed', error: s.context.error ?? `${operation} failed while planning` }
          : s.status === 'done'
            ? { kind: 'nothing', changeSet: s.context.changeSet! }
            : { kind: 'awaiting', changeSet: s.context.changeSet! };
      const op = new StackOperation(operation, actor, locks, planned);
      if (planned.kind !== 'awaiting') await op.release();
      return op;
    } catch (e) {
      await releaseAll(locks);
      throw e;
    }
  }

  /** The clusters the change set touches: where it creates, updates and deletes, and where it was applied before. */
  touched(): string[] {
    if (this.planned.kind === 'failed') return [];
    return touchedClusters(this.planned.changeSet);
  }

  approval(policy: ProductionPolicy): Approval {
    return approvalFor(this.touched(), policy);
  }

  conflicts(): Conflict[] {
    return this.planned.kind === 'failed' || this.operation !== 'apply' ? [] : conflictsOf(this.planned.changeSet);
  }

  /** Starts the change; the locks are renewed while it runs, and if one is lost nothing new starts. */
  approve(): void {
    this.renewal = keepRenewed(this.locks, (e) => {
      this.lostLock = e;
      this.actor.send({ type: 'CANCEL' });
    });
    this.actor.send({ type: 'APPROVE' });
  }

  /** Nothing is changed: the machine ends cancelled and the locks are released. */
  async reject(): Promise<void> {
    this.actor.send({ type: 'REJECT' });
    await this.release();
  }

  /** Stops scheduling: in-flight calls finish, health waits are abandoned, the state is saved. */
  interrupt(): void {
    this.actor.send({ type: 'CANCEL' });
  }

  /** Waits for the end and lets go of the locks; `onReleaseError` hears a lock that could not be released. */
  async finished(onReleaseError?: (text: string) => void): Promise<OperationSnapshot> {
    const final = await waitFor(this.actor, (s) => s.status === 'done', { timeout: Infinity });
    try {
      await this.release();
    } catch (e) {
      onReleaseError?.(
        `the lock could not be released (${errorMessage(e)}); run kdeck state unlock in the stack folder`,
      );
    }
    return final;
  }

  private async release(): Promise<void> {
    this.renewal?.stop();
    if (this.released) return;
    this.released = true;
    await releaseAll(this.locks);
  }
}
