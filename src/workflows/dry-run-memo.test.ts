import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Resource } from '../model/resource.js';
import { LocalStateBackend } from '../state/local.js';
import { DryRunMemo } from './dry-run-memo.js';
import { executeChanges } from './execute.js';
import { planChanges } from './plan.js';
import { FakeClusters, testStack } from './testing.js';

const stack = testStack('apps/web/dev', 'a');

const configMap = (name: string, value: string): Resource => ({
  id: `v1:ConfigMap:web:${name}`,
  type: 'Kubernetes',
  attributes: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'web' }, data: { value } },
});

async function appliedStack() {
  const backend = new LocalStateBackend(fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-memo-')));
  const clusters = new FakeClusters(['a']);
  const spec = { resources: [configMap('one', '1'), configMap('two', '2'), configMap('three', '3')] };
  const changeSet = await planChanges({ stack, spec, clusters, backend });
  await executeChanges(
    {
      stack,
      changeSet,
      clusters,
      backend,
      operation: 'apply',
      operator: 'dev@laptop',
      concurrency: 4,
      timeoutMs: 1000,
      signal: new AbortController().signal,
    },
    () => undefined,
  );
  return { backend, clusters, cluster: clusters.client('a') };
}

describe('dry runs kept between the plans of a stack', () => {
  it('asks the server again only for what is sent differently or changed live since', async () => {
    const { backend, clusters, cluster } = await appliedStack();
    const memo = new DryRunMemo();
    const plan = async (resources: Resource[]) => {
      cluster.calls.length = 0;
      const changeSet = await planChanges({ stack, spec: { resources }, clusters, backend, dryRuns: memo });
      return {
        asked: cluster.calls.filter((c) => c.startsWith('dry-run')).sort(),
        actions: Object.fromEntries(changeSet.changes.map((c) => [c.id, c.action])),
      };
    };

    const first = await plan([configMap('one', '1'), configMap('two', '2'), configMap('three', '3')]);
    expect(first.asked).toEqual([
      'dry-run apply ConfigMap/one',
      'dry-run apply ConfigMap/three',
      'dry-run apply ConfigMap/two',
    ]);
    expect(Object.values(first.actions)).toEqual(['UnChanged', 'UnChanged', 'UnChanged']);

    // a save changed one value: only that one is asked, and the plan still says what changes
    const saved = await plan([configMap('one', '1'), configMap('two', 'II'), configMap('three', '3')]);
    expect(saved.asked).toEqual(['dry-run apply ConfigMap/two']);
    expect(saved.actions).toEqual({
      'v1:ConfigMap:web:one': 'UnChanged',
      'v1:ConfigMap:web:two': 'Update',
      'v1:ConfigMap:web:three': 'UnChanged',
    });

    // someone edited one live: its answer is stale, and its drift shows
    cluster.edit({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'web', name: 'three' }, (o) => {
      o.data = { value: 'edited' };
    });
    const edited = await plan([configMap('one', '1'), configMap('two', 'II'), configMap('three', '3')]);
    expect(edited.asked).toEqual(['dry-run apply ConfigMap/three']);
    expect(edited.actions['v1:ConfigMap:web:three']).toBe('Update');
  });

  it('keeps no answer for a resource the stack no longer has', async () => {
    const { backend, clusters, cluster } = await appliedStack();
    const memo = new DryRunMemo();
    const all = [configMap('one', '1'), configMap('two', '2'), configMap('three', '3')];
    await planChanges({ stack, spec: { resources: all }, clusters, backend, dryRuns: memo });
    await planChanges({ stack, spec: { resources: all.slice(0, 2) }, clusters, backend, dryRuns: memo });
    cluster.calls.length = 0;
    await planChanges({ stack, spec: { resources: all }, clusters, backend, dryRuns: memo });
    expect(cluster.calls.filter((c) => c.startsWith('dry-run'))).toEqual(['dry-run apply ConfigMap/three']);
  });

  it("asks a changed resource's dry run together with its read, not after it", async () => {
    const { backend, clusters, cluster } = await appliedStack();
    const memo = new DryRunMemo();
    const all = [configMap('one', '1'), configMap('two', '2'), configMap('three', '3')];
    await planChanges({ stack, spec: { resources: all }, clusters, backend, dryRuns: memo });
    cluster.latency = () => new Promise((r) => setTimeout(r, 5));
    cluster.maxInFlight = 0;
    const saved = [configMap('one', '1'), configMap('two', 'II'), configMap('three', '3')];
    const changeSet = await planChanges({ stack, spec: { resources: saved }, clusters, backend, dryRuns: memo });
    // the list of the ConfigMaps and the dry run of the changed one, at once
    expect(cluster.maxInFlight).toBe(2);
    expect(changeSet.changes.find((c) => c.id.endsWith(':two'))?.action).toBe('Update');
  });

  it('asks again when the object changed between the early dry run and the read', async () => {
    const { backend, clusters, cluster } = await appliedStack();
    cluster.latency = () => new Promise((r) => setTimeout(r, 5));
    const list = cluster.list.bind(cluster);
    // the list is answered after someone edited the object; the early dry run before that
    cluster.list = async (kind) => {
      await new Promise((r) => setTimeout(r, 20));
      cluster.edit({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'web', name: 'two' }, (o) => {
        o.data = { value: 'edited' };
      });
      return list(kind);
    };
    cluster.calls.length = 0;
    const changeSet = await planChanges({
      stack,
      spec: { resources: [configMap('one', '1'), configMap('two', '2'), configMap('three', '3')] },
      clusters,
      backend,
    });
    expect(cluster.calls.filter((c) => c === 'dry-run apply ConfigMap/two')).toHaveLength(2);
    const two = changeSet.changes.find((c) => c.id.endsWith(':two'))!;
    expect(two.action).toBe('Update');
    expect(two.dryRun?.metadata?.resourceVersion).toBe(two.live?.metadata?.resourceVersion);
  });
});
