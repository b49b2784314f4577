/**
 * Apply and destroy from the console: the stack operation both faces run (lock, plan, policies,
 * machine, release), approved by the console's confirmation once the plan made under the lock
 * asks for nothing more than was confirmed, its health followed to the end, and the stack
 * planned again when it finishes. One operation per stack at a time; several stacks may run at
 * once.
 */
import { waitFor } from 'xstate';
import type { ClusterSet } from '../../cluster/cluster-set.js';
import type { StateBackend } from '../../state/backend.js';
import { errorMessage, UserError } from '../../diagnostics/user-error.js';
import type { Clusters } from '../../workflows/plan.js';
import type { Operation } from '../../workflows/stack-operation.js';
import { operationOutcome } from '../outcome.js';
import { conflictRefusal, FORCE_IN_CONSOLE } from '../policy/conflicts.js';
import { StackOperation } from '../stack-operation.js';
import type { Confirmation } from './confirmation.js';
import type { ConsoleState, EventLevel, OperationEntry, Store } from './state.js';

export interface RunnerDeps {
  store: Store<ConsoleState>;
  clusters: () => Clusters;
  clusterSet: ClusterSet;
  backend: StateBackend;
  readOnly: boolean;
  settings: { concurrency: number; timeoutMs: number };
  log: (level: EventLevel, text: string) => void;
  /** Told when an operation on the stack has ended, whatever the outcome. */
  finished: (stack: string) => void;
  now: () => number;
}

/** How long quitting waits for running operations to stop after being interrupted. */
const STOP_LIMIT_MS = 15_000;

export class OperationRunner {
  constructor(private readonly deps: RunnerDeps) {}

  /** Refuses with a sentence when the operation cannot start; else starts it (approved). */
  async start(key: string, operation: Operation, confirmed: Confirmation): Promise<void> {
    const { store, readOnly } = this.deps;
    if (readOnly)
      throw new UserError(
        `${operation} changes clusters and is refused in --read-only mode; start the console without --read-only to ${operation}`,
      );
    const state = store.get();
    if (state.operations.get(key)?.running)
      throw new UserError(`${key} already has an operation running; wait for it to end (the Apply view follows it)`);
    const entry = state.stacks.find((s) => s.key === key);
    if (!entry) throw new UserError(`there is no stack ${key}`);
    if (entry.compile.state === 'error')
      throw new UserError(
        `${key} does not compile (${entry.compile.failure.summary}); fix it and save, then ${operation} again`,
      );
    if (!entry.spec) throw new UserError(`${key} is still compiling; ${operation} once its plan shows`);
    const op = await StackOperation.plan(
      {
        stack: entry.stack,
        spec: entry.spec,
        clusters: this.deps.clusters(),
        clusterSet: this.deps.clusterSet,
        backend: this.deps.backend,
      },
      operation,
      { ...this.deps.settings, forceConflicts: confirmed.forceConflicts === true, followHealth: true },
      (text) => this.deps.log('warn', `${key}: ${text}`),
    );
    if (op.planned.kind === 'failed') throw new UserError(`${operation} ${key}: ${op.planned.error}`);
    if (op.planned.kind === 'awaiting') {
      // the plan was made again under the lock: it may not ask for more than the operator confirmed
      const unconfirmed = op
        .approval(state.production)
        .production.filter((c) => !confirmed.approval.production.includes(c));
      const refusal = unconfirmed.length
        ? `the plan now also touches production (${unconfirmed.join(', ')}), which was not confirmed; ${operation} again to confirm it`
        : conflictRefusal(op.conflicts(), confirmed.forceConflicts === true, FORCE_IN_CONSOLE);
      if (refusal) {
        await op.reject();
        throw new UserError(`${operation} ${key}: ${refusal}`);
      }
      op.approve();
    }
    const record: OperationEntry = {
      stack: key,
      operation,
      actor: op.actor,
      startedAt: this.deps.now(),
      running: true,
    };
    store.update((s) => ({ ...s, operations: new Map(s.operations).set(key, record) }));
    this.deps.log('info', `${operation} ${key}: started`);
    void this.ended(key, record, op);
  }

  private async ended(key: string, record: OperationEntry, op: StackOperation): Promise<void> {
    try {
      const final = await op.finished((text) => this.deps.log('error', `${key}: ${text}`));
      if (op.lostLock) this.deps.log('error', `${record.operation} ${key}: ${op.lostLock.message}`);
      const outcome = operationOutcome(final, record.operation);
      const level: EventLevel = outcome.kind === 'done' ? 'info' : outcome.kind === 'failed' ? 'error' : 'warn';
      this.deps.log(level, `${record.operation} ${key}: ${outcome.text}`);
    } catch (e) {
      this.deps.log('error', `${record.operation} ${key}: ${errorMessage(e)}`);
    }
    this.deps.store.update((s) => {
      if (s.operations.get(key) !== record) return s;
      return { ...s, operations: new Map(s.operations).set(key, { ...record, running: false }) };
    });
    this.deps.finished(key);
  }

  /** Asks a running operation to stop: nothing new starts, what runs finishes. */
  interrupt(key: string): boolean {
    const op = this.deps.store.get().operations.get(key);
    if (!op?.running) return false;
    op.actor.send({ type: 'CANCEL' });
    this.deps.log('warn', `${op.operation} ${key}: interrupted by the user; resources in flight finish`);
    return true;
  }

  /** Interrupts every running operation and waits (bounded) for them to end. */
  async stopAll(): Promise<void> {
    const running = [...this.deps.store.get().operations.values()].filter((o) => o.running);
    for (const op of running) op.actor.send({ type: 'CANCEL' });
    await Promise.all(
      running.map((op) =>
        waitFor(op.actor, (s) => s.status === 'done', { timeout: STOP_LIMIT_MS }).catch(() => undefined),
      ),
    );
  }
}
