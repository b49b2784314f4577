/**
 * Walking the resource DAG with bounded concurrency: a resource starts once everything it depends
 * on has succeeded, at most `concurrency` run at once, ready resources start in the graph's
 * deterministic order, and the dependents of a failed resource are skipped while independent
 * branches go on (or nothing new starts, with failFast or once the signal aborts).
 */
import type { ResourceGraph } from '../graph/graph.js';

export type Outcome = 'succeeded' | 'failed';

/**
 * What a run reports: an outcome, or that it did nothing at all (it was stopped before its first
 * call), which leaves it and its dependents not started.
 */
export type RunOutcome = Outcome | 'notStarted';

export interface WalkListener {
  started?(id: string): void;
  finished?(id: string, outcome: Outcome): void;
  /** `because` is the failed (or skipped) dependency that holds `id` back. */
  skipped?(id: string, because: string): void;
}

export interface WalkOptions {
  /** Runs at once; Infinity when the runs bound their own work (the executor's API-call limit). */
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

type NodeState = 'waiting' | 'running' | Outcome | 'skipped' | 'notStarted';

/**
 * Runs `run` for every id of `selected` (the others count as already done), in dependency order.
 * `run` should itself honour the abort signal; the walk waits for the calls in flight.
 */
export async function walkGraph(
  graph: ResourceGraph,
  selected: Set<string>,
  run: (id: string) => Promise<RunOutcome>,
  options: WalkOptions,
  listener: WalkListener = {},
): Promise<WalkResult> {
  const order = graph.order().filter((id) => selected.has(id));
  const rank = new Map(order.map((id, i) => [id, i]));
  const result: WalkResult = { succeeded: [], failed: [], skipped: [], notStarted: [] };
  const state = new Map<string, NodeState>(order.map((id) => [id, 'waiting']));
  const dependencies = new Map(order.map((id) => [id, graph.dependenciesOf(id).filter((d) => selected.has(d))]));
  const dependents = new Map(order.map((id) => [id, graph.dependentsOf(id).filter((d) => selected.has(d))]));
  // what each resource still waits for: only the dependents of a finished resource are looked at
  // again, so a walk of thousands stays linear in its edges
  const left = new Map(order.map((id) => [id, dependencies.get(id)!.length]));
  /** Ready to start, kept sorted by rank (ready ids come in small groups, so a sorted insert is cheap). */
  const ready: string[] = order.filter((id) => left.get(id) === 0);
  let running = 0;
  let stopped = false;

  const enqueue = (id: string) => {
    const r = rank.get(id)!;
    let lo = 0;
    let hi = ready.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (rank.get(ready[mid])! < r) lo = mid + 1;
      else hi = mid;
    }
    ready.splice(lo, 0, id);
  };

  return new Promise<WalkResult>((resolve) => {
    const finish = () => {
      for (const id of order) if (state.get(id) === 'waiting') result.notStarted.push(id);
      resolve(result);
    };
    /** Skips everything downstream of `from` that still waits, in graph order, each naming its held-back dependency. */
    const skipBelow = (from: string) => {
      const below = new Set<string>();
      const stack = [...dependents.get(from)!];
      while (stack.length) {
        const id = stack.pop()!;
        if (below.has(id) || state.get(id) !== 'waiting') continue;
        below.add(id);
        stack.push(...dependents.get(id)!);
      }
      for (const id of [...below].sort((a, b) => rank.get(a)! - rank.get(b)!)) {
        const because = dependencies.get(id)!.find((d) => state.get(d) === 'failed' || state.get(d) === 'skipped');
        if (!because) continue;
        state.set(id, 'skipped');
        result.skipped.push(id);
        listener.skipped?.(id, because);
      }
    };
    const pump = () => {
      if (options.signal?.aborted) stopped = true;
      while (!stopped && running < options.concurrency && ready.length) {
        const id = ready.shift()!;
        if (state.get(id) !== 'waiting') continue;
        state.set(id, 'running');
        running++;
        listener.started?.(id);
        run(id).then(
          (outcome) => settle(id, outcome),
          () => settle(id, 'failed'),
        );
      }
      if (running === 0) finish();
    };
    const settle = (id: string, outcome: RunOutcome) => {
      running--;
      if (outcome === 'notStarted') {
        // it did nothing: it and what waits for it stay not started
        state.set(id, 'notStarted');
        result.notStarted.push(id);
        pump();
        return;
      }
      state.set(id, outcome);
      result[outcome].push(id);
      listener.finished?.(id, outcome);
      if (outcome === 'failed') {
        if (options.failFast) stopped = true;
        skipBelow(id);
      } else {
        for (const d of dependents.get(id)!) {
          const n = left.get(d)! - 1;
          left.set(d, n);
          if (n === 0 && state.get(d) === 'waiting') enqueue(d);
        }
      }
      pump();
    };
    options.signal?.addEventListener('abort', () => (stopped = true), { once: true });
    pump();
  });
}
