/**
 * Keeps the State of every cluster of an operation and writes it after each resource changes,
 * one write at a time per state (resources finish concurrently), each based on the serial of the
 * last, so the file always matches what reached the cluster. Changes that arrive while a write is
 * under way go together in the next one: each is on disk when its promise resolves, but a stack
 * of a thousand resources is not written a thousand times over (each write reads and writes the
 * whole state, which made the writes, not the cluster, the pace of a large apply).
 */
// imported, not the global: the global loads its module the first time it is read, mid-apply and
// past the launcher, which loads Node's modules from their kept code (src/launch.ts)
import { performance } from 'node:perf_hooks';
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

/** The longest a change waits for others to join its write. */
const MAX_GATHER_MS = 100;

interface PendingChange {
  change: (s: State) => State;
  /** Written without waiting for others to join: nothing else is coming (an operation's start or end). */
  alone: boolean;
  resolve: (s: State) => void;
  reject: (e: unknown) => void;
}

export class StateRecorder {
  private readonly states = new Map<string, State>();
  private readonly pending = new Map<string, PendingChange[]>();
  private readonly writing = new Set<string>();
  /** How long the last write took: the next one gathers changes for three times as long. */
  private lastWriteMs = 0;

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
  update(cluster: string, change: (s: State) => State, alone = false): Promise<State> {
    return new Promise<State>((resolve, reject) => {
      const queue = this.pending.get(cluster) ?? [];
      queue.push({ change, alone, resolve, reject });
      this.pending.set(cluster, queue);
      if (!this.writing.has(cluster)) void this.drain(cluster);
    });
  }

  /** Writes the changes waiting for `cluster`, a batch at a time, until none is left. */
  private async drain(cluster: string): Promise<void> {
    this.writing.add(cluster);
    try {
      for (;;) {
        // let the answers that came in meanwhile (I/O callbacks run before setImmediate) join this
        // write; when writes are slow (a large state, a slow disk) wait three times as long as the
        // last one took, so writing (which blocks the event loop) takes a quarter of the time at most
        await new Promise((r) => setImmediate(r));
        const waiting = this.pending.get(cluster) ?? [];
        // nothing came during the last write: no timer waits for changes that may never come
        // (it held the end of a run, and the process's exit, for up to MAX_GATHER_MS)
        if (waiting.length === 0) return;
        // an operation's record waits for nobody: the run's end waits for it
        if (this.lastWriteMs > 1 && !waiting.some((p) => p.alone))
          await new Promise((r) => setTimeout(r, Math.min(3 * this.lastWriteMs, MAX_GATHER_MS)));
        const batch = this.pending.get(cluster) ?? [];
        this.pending.set(cluster, []);
        try {
          const before = this.current(cluster);
          const changed = batch.reduce((s, p) => p.change(s), before);
          const started = performance.now();
          const written = await this.backend.write(
            { ...changed, operator: this.operator, modifiedTime: this.now() },
            before.serial,
          );
          this.lastWriteMs = performance.now() - started;
          this.states.set(cluster, written);
          for (const p of batch) p.resolve(written);
        } catch (e) {
          // none of the batch is on disk; later changes are still written, on the state as it was
          for (const p of batch) p.reject(e);
        }
      }
    } finally {
      this.writing.delete(cluster);
    }
  }

  record(cluster: string, resource: StateResource): Promise<State> {
    return this.update(cluster, (s) => withResource(s, resource));
  }

  forget(cluster: string, id: string): Promise<State> {
    return this.update(cluster, (s) => withoutResource(s, id));
  }

  operation(cluster: string, op: OperationRecord): Promise<State> {
    return this.update(cluster, (s) => withOperation(s, op), true);
  }
}
