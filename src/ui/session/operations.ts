/**
 * Apply and destroy from the console: the same stack operation machine as `kdeck apply`,
 * approved by the console's own confirmation, its stack locked for the run, its health
 * followed to the end, and the stack planned again when it finishes. One operation per stack
 * at a time; several stacks may run at once.
 */
import { createActor, waitFor } from 'xstate';
import type { ClusterSet } from '../../cluster/cluster-set.js';
import { describeHolder, type StateBackend } from '../../state/backend.js';
import { keepRenewed } from '../../state/renewal.js';
import { errorMessage, UserError } from '../../user-error.js';
import type { Clusters } from '../../workflows/plan.js';
import { lockStack, releaseAll, stackOperationMachine, type Operation } from '../../workflows/stack-operation.js';
import type { OperationActor } from '../../workflows/operation-machine.js';
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

function outcomeText(actor: OperationActor): { level: EventLevel; text: string } {
  const s = actor.getSnapshot();
  const c = s.context.result?.counts;
  const r = s.context.result;
  const kept = r?.forgotten.length ? `, ${r.forgotten.length} forgotten (kept for another stack)` : '';
  const stopped = r?.stopped.length ? `, ${r.stopped.length} stopped while progressing` : '';
  const totals = c
    ? `${c.created} created, ${c.updated} updated, ${c.deleted} deleted${kept}${stopped}`
    : 'nothing to do';
  switch (s.value) {
    case 'done':
      return { level: 'info', text: `done: ${totals}` };
    case 'interrupted':
      return {
        level: 'warn',
        text: `interrupted: ${totals}; ${s.context.result?.notStarted.length ?? 0} not started (run it again to finish)`,
      };
    case 'failed':
      return {
        level: 'error',
        text:
          s.context.error ??
          `failed: ${s.context.result?.failed.length ?? 0} failed, ${s.context.result?.skipped.length ?? 0} skipped; ${totals}`,
      };
    default:
      return { level: 'info', text: String(s.value) };
  }
}

export class OperationRunner {
  constructor(private readonly deps: RunnerDeps) {}

  /** Refuses with a sentence when the operation cannot start; else starts it (approved). */
  async start(key: string, operation: Operation): Promise<void> {
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
    const clusters = this.deps.clusters();
    const locks = await lockStack(this.deps.backend, clusters, entry.stack, entry.spec, operation);
    for (const l of locks)
      if (l.tookOverFrom)
        this.deps.log(
          'warn',
          `${key}: took over the stale lock of ${describeHolder(l.tookOverFrom)}: its holder stopped without releasing it`,
        );
    const machine = stackOperationMachine({
      stack: entry.stack,
      spec: entry.spec,
      clusters,
      clusterSet: this.deps.clusterSet,
      backend: this.deps.backend,
      operation,
      concurrency: this.deps.settings.concurrency,
      timeoutMs: this.deps.settings.timeoutMs,
      // the confirmation said which fields another manager took over: applying takes them back
      forceConflicts: true,
      followHealth: true,
    });
    const actor: OperationActor = createActor(machine, { input: { autoApprove: true } });
    const record: OperationEntry = { stack: key, operation, actor, startedAt: this.deps.now(), running: true };
    store.update((s) => ({ ...s, operations: new Map(s.operations).set(key, record) }));
    this.deps.log('info', `${operation} ${key}: started`);
    // the locks are renewed while it runs; if one is lost, nothing new starts
    const renewal = keepRenewed(locks, (e) => {
      this.deps.log('error', `${operation} ${key}: ${e.message}`);
      actor.send({ type: 'CANCEL' });
    });
    const end = () => {
      renewal.stop();
      void this.ended(key, record, locks);
    };
    actor.subscribe({
      complete: end,
      error: (e) => {
        this.deps.log('error', `${operation} ${key}: ${errorMessage(e)}`);
        end();
      },
    });
    actor.start();
  }

  private async ended(
    key: string,
    record: OperationEntry,
    locks: Awaited<ReturnType<typeof lockStack>>,
  ): Promise<void> {
    try {
      await releaseAll(locks);
    } catch (e) {
      this.deps.log(
        'error',
        `${key}: the lock could not be released (${errorMessage(e)}); run kdeck state unlock in the stack folder`,
      );
    }
    const { level, text } = outcomeText(record.actor);
    this.deps.log(level, `${record.operation} ${key}: ${text}`);
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
