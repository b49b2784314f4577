/**
 * The resource DAG of a Spec. An edge runs from a dependency to its dependent (the dependency is
 * applied first): explicit edges come from `dependsOn`, implicit ones from references in the
 * attributes (references.ts), and the two are kept apart so the console can tell them apart
 * and the state records only what the user wrote.
 */
import { kclError } from '../diagnostics/diagnostics.js';
import type { Spec } from '../model/resource.js';
import { referencesIn } from './references.js';

export type EdgeKind = 'explicit' | 'implicit';

export interface Edge {
  /** The dependency: applied before `to`, deleted after it. */
  from: string;
  to: string;
  kind: EdgeKind;
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const key = (from: string, to: string) => `${from}\u0000${to}`;

export class ResourceGraph {
  /** Sorted. */
  readonly ids: string[];
  private readonly edgeMap = new Map<string, Edge>();
  private readonly dependencies = new Map<string, Set<string>>();
  private readonly dependents = new Map<string, Set<string>>();
  private sorted: readonly (readonly string[])[] | undefined;

  constructor(ids: Iterable<string>, edges: Iterable<Edge>) {
    this.ids = [...new Set(ids)].sort(byId);
    for (const id of this.ids) {
      this.dependencies.set(id, new Set());
      this.dependents.set(id, new Set());
    }
    for (const e of edges) {
      if (!this.dependencies.has(e.from) || !this.dependencies.has(e.to)) {
        throw new Error(`graph edge ${e.from} -> ${e.to} names a resource outside the graph`);
      }
      const existing = this.edgeMap.get(key(e.from, e.to));
      // a dependency both written and referenced is explicit: the user said it
      if (existing && existing.kind === 'explicit') continue;
      this.edgeMap.set(key(e.from, e.to), e);
      this.dependencies.get(e.to)?.add(e.from);
      this.dependents.get(e.from)?.add(e.to);
    }
  }

  get edges(): Edge[] {
    return [...this.edgeMap.values()].sort((a, b) => byId(a.from, b.from) || byId(a.to, b.to));
  }

  edge(from: string, to: string): Edge | undefined {
    return this.edgeMap.get(key(from, to));
  }

  /** What `id` waits for, sorted. */
  dependenciesOf(id: string): string[] {
    return [...(this.dependencies.get(id) ?? [])].sort(byId);
  }

  /** What waits for `id`, sorted. */
  dependentsOf(id: string): string[] {
    return [...(this.dependents.get(id) ?? [])].sort(byId);
  }

  /** Everything `id` waits for, directly or not. */
  ancestorsOf(id: string): Set<string> {
    return this.closure(id, (x) => this.dependencies.get(x));
  }

  /** Everything that waits for `id`, directly or not: what a failure of `id` holds back. */
  descendantsOf(id: string): Set<string> {
    return this.closure(id, (x) => this.dependents.get(x));
  }

  private closure(start: string, next: (id: string) => Set<string> | undefined): Set<string> {
    const seen = new Set<string>();
    const stack = [...(next(start) ?? [])];
    while (stack.length) {
      const id = stack.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...(next(id) ?? []));
    }
    return seen;
  }

  /** The same resources with every edge turned around: the order of deletion. */
  reversed(): ResourceGraph {
    return new ResourceGraph(
      this.ids,
      this.edges.map((e) => ({ from: e.to, to: e.from, kind: e.kind })),
    );
  }

  /**
   * Without the edges other paths already imply (a → c when a → b → c), so that drawings stay
   * readable and the walk waits on no more than it must. Konfig renders often list every
   * earlier kind as a dependency, which makes this matter.
   */
  reduced(): ResourceGraph {
    const descendants = new Map(this.ids.map((id) => [id, this.descendantsOf(id)]));
    const kept = this.edges.filter(
      (e) => ![...this.dependents.get(e.from)!].some((mid) => mid !== e.to && descendants.get(mid)!.has(e.to)),
    );
    return new ResourceGraph(this.ids, kept);
  }

  /**
   * Topological levels: level 0 waits for nothing, level n for something in level n-1 at most.
   * Everything in one level may run at once; ids sort each level, so the order is deterministic.
   */
  levels(): string[][] {
    return this.sortedLevels().map((level) => [...level]);
  }

  /** The levels, found once: a graph never changes, and the executor's start order and its walk
   * both ask for them. Callers here only read them. */
  private sortedLevels(): readonly (readonly string[])[] {
    this.sorted ??= this.sortLevels();
    return this.sorted;
  }

  private sortLevels(): string[][] {
    const remaining = new Map(this.ids.map((id) => [id, this.dependencies.get(id)!.size]));
    let frontier = this.ids.filter((id) => remaining.get(id) === 0);
    const out: string[][] = [];
    let placed = 0;
    while (frontier.length) {
      out.push(frontier);
      placed += frontier.length;
      const next: string[] = [];
      for (const id of frontier) {
        for (const d of this.dependents.get(id)!) {
          const left = remaining.get(d)! - 1;
          remaining.set(d, left);
          if (left === 0) next.push(d);
        }
      }
      frontier = next.sort(byId);
    }
    if (placed !== this.ids.length) throw cycleError(this);
    return out;
  }

  /** The ids in a deterministic execution order: by level, then by id. */
  order(): string[] {
    return this.sortedLevels().flat();
  }

  /**
   * The ids in the order free API-call slots go to them: the longest chain of dependents first
   * (the critical path), then as `order()` lists them. The last workload cannot start before
   * everything it waits on has been sent, so a call that others wait on goes before one that
   * nothing waits on: a stack of ConfigMap, Service and Deployment per app sends its ConfigMaps
   * and Services first, then its Deployments. On a cluster whose control plane shares its CPU
   * (the sandbox, kind, k3s) the cheap objects then go in before the Deployments' controllers start
   * to compete with them, and the last Deployment is sent sooner than when each one went right
   * after its own app's.
   */
  startOrder(): string[] {
    const order = this.order();
    // how many dependents are chained below each id, from the last in order back to the first
    const height = new Map<string, number>();
    for (let i = order.length - 1; i >= 0; i--) {
      let h = 0;
      for (const d of this.dependents.get(order[i])!) h = Math.max(h, height.get(d)! + 1);
      height.set(order[i], h);
    }
    const rank = new Map(order.map((id, i) => [id, i]));
    return [...order].sort((a, b) => height.get(b)! - height.get(a)! || rank.get(a)! - rank.get(b)!);
  }

  /** The cycles (strongly connected components of more than one resource), each from its smallest id. */
  cycles(): string[][] {
    // Tarjan's algorithm, iterative so that a long chain cannot overflow the stack
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const onStack = new Set<string>();
    const stack: string[] = [];
    const found: string[][] = [];
    let counter = 0;
    for (const root of this.ids) {
      if (index.has(root)) continue;
      const work: [string, string[]][] = [[root, this.dependentsOf(root)]];
      index.set(root, counter);
      low.set(root, counter++);
      stack.push(root);
      onStack.add(root);
      while (work.length) {
        const [v, next] = work[work.length - 1];
        const w = next.shift();
        if (w !== undefined) {
          if (!index.has(w)) {
            index.set(w, counter);
            low.set(w, counter++);
            stack.push(w);
            onStack.add(w);
            work.push([w, this.dependentsOf(w)]);
          } else if (onStack.has(w)) {
            low.set(v, Math.min(low.get(v)!, index.get(w)!));
          }
          continue;
        }
        work.pop();
        if (work.length) {
          const parent = work[work.length - 1][0];
          low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
        }
        if (low.get(v) === index.get(v)) {
          const component: string[] = [];
          let x: string;
          do {
            x = stack.pop()!;
            onStack.delete(x);
            component.push(x);
          } while (x !== v);
          if (component.length > 1) found.push(this.cycleThrough(component));
        }
      }
    }
    return found.sort((a, b) => byId(a[0], b[0]));
  }

  /** One cycle inside a strongly connected component, as a path from its smallest id back to it. */
  private cycleThrough(component: string[]): string[] {
    const members = new Set(component);
    const start = [...component].sort(byId)[0];
    const path = [start];
    const seen = new Set([start]);
    for (let at = start; ;) {
      const next = this.dependentsOf(at).filter((d) => members.has(d));
      const back = next.find((d) => d === start);
      if (back) return path;
      const step = next.find((d) => !seen.has(d)) ?? next[0];
      path.push(step);
      seen.add(step);
      at = step;
    }
  }
}

function cycleError(graph: ResourceGraph) {
  const text = graph
    .cycles()
    .map((cycle) =>
      [...cycle, cycle[0]]
        .map((id, i, all) => (i === 0 ? id : `${graph.edge(all[i - 1], id)?.kind === 'implicit' ? '~>' : '->'} ${id}`))
        .join(' '),
    );
  return kclError(
    'SpecError',
    `the resources depend on each other in a cycle, so none of them can go first: ${text.join('; ')} (-> dependsOn, ~> reference)`,
  );
}

/** The graph of a Spec: explicit edges from dependsOn, implicit ones from references. */
export function graphOf(spec: Spec): ResourceGraph {
  return ofEdges(spec, true);
}

/** The graph of a Spec's references alone: which resources need another's fields to be read. */
export function referenceGraphOf(spec: Spec): ResourceGraph {
  return ofEdges(spec, false);
}

function ofEdges(spec: Spec, withDependsOn: boolean): ResourceGraph {
  const edges: Edge[] = [];
  for (const r of spec.resources) {
    if (withDependsOn) for (const d of r.dependsOn ?? []) edges.push({ from: d, to: r.id, kind: 'explicit' });
    for (const ref of referencesIn(r.attributes)) edges.push({ from: ref.target, to: r.id, kind: 'implicit' });
  }
  return new ResourceGraph(
    spec.resources.map((r) => r.id),
    edges,
  );
}

/** Refuses a Spec whose dependencies form a cycle, naming the resources on it. */
export function checkAcyclic(graph: ResourceGraph): void {
  // an order is found only in an acyclic graph, which most are: the search for the cycles themselves
  // runs only to name them
  graph.order();
}
