import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitCreate } from '../api/write.js';
import { startSandbox, type Sandbox } from '../launcher.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ clusters: 1 });
});
afterAll(() => sandbox.stop());

describe('a watch stream', () => {
  it('sends the events of one burst of writes in their order, before the line that ends it', async () => {
    const cluster = sandbox.cluster('a');
    await cluster.settle();
    const from = cluster.store.resourceVersion;
    const res = await fetch(
      `${cluster.httpUrl}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${from}`,
      { headers: { authorization: `Bearer ${cluster.token}` } },
    );
    expect(res.status).toBe(200);
    // the third event ends the watch with an expiry: what the writes before it made comes first
    cluster.faults.set({ watchDropAfterEvents: 3, watchDropMode: 'expire' });
    const configMaps = cluster.api.resources.forKind('v1', 'ConfigMap')!;
    // written in one turn of the event loop, as a controller's reconciles write
    for (const name of ['one', 'two', 'three'])
      commitCreate(
        cluster.api,
        configMaps,
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } },
        { manager: 'test' },
      );
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; object: { metadata?: { name?: string }; code?: number } });
    cluster.faults.clear();
    expect(lines.map((l) => `${l.type} ${l.object.metadata?.name ?? l.object.code}`)).toEqual([
      'ADDED one',
      'ADDED two',
      'ADDED three',
      'ERROR 410',
    ]);
  });
});
