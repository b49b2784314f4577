/**
 * `kdeck recover --plan` as an on-call engineer runs it: the sample's runbooks, hostnames
 * resolved through a two-cluster sandbox or a CMDB file, and a runbook with a mistake.
 */
import fs from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterSet } from '../src/cluster/cluster-set.js';
import { loadKubeconfig } from '../src/cluster/kubeconfig.js';
import { startSandbox, type Sandbox } from '../src/sandbox/index.js';
import { kdeckIn, startKdeck } from './support/run.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SAMPLE = path.join(HERE, '..', 'konfig-sample');
let sandbox: Sandbox;

const kdeck = (args: string[]) => kdeckIn(SAMPLE, args, 60_000);

const web = (replicas: number) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'main', image: 'registry.example/web:1' }] },
    },
  },
});

beforeAll(async () => {
  sandbox = await startSandbox({
    clusters: 2,
    nodes: 1,
    timings: { podStartMs: 0, readinessDelayMs: 0, terminationMs: 0 },
  });
  const clusters = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath));
  await clusters.client('sandbox-a').apply(web(3));
  await clusters.client('sandbox-b').apply(web(1));
  for (const c of ['sandbox-a', 'sandbox-b']) {
    for (let i = 0; i < 1200; i++) {
      const pods = (await clusters.client(c).list({ apiVersion: 'v1', kind: 'Pod', namespace: 'default' })).items;
      const deployment = await clusters
        .client(c)
        .get({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' });
      const ready = (deployment?.status as { readyReplicas?: number } | undefined)?.readyReplicas;
      const placed = pods.length > 0 && pods.every((p) => (p.spec as { nodeName?: string } | undefined)?.nodeName);
      // the plan reads the replicas that are ready: wait until all are
      if (placed && ready === (deployment?.spec as { replicas?: number } | undefined)?.replicas) break;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}, 60_000);
afterAll(async () => sandbox?.stop());

describe('kdeck recover --plan', () => {
  it('resolves hostnames to pods across the clusters and batches them, one replica of a workload at a time', async () => {
    const r = await kdeck([
      '--kubeconfig',
      sandbox.kubeconfigPath,
      'recover',
      'runbooks/AppRecovery.k',
      '-D',
      'hosts=a-node-1,b-node-1,db-9.prod',
      '--plan',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Runbook app-recovery: delete 4 targets in 2 clusters');
    expect(r.stdout).toContain('Unresolved hostnames (no pod found): db-9.prod');
    // web has 3 replicas on sandbox-a: one per batch
    expect(r.stdout.match(/ {2}batch \d+:/g)).toHaveLength(4);
    expect(r.stdout).toContain(
      '  sandbox-a/default/Deployment/web: 2 of 3 stay up: 1 of 3 replicas down at once (3 targets, 3 ready)',
    );
    // a single replica restarted "1 at once" is a full outage, and the plan says so
    expect(r.stdout).toContain(
      '  sandbox-b/default/Deployment/web: full outage: 1 of 1 replica down at once (1 target, 1 ready)',
    );
    expect(r.stdout).toMatch(/\$ kubectl --context sandbox-a -n default delete pod web-\S+ --wait=false/);
    expect(r.stdout).toContain('Plan only: nothing was changed.');
    const json = JSON.parse(
      (
        await kdeck([
          '--kubeconfig',
          sandbox.kubeconfigPath,
          'recover',
          'runbooks/AppRecovery.k',
          '-D',
          'hosts=b-node-1',
          '--plan',
          '-o',
          'json',
        ])
      ).stdout,
    ) as { batches: { cluster: string }[] };
    expect(json.batches.map((b) => b.cluster)).toEqual(['sandbox-b']);
  });

  it('reads hostnames from a CMDB file, and reports a runbook mistake as a diagnostic without acting', async () => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-recover-'));
    const cmdb = path.join(dir, 'cmdb.csv');
    fs.writeFileSync(cmdb, 'hostname,cluster,namespace,pod\nweb-1.prod,sandbox-a,shop,web-abc\n');
    const r = await kdeck(['recover', 'runbooks/AppRecovery.k', '-D', 'hosts=web-1.prod', '--cmdb', cmdb, '--plan']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('shop/web-abc  (host web-1.prod)');
    const broken = path.join(dir, 'Broken.k');
    fs.writeFileSync(
      broken,
      'import base.pkg.models.recovery\n\nrunbook = recovery.PodRecovery {\n    name = "x"\n    hosts = ["h"]\n    targets = []\n    strategy.batchSize = 0\n}\n',
    );
    fs.copyFileSync(path.join(SAMPLE, 'kcl.mod'), path.join(dir, 'kcl.mod'));
    fs.cpSync(path.join(SAMPLE, 'base'), path.join(dir, 'base'), { recursive: true });
    const bad = await kdeck(['recover', broken, '--plan']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('strategy.batchSize must be at least 1');
    expect(bad.stdout).toBe('');
  });
});

describe('kdeck recover interrupted before the run starts', () => {
  it('ends at once with exit 130 and says nothing was changed while a cluster does not answer', async () => {
    // a cluster that accepts connections and never answers: resolving hostnames waits on it
    const silent = net.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const connected = new Promise<void>((r) => silent.once('connection', () => r()));
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-silent-'));
    const kubeconfig = path.join(dir, 'kubeconfig');
    const port = (silent.address() as net.AddressInfo).port;
    fs.writeFileSync(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: silent\n  cluster: {server: "https://127.0.0.1:${port}", insecure-skip-tls-verify: true}\nusers:\n- name: u\n  user: {token: t}\ncontexts:\n- name: silent\n  context: {cluster: silent, user: u}\ncurrent-context: silent\n`,
    );
    try {
      const recover = startKdeck(
        SAMPLE,
        ['--kubeconfig', kubeconfig, 'recover', 'runbooks/AppRecovery.k', '-D', 'hosts=web-1', '--yes'],
        60_000,
      );
      await connected;
      recover.child.kill('SIGINT');
      const r = await recover.done;
      expect(r.code).toBe(130);
      expect(r.stderr).toBe('kdeck: Interrupted before the recovery started: nothing was changed.\n');
      expect(fs.existsSync(path.join(SAMPLE, '.kdeck', 'runs'))).toBe(false);
    } finally {
      silent.close();
    }
  });
});
