/**
 * The resource graph as lines of text, level by level (level 0 needs nothing; level n needs
 * something of level n-1), each resource with the edges into it: `←` for a dependsOn, `⇠` for
 * a reference in its attributes (an implicit edge). Edges implied by longer paths are left out
 * (transitive reduction) so that the drawing stays readable. Pure; cached per graph.
 */
import type { ResourceGraph } from '../../graph/graph.js';

export interface GraphLine {
  id: string;
  level: number;
  /** First of its level: the level label is drawn on it. */
  firstOfLevel: boolean;
  /** The edges into it: the dependency and whether the edge is implicit. */
  from: { id: string; implicit: boolean }[];
}

export interface GraphLayout {
  lines: GraphLine[];
  /** ids in drawing order */
  order: string[];
  /** `12 resources in 4 levels, 15 edges (3 implicit)` */
  summary: string;
}

const cache = new WeakMap<ResourceGraph, GraphLayout>();

export function graphLayout(graph: ResourceGraph): GraphLayout {
  const cached = cache.get(graph);
  if (cached) return cached;
  const reduced = graph.reduced();
  const lines: GraphLine[] = [];
  graph.levels().forEach((level, n) => {
    level.forEach((id, i) => {
      lines.push({
        id,
        level: n,
        firstOfLevel: i === 0,
        from: reduced.dependenciesOf(id).map((d) => ({ id: d, implicit: reduced.edge(d, id)?.kind === 'implicit' })),
      });
    });
  });
  const edges = graph.edges;
  const levels = lines.length ? lines[lines.length - 1].level + 1 : 0;
  const summary = `${graph.ids.length} resources in ${levels} levels, ${edges.length} edges (${edges.filter((e) => e.kind === 'implicit').length} implicit)`;
  const layout = { lines, order: lines.map((l) => l.id), summary };
  cache.set(graph, layout);
  return layout;
}
