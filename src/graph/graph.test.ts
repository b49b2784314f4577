import { describe, expect, it } from 'vitest';
import { diagnosticOf } from '../kcl/testing.js';
import type { Resource } from '../model/resource.js';
import { checkAcyclic, graphOf, ResourceGraph } from './graph.js';

const res = (id: string, dependsOn: string[] = [], attributes: Record<string, unknown> = {}): Resource => ({
  id,
  type: 'Kubernetes',
  attributes,
  ...(dependsOn.length ? { dependsOn } : {}),
});

const NS = 'v1:Namespace:shop';
const DB = 'v1:Service:shop:db';
const CM = 'v1:ConfigMap:shop:settings';
const APP = 'apps/v1:Deployment:shop:app';

const shop = graphOf({
  resources: [
    res(NS),
    res(CM, [NS]),
    res(DB, [NS]),
    // dense, as Konfig renders write it: the namespace is implied by the config map
    res(APP, [NS, CM], { env: [{ value: `\${ref:${DB}#/spec/clusterIP}` }] }),
  ],
});

describe('resource graph', () => {
  it('keeps explicit and implicit edges apart', () => {
    expect(shop.edges.map((e) => `${e.from} ${e.kind === 'explicit' ? '->' : '~>'} ${e.to}`)).toEqual([
      `${CM} -> ${APP}`,
      `${NS} -> ${APP}`,
      `${NS} -> ${CM}`,
      `${NS} -> ${DB}`,
      `${DB} ~> ${APP}`,
    ]);
    expect(shop.dependenciesOf(APP)).toEqual([CM, NS, DB]);
    expect(shop.dependentsOf(NS)).toEqual([APP, CM, DB]);
  });

  it('orders by levels, then by id', () => {
    expect(shop.levels()).toEqual([[NS], [CM, DB], [APP]]);
    expect(shop.order()).toEqual([NS, CM, DB, APP]);
    expect(shop.reversed().levels()).toEqual([[APP], [CM, DB], [NS]]);
  });

  it('starts what others wait on first: the longest chain of dependents, then by order', () => {
    const app = (i: number) => [
      res(`v1:ConfigMap:shop:app-${i}`, [NS]),
      res(`v1:Service:shop:app-${i}`, [NS]),
      res(`apps/v1:Deployment:shop:app-${i}`, [NS, `v1:ConfigMap:shop:app-${i}`, `v1:Service:shop:app-${i}`]),
    ];
    const solo = res('v1:ConfigMap:shop:solo', [NS]);
    const g = graphOf({ resources: [res(NS), ...app(0), ...app(1), solo] });
    expect(g.startOrder()).toEqual([
      NS,
      'v1:ConfigMap:shop:app-0',
      'v1:ConfigMap:shop:app-1',
      'v1:Service:shop:app-0',
      'v1:Service:shop:app-1',
      // nothing waits on these: by order, level by level
      'v1:ConfigMap:shop:solo',
      'apps/v1:Deployment:shop:app-0',
      'apps/v1:Deployment:shop:app-1',
    ]);
  });

  it('drops the edges other paths imply', () => {
    const reduced = shop.reduced();
    expect(reduced.edge(NS, APP)).toBeUndefined();
    expect(reduced.edges).toHaveLength(4);
    expect(reduced.levels()).toEqual(shop.levels());
  });

  it('knows what a failure holds back', () => {
    expect([...shop.descendantsOf(DB)]).toEqual([APP]);
    expect([...shop.ancestorsOf(APP)].sort()).toEqual([CM, NS, DB].sort());
  });

  it('reports a cycle with its ids and the kind of each edge', () => {
    const g = graphOf({
      resources: [
        res('a', ['c']),
        res('b', ['a']),
        res('c', [], { x: '${ref:b#/spec}' }),
        res('d', ['d2']),
        res('d2', ['d']),
        res('e'),
      ],
    });
    expect(g.cycles()).toEqual([
      ['a', 'b', 'c'],
      ['d', 'd2'],
    ]);
    const d = diagnosticOf(() => checkAcyclic(g));
    expect(d.message).toBe(
      'the resources depend on each other in a cycle, so none of them can go first: a -> b ~> c -> a; d -> d2 -> d (-> dependsOn, ~> reference)',
    );
    expect(diagnosticOf(() => g.levels()).message).toBe(d.message);
  });

  it('handles a long chain without deep recursion', () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => `r${String(i).padStart(5, '0')}`);
    const g = new ResourceGraph(
      ids,
      ids.slice(1).map((id, i) => ({ from: ids[i], to: id, kind: 'explicit' as const })),
    );
    expect(g.cycles()).toEqual([]);
    expect(g.levels()).toHaveLength(20_000);
  });
});
