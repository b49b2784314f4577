import { describe, expect, it, vi } from 'vitest';
import type { KubeObject } from './object.js';
import { eventJson, expectJson, releaseJson, Store } from './store.js';

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

  it("makes a write's JSON once for all its watchers, and keeps none of it once they have their lines", async () => {
    const store = new Store(10, 100);
    const lines: string[] = [];
    // one watcher makes its line while the write is told (a client that is behind), two after it
    store.subscribe((e) => {
      expectJson(e);
      lines.push(eventJson(e));
      releaseJson(e);
    });
    for (let i = 0; i < 2; i++)
      store.subscribe((e) => {
        expectJson(e);
        setImmediate(() => {
          lines.push(eventJson(e));
          releaseJson(e);
        });
      });
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const stored = store.create('/configmaps', cm('a'));
      const made = () => stringify.mock.calls.filter(([v]) => v === stored).length;
      for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(lines).toHaveLength(3);
      expect(new Set(lines).size).toBe(1);
      expect(made()).toBe(1);
      // kept with the event, the text would stay as long as the event stays in the history
      const history = store.eventsAfter(100);
      if (history === 'expired') throw new Error('the write left the history');
      expect(eventJson(history[0]!)).toBe(lines[0]);
      expect(made()).toBe(2);
    } finally {
      stringify.mockRestore();
    }
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
