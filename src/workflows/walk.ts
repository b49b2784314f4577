/**
 * Walking the resource DAG with bounded concurrency: a resource starts once everything it depends
 * on has succeeded, at most `concurrency` run at once, ready resources start in the graph's
 * deterministic order, and the dependents of a failed resource are skipped while independent
 * branches go on (or nothing new starts, with failFast or once the signal aborts).
 */
import type { ResourceGraph } from '../graph/graph.js';

export type Outcome = 'succeeded' | 'failed';

export interface WalkListener {
  started?(id: string): void;
  finished?(id: string, outcome: Outcome): void;
  /** `because` is the failed (or skipped) dependency that holds `id` back. */
  skipped?(id: string, because: string): void;
}

export interface WalkOptions {
  concurrency: number;
  failFast?: boolean;
  signal?: AbortSignal;
}

export interface WalkResult {
  succeeded: string[];
  failed: string[];
  skipped: string[];
  /** Never started because the walk stopped (failFast or abort). */
  notStarted: string[];
}

/**
 * Runs `run` for every id of `selected` (the others count as already done), in dependency order.
 * `run` should itself honour the abort signal; the walk waits for the calls in flight.
 */
export async function walkGraph(
  graph: ResourceGraph,
  selected: Set<string>,
  run: (id: string) => Promise<Outcome>,
  options: WalkOptions,
  listener: WalkListener = {},
): Promise<WalkResult> {
  const order = graph.order().filter((id) => selected.has(id));
  const rank = new Map(order.map((id, i) => [id, i]));
  const result: WalkResult = { succeeded: [], failed: [], skipped: [], notStarted: [] };
  const state = new Map<string, 'waiting' | 'running' | Outcome | 'skipped'>(order.map((id) => [id, 'waiting']));
  const blockedBy = (id: string): string | undefined =>
    graph.dependenciesOf(id).find((d) => selected.has(d) && (state.get(d) === 'failed' || state.get(d) === 'skipped'));
  const ready = (id: string) => graph.dependenciesOf(id).every((d) => !selected.has(d) || state.get(d) === 'succeeded');
  let running = 0;
  let stopped = false;

  return new Promise<WalkResult>((resolve) => {
    const finish = () => {
      for (const id of order) if (state.get(id) === 'waiting') result.notStarted.push(id);
      resolve(result);
    };
    const pump = () => {
      if (options.signal?.aborted) stopped = true;
      // skipping can cascade, so settle it before starting anything
      for (let changed = true; changed;) {
        changed = false;
        for (const id of order) {
          if (state.get(id) !== 'waiting') continue;
          const because = blockedBy(id);
          if (because) {
            state.set(id, 'skipped');
            result.skipped.push(id);
            listener.skipped?.(id, because);
            changed = true;
          }
        }
      }
      if (!stopped) {
        const candidates = order
          .filter((id) => state.get(id) === 'waiting' && ready(id))
          .sort((a, b) => rank.get(a)! - rank.get(b)!);
        for (const id of candidates) {
          if (running >= options.concurrency) break;
          state.set(id, 'running');
          running++;
          listener.started?.(id);
          run(id).then(
            (outcome) => settle(id, outcome),
            () => settle(id, 'failed'),
          );
        }
      }
      if (running === 0) finish();
    };
    const settle = (id: string, outcome: Outcome) => {
      running--;
      state.set(id, outcome);
      result[outcome].push(id);
      listener.finished?.(id, outcome);
      if (outcome === 'failed' && options.failFast) stopped = true;
      pump();
    };
    options.signal?.addEventListener('abort', () => (stopped = true), { once: true });
    pump();
  });
}
