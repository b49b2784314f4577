import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClusterSet } from '../cluster/cluster-set.js';
import { loadKubeconfig } from '../cluster/kubeconfig.js';
import { PluginRegistry } from '../kcl/plugins.js';
import { runKcl } from '../kcl/run.js';
import { startSandbox } from '../sandbox/index.js';
import { CMDB_PLUGIN, cmdbPlugin, resolveFromClusters, resolveFromFile, type PodSource } from './cmdb.js';

const deployment = (name: string, replicas: number, namespace = 'default') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'main', image: `registry.example/${name}:1` }] },
    },
  },
});

describe('cmdb look-up', () => {
  it('finds the pods behind hostnames in every cluster (pod name or node), with their owning workload, and reports the rest', async () => {
    const sandbox = await startSandbox({
      clusters: 2,
      nodes: 2,
      timings: { podStartMs: 0, readinessDelayMs: 0, terminationMs: 0 },
    });
    try {
      const clusters = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath));
      await clusters.client('sandbox-a').apply(deployment('web', 2));
      // in a namespace of its own: the look-up searches every namespace
      await clusters.client('sandbox-b').apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
      await clusters.client('sandbox-b').apply(deployment('api', 1, 'shop'));
      const sources = new Map<string, PodSource>(['sandbox-a', 'sandbox-b'].map((c) => [c, clusters.client(c)]));
      const podsOf = async (c: string) =>
        (await clusters.client(c).list({ apiVersion: 'v1', kind: 'Pod', namespace: 'shop' })).items;
      let apiPods = await podsOf('sandbox-b');
      for (
        let i = 0;
        i < 1200 && (apiPods.length === 0 || !apiPods[0].spec || !(apiPods[0].spec as { nodeName?: string }).nodeName);
        i++
      ) {
        await new Promise((r) => setTimeout(r, 25));
        apiPods = await podsOf('sandbox-b');
      }
      const apiPod = String(apiPods[0].metadata?.name);
      const node = String((apiPods[0].spec as { nodeName: string }).nodeName);
      const table = await resolveFromClusters([apiPod, 'a-node-404', node], sources);
      expect(table.unresolved).toEqual(['a-node-404']);
      expect(table.records.filter((r) => r.hostname === apiPod)).toEqual([
        {
          hostname: apiPod,
          cluster: 'sandbox-b',
          namespace: 'shop',
          pod: apiPod,
          node,
          owner: { kind: 'Deployment', name: 'api' },
        },
      ]);
      expect(table.records.filter((r) => r.hostname === node).map((r) => r.pod)).toContain(apiPod);
      expect(table.records.every((r) => r.hostname !== node || r.cluster === 'sandbox-b')).toBe(true);
    } finally {
      await sandbox.stop();
    }
  }, 60_000);

  it('reads a CMDB file in YAML or CSV, refusing incomplete entries', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-cmdb-'));
    const csv = path.join(dir, 'hosts.csv');
    fs.writeFileSync(
      csv,
      'hostname,cluster,namespace,pod\nweb-1.prod,sandbox-a,shop,web-7d9f-abcde\nweb-2.prod,sandbox-b,shop,web-7d9f-fghij\n',
    );
    expect(resolveFromFile(['web-2.prod', 'db-1.prod'], csv)).toEqual({
      records: [{ hostname: 'web-2.prod', cluster: 'sandbox-b', namespace: 'shop', pod: 'web-7d9f-fghij' }],
      unresolved: ['db-1.prod'],
    });
    const yaml = path.join(dir, 'hosts.yaml');
    fs.writeFileSync(yaml, '- {hostname: web-1.prod, cluster: sandbox-a, namespace: shop}\n');
    expect(() => resolveFromFile(['web-1.prod'], yaml)).toThrow('entry 1: no pod');
  });

  it('answers kcl_plugin.cmdb from a runbook', () => {
    const table = {
      records: [{ hostname: 'h1', cluster: 'sandbox-a', namespace: 'shop', pod: 'web-1' }],
      unresolved: ['h2'],
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-cmdb-kcl-'));
    fs.writeFileSync(
      path.join(dir, 'main.k'),
      'import kcl_plugin.cmdb\n\ntargets = [p for h in ["h1", "h2"] for p in cmdb.lookup(h)]\nmissing = cmdb.unresolved()\n',
    );
    const out = runKcl({
      files: [path.join(dir, 'main.k')],
      plugins: new PluginRegistry().register(CMDB_PLUGIN, cmdbPlugin(table)),
    });
    expect(out.yaml).toBe(
      'targets:\n- hostname: h1\n  cluster: sandbox-a\n  namespace: shop\n  pod: web-1\nmissing:\n- h2\n',
    );
  });
});
