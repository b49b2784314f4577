import { describe, expect, it } from 'vitest';
import type { KubeObject } from './object.js';
import { Store } from './store.js';

function cm(name: string, owner?: string): KubeObject {
  const o: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'ns', uid: `uid-${name}` },
  };
  if (owner) o.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner, uid: `uid-${owner}` }];
  return o;
}

describe('the store', () => {
  it('stamps every write with the next cluster-wide resourceVersion and tells its listeners in order', () => {
    const store = new Store(10, 100);
    const seen: string[] = [];
    store.subscribe((e) => seen.push(`${e.type} ${e.object.metadata.name ?? ''} ${e.rv}`));
    store.create('/configmaps', cm('a'));
    store.update('/configmaps', cm('a'));
    store.create('/secrets', cm('b'));
    store.remove('/configmaps', 'ns', 'a');
    expect(seen).toEqual(['ADDED a 101', 'MODIFIED a 102', 'ADDED b 103', 'DELETED a 104']);
    expect(store.resourceVersion).toBe(104);
    expect(store.get('/configmaps', 'ns', 'a')).toBeUndefined();
  });

  it('replays events after a resourceVersion, and says when they have left the history', () => {
    const store = new Store(3, 100);
    for (const n of ['a', 'b', 'c', 'd', 'e']) store.create('/configmaps', cm(n));
    expect(store.eventsAfter(103)!).toEqual([
      expect.objectContaining({ rv: 104 }),
      expect.objectContaining({ rv: 105 }),
    ]);
    expect(store.eventsAfter(101)).toBe('expired');
    store.compact();
    expect(store.eventsAfter(104)).toBe('expired');
    expect(store.eventsAfter(105)).toEqual([]);
  });

  it('lists sorted by namespace and name, and finds dependents by owner uid', () => {
    const store = new Store();
    store.create('/configmaps', cm('owner'));
    store.create('/configmaps', cm('z', 'owner'));
    store.create('/configmaps', cm('y', 'owner'));
    expect(store.list('/configmaps').map((o) => o.metadata.name)).toEqual(['owner', 'y', 'z']);
    expect(
      store
        .dependents('uid-owner')
        .map((d) => d.object.metadata.name)
        .sort(),
    ).toEqual(['y', 'z']);
    store.remove('/configmaps', 'ns', 'y');
    expect(store.dependents('uid-owner').map((d) => d.object.metadata.name)).toEqual(['z']);
  });

  it('restores a snapshot without going back in resourceVersion', () => {
    const a = new Store(10, 500);
    a.create('/configmaps', cm('kept'));
    const b = new Store(10, 100);
    b.restore(a.snapshot());
    expect(b.resourceVersion).toBe(501);
    expect(b.get('/configmaps', 'ns', 'kept')?.metadata.resourceVersion).toBe('501');
    expect(b.eventsAfter(400)).toBe('expired');
  });
});
