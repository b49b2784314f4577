/**
 * The lower bound the engine bench (apply.ts) measures an apply against: what no schedule of the
 * same resources, with the times they took, could beat.
 */
import type { ResourceGraph } from '../src/graph/graph.js';

/**
 * The best any schedule could do with these resource times (each resource's whole time, and its
 * health wait after its apply), the longer of:
 * - the longest chain of whole resource times;
 * - the API calls spread over the slots (a health wait holds none), then the shortest health wait
 *   of a resource nothing depends on. Whichever call ends last is such a resource's: a resource
 *   that something depends on has its dependent's call after its own. So the run ends no sooner
 *   than that call, plus that resource's wait.
 * With pods that take their time, the second is the bound: the last Deployment cannot be sent
 * before the calls of all the others are through, and then waits for its pods.
 */
export function lowerBoundMs(
  graph: ResourceGraph,
  durations: Map<string, number>,
  healthMs: Map<string, number>,
  callMs: number,
  concurrency: number,
): number {
  const order = graph.order();
  const finish = new Map<string, number>();
  for (const id of order) {
    const start = Math.max(0, ...graph.dependenciesOf(id).map((d) => finish.get(d) ?? 0));
    finish.set(id, start + (durations.get(id) ?? 0));
  }
  const chain = Math.max(0, ...finish.values());
  const sinks = order.filter((id) => graph.dependentsOf(id).length === 0);
  const lastWait = sinks.length > 0 ? Math.min(...sinks.map((id) => healthMs.get(id) ?? 0)) : 0;
  return Math.max(chain, callMs / concurrency + lastWait);
}
