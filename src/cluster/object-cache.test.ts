import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/launcher.js';
import { ClusterSet } from './cluster-set.js';
import { loadKubeconfig } from './kubeconfig.js';
import { ObjectCache } from './object-cache.js';
import type { ObjectClient } from './objects.js';

let sandbox: Sandbox;
let client: ObjectClient;
beforeAll(async () => {
  sandbox = await startSandbox({ clusters: 1 });
  client = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath)).client('sandbox-a');
});
afterAll(() => sandbox.stop());

const TARGET = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default' } as const;
const configMap = (name: string, value: string) => ({
  ...TARGET,
  metadata: { name, namespace: 'default', labels: { app: name } },
  data: { value },
});

/** Resolves at the cache's next change. */
const changed = (cache: ObjectCache) =>
  new Promise<void>((resolve) => {
    const off = cache.onChange(() => {
      off();
      resolve();
    });
  });

describe('a watch-fed cache of a kind', () => {
  it('holds the objects as the server has them, without the fields managers record', async () => {
    const listed = await client.apply(configMap('listed', 'one'));
    expect(listed.metadata?.managedFields).toBeDefined();
    const cache = new ObjectCache(client, TARGET);
    try {
      await cache.ready();
      const first = cache.get(String(listed.metadata?.uid));
      expect(first?.data).toEqual({ value: 'one' });
      expect(first?.metadata?.labels).toEqual({ app: 'listed' });
      expect(first?.metadata).not.toHaveProperty('managedFields');

      // and so does every version a watch event brings
      const next = changed(cache);
      const updated = await client.apply(configMap('listed', 'two'));
      await next;
      const second = cache.get(String(updated.metadata?.uid));
      expect(second?.data).toEqual({ value: 'two' });
      expect(second?.metadata?.resourceVersion).toBe(updated.metadata?.resourceVersion);
      expect(second?.metadata).not.toHaveProperty('managedFields');
    } finally {
      cache.close();
    }
  });
});
