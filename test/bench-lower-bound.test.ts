import { describe, expect, it } from 'vitest';
import { lowerBoundMs } from '../bench/lower-bound.js';
import { ResourceGraph } from '../src/graph/graph.js';

/** A namespace, then per app a ConfigMap and a Deployment that waits for it: the engine bench's shape. */
function apps(n: number): ResourceGraph {
  const ids = ['ns'];
  const edges: { from: string; to: string; kind: 'explicit' }[] = [];
  for (let i = 0; i < n; i++) {
    ids.push(`cm-${i}`, `deploy-${i}`);
    edges.push(
      { from: 'ns', to: `cm-${i}`, kind: 'explicit' },
      { from: `cm-${i}`, to: `deploy-${i}`, kind: 'explicit' },
    );
  }
  return new ResourceGraph(ids, edges);
}

const times = (graph: ResourceGraph, of: (id: string) => number) => new Map(graph.ids.map((id) => [id, of(id)]));

describe('the engine bench lower bound', () => {
  it('is the longest chain when the calls are few', () => {
    const g = apps(2);
    // 10 ms per call, Deployments healthy 1 s after their apply
    const health = times(g, (id) => (id.startsWith('deploy') ? 1000 : 0));
    const whole = times(g, (id) => 10 + health.get(id)!);
    expect(lowerBoundMs(g, whole, health, 5 * 10, 16)).toBe(10 + 10 + 1010);
  });

  it('adds the last resource’s wait to the calls when the calls take longer than the chain', () => {
    const g = apps(100);
    const health = times(g, (id) => (id.startsWith('deploy') ? 1000 + Number(id.split('-')[1]) : 0));
    const whole = times(g, (id) => 10 + health.get(id)!);
    // 201 calls of 100 ms over 10 slots: 2,010 ms before the last call is through, then the
    // shortest Deployment wait (1,000 ms); the chain alone says 1,129 ms
    expect(lowerBoundMs(g, whole, health, 201 * 100, 10)).toBe(2010 + 1000);
  });

  it('takes the wait of a resource nothing depends on, not of one others wait for', () => {
    const g = apps(1);
    // the ConfigMap's wait is shorter, but its Deployment is sent after it, so it cannot end the run
    const health = new Map([
      ['ns', 0],
      ['cm-0', 5],
      ['deploy-0', 500],
    ]);
    expect(
      lowerBoundMs(
        g,
        times(g, () => 0),
        health,
        1600,
        16,
      ),
    ).toBe(100 + 500);
  });
});
