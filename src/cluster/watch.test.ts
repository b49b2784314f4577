import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/launcher.js';
import { ClusterSet } from './cluster-set.js';
import { loadKubeconfig } from './kubeconfig.js';
import type { ObjectClient } from './objects.js';
import { DEFAULT_RETRY } from './rest.js';
import { watchObjects } from './watch.js';

let sandbox: Sandbox;
let client: ObjectClient;
beforeAll(async () => {
  sandbox = await startSandbox({ clusters: 1 });
  client = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath), { ...DEFAULT_RETRY, baseMs: 10, maxMs: 50 }).client(
    'sandbox-a',
  );
});
afterAll(() => sandbox.stop());

async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });

describe('a watch of a kind', () => {
  it('keeps its view of the objects through dropped, reset and expired watches', async () => {
    const cluster = sandbox.cluster('a');
    const names = new Set<string>();
    const notes: string[] = [];
    const controller = new AbortController();
    const watching = watchObjects(
      client,
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default' },
      (e) =>
        e.type === 'DELETED'
          ? names.delete(String(e.object.metadata?.name))
          : names.add(String(e.object.metadata?.name)),
      { signal: controller.signal, onReconnect: (why) => notes.push(why), onList: () => names.clear() },
    );
    try {
      await client.apply(configMap('before'));
      await until('the first object', () => names.has('before'));
      for (const mode of ['end', 'reset', 'expire'] as const) {
        // the watch is dropped at its next event (a reset may lose that event on the way); it
        // resumes, or lists again after the expiry, once the drops stop
        cluster.faults.set({ watchDropAfterEvents: 1, watchDropMode: mode });
        await client.apply(configMap(`during-${mode}`));
        await new Promise((r) => setTimeout(r, 300));
        cluster.faults.clear();
        await client.apply(configMap(`after-${mode}`));
        await until(
          `the objects made around a watch dropped by ${mode}`,
          () => names.has(`during-${mode}`) && names.has(`after-${mode}`),
        );
      }
      await client.delete({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'before' });
      await until('the deletion', () => !names.has('before'));
      expect(notes).toContain('watch connection lost: resuming');
      expect(notes).toContain('resourceVersion too old (410 Gone): listing again');
    } finally {
      cluster.faults.clear();
      controller.abort();
    }
    // an aborted watch returns, leaving no request behind
    await watching;
  });

  it('goes on from a list made before, without listing again, and misses nothing made since', async () => {
    const target = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'listed' } as const;
    await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'listed' } });
    await client.apply({ ...configMap('early'), metadata: { name: 'early', namespace: 'listed' } });
    const from = await client.list(target);
    // made after the list and before the watch: the watch resumes from the list's version
    await client.apply({ ...configMap('between'), metadata: { name: 'between', namespace: 'listed' } });
    const lists: string[] = [];
    const names = new Set<string>();
    // what the client asks the server for, over HTTP/2 or not
    const calls = vi.spyOn(client.rest, 'request');
    const watches = vi.spyOn(client.rest, 'watch');
    const controller = new AbortController();
    const watching = watchObjects(client, target, (e) => names.add(String(e.object.metadata?.name)), {
      signal: controller.signal,
      from,
      onList: () => lists.push('list'),
    });
    try {
      await until('the object made between the list and the watch', () => names.has('between'));
      // (and the namespace's root CA, which the cluster puts in every namespace)
      expect([...names].sort()).toEqual(['between', 'early', 'kube-root-ca.crt']);
      // its onList heard once, for the list it was given
      expect(lists).toEqual(['list']);
      // and asked the server for a watch only, from the list's version
      expect(calls.mock.calls.filter(([r]) => r.path.includes('/namespaces/listed/configmaps'))).toEqual([]);
      expect(watches.mock.calls.map(([path, query]) => ({ path, resourceVersion: query?.resourceVersion }))).toEqual([
        { path: '/api/v1/namespaces/listed/configmaps', resourceVersion: from.resourceVersion },
      ]);
    } finally {
      controller.abort();
      calls.mockRestore();
      watches.mockRestore();
    }
    await watching;
  });
});
