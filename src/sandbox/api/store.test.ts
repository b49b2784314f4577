import { describe, expect, it } from 'vitest';
import type { KubeObject } from './object.js';
import { eventJson, Store } from './store.js';

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

  it('keeps no watch line text in the history once the watchers of a write have their lines', async () => {
    const store = new Store(10, 100);
    const lines: string[] = [];
    // two watchers that make their lines when they flush, after the write
    for (let i = 0; i < 2; i++) store.subscribe((e) => setImmediate(() => lines.push(eventJson(e))));
    store.create('/configmaps', cm('a'));
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!)).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '101' } });
    const history = store.eventsAfter(100);
    if (history === 'expired') throw new Error('the write left the history');
    // the text of every object written would otherwise stay as long as its event, thousands of writes
    expect(history.map((e) => Object.keys(e).sort())).toEqual([['object', 'resource', 'rv', 'type']]);
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
