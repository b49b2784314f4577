/**
 * Keeps the State of every cluster of an operation and writes it after each resource changes,
 * one write at a time per state (resources finish concurrently), each based on the serial of the
 * last, so the file always matches what reached the cluster.
 */
import type { StateBackend } from '../state/backend.js';
import {
  emptyState,
  withOperation,
  withoutResource,
  withResource,
  type OperationRecord,
  type State,
  type StateKey,
  type StateResource,
} from '../state/model.js';

export class StateRecorder {
  private readonly states = new Map<string, State>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly backend: StateBackend,
    private readonly keyOf: (cluster: string) => StateKey,
    priors: Map<string, State | undefined>,
    private readonly operator: string,
    private readonly now: () => string,
  ) {
    for (const [cluster, state] of priors) if (state) this.states.set(cluster, state);
  }

  private current(cluster: string): State {
    return this.states.get(cluster) ?? emptyState(this.keyOf(cluster), this.operator, this.now());
  }

  /** Changes the state of `cluster` and writes it; resolves once it is on disk. */
  update(cluster: string, change: (s: State) => State): Promise<State> {
    const run = async () => {
      const before = this.current(cluster);
      const changed = change(before);
      const written = await this.backend.write(
        { ...changed, operator: this.operator, modifiedTime: this.now() },
        before.serial,
      );
      this.states.set(cluster, written);
      return written;
    };
    const next = (this.queues.get(cluster) ?? Promise.resolve()).then(run, run);
    this.queues.set(cluster, next);
    return next;
  }

  record(cluster: string, resource: StateResource): Promise<State> {
    return this.update(cluster, (s) => withResource(s, resource));
  }

  forget(cluster: string, id: string): Promise<State> {
    return this.update(cluster, (s) => withoutResource(s, id));
  }

  operation(cluster: string, op: OperationRecord): Promise<State> {
    return this.update(cluster, (s) => withOperation(s, op));
  }
}
