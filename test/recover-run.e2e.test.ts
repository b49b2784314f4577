/**
 * `kdeck recover` run for real, as on call runs it: a three-cluster sandbox with the sample's
 * guestbook and nginx apps in every cluster, twelve failing hostnames, batches of two, at most
 * one replica of a workload down at once. What is checked is what the clusters saw (their event
 * history) and what the audit log says, after a clean run, a crash-looping cluster, and a kill.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ClusterSet } from '../src/cluster/cluster-set.js';
import { loadKubeconfig } from '../src/cluster/kubeconfig.js';
import type { KubeObject } from '../src/model/kube-object.js';
import { compileStack } from '../src/konfig/compile.js';
import { startSandbox, type Sandbox, type SandboxCluster } from '../src/sandbox/index.js';
import type { AuditEntry } from '../src/workflows/recovery/model.js';
import { CLI, kdeckIn } from './support/run.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SAMPLE = path.join(HERE, '..', 'konfig-sample');
const CONTEXTS = ['sandbox-a', 'sandbox-b', 'sandbox-c'];
const NGINX = 'nginxinc/nginx-unprivileged';

let sandbox: Sandbox;
let clusters: ClusterSet;
let workspace: string;

type Pod = KubeObject & {
  metadata: {
    name: string;
    namespace: string;
    uid: string;
    deletionTimestamp?: string;
    ownerReferences?: { name: string }[];
  };
  status?: { conditions?: { type: string; status: string }[] };
};

const kdeck = (args: string[]) => kdeckIn(workspace, ['--kubeconfig', sandbox.kubeconfigPath, ...args], 100_000);
const podsOf = async (context: string) =>
  (await clusters.client(context).list({ apiVersion: 'v1', kind: 'Pod' })).items as Pod[];
const ready = (p: Pod) =>
  !p.metadata.deletionTimestamp && (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

async function settled(): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const all = (await Promise.all(CONTEXTS.map(podsOf))).flat();
    if (all.length === 30 && all.every(ready)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the sample apps did not become ready in the sandbox');
}

/** Four pods per cluster, two of guestbook's frontend, one redis follower, one nginx: twelve hostnames. */
async function pickHosts(): Promise<{ hosts: string[]; uids: Map<string, string> }> {
  const hosts: string[] = [];
  const uids = new Map<string, string>();
  for (const c of CONTEXTS) {
    const pods = await podsOf(c);
    const take = (prefix: string, n: number) => pods.filter((p) => p.metadata.name.startsWith(prefix)).slice(0, n);
    for (const p of [...take('frontend-', 2), ...take('redis-follower-', 1), ...take('nginx-example-', 1)]) {
      hosts.push(p.metadata.name);
      uids.set(p.metadata.uid, `${c}/${p.metadata.name}`);
    }
  }
  return { hosts, uids };
}

/**
 * Replays a cluster's pod events since `rv`: the most replicas of one workload (ReplicaSet) that
 * were ever not Ready at once, and the uids of every pod that was deleted.
 */
function history(cluster: SandboxCluster, rv: number, start: Pod[]): { worst: number; deleted: Set<string> } {
  const events = cluster.store.eventsAfter(rv);
  if (events === 'expired') throw new Error('the sandbox history no longer reaches back to the start of the run');
  const pods = new Map(start.map((p) => [p.metadata.uid, p]));
  const want = new Map<string, number>();
  for (const p of start) {
    const owner = p.metadata.ownerReferences?.[0]?.name ?? '';
    want.set(owner, (want.get(owner) ?? 0) + 1);
  }
  const deleted = new Set<string>();
  let worst = 0;
  for (const e of events) {
    if (e.resource !== '/pods') continue;
    const p = e.object as unknown as Pod;
    if (p.metadata.deletionTimestamp || e.type === 'DELETED') deleted.add(p.metadata.uid);
    if (e.type === 'DELETED') pods.delete(p.metadata.uid);
    else pods.set(p.metadata.uid, p);
    for (const [owner, n] of want) {
      const up = [...pods.values()].filter((x) => x.metadata.ownerReferences?.[0]?.name === owner && ready(x)).length;
      worst = Math.max(worst, n - up);
    }
  }
  return { worst, deleted };
}

/** Since `rv` (per cluster), in every cluster: no workload ever had more than one replica down,
 * and exactly the pods of `uids` (uid → cluster/name) were deleted, no replacement of them. */
function expectOnlyTargetsReplaced(rv: number[], before: Pod[][], uids: Map<string, string>): void {
  for (const [i, c] of sandbox.clusters.entries()) {
    const { worst, deleted } = history(c, rv[i]!, before[i]!);
    expect(worst).toBeLessThanOrEqual(1);
    expect([...deleted].map((u) => uids.get(u)).sort()).toEqual(
      [...uids.values()].filter((v) => v.startsWith(CONTEXTS[i]!)).sort(),
    );
  }
}

function auditOf(stdout: string): AuditEntry[] {
  const id = /kdeck recover --resume (\S+)|Audit log: \.kdeck\/runs\/([^/]+)\//.exec(stdout);
  const run = id?.[1] ?? id?.[2];
  if (!run) throw new Error(`no run id in:\n${stdout}`);
  return fs
    .readFileSync(path.join(workspace, '.kdeck', 'runs', run, 'audit.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditEntry);
}

async function deploySamples(): Promise<void> {
  const objects = ['guestbook/prod', 'nginx-example/prod'].flatMap((s) =>
    compileStack(path.join(SAMPLE, 'appops', s)).spec.resources.map((r) => r.attributes as KubeObject),
  );
  const order = (o: KubeObject) => (o.kind === 'Namespace' ? 0 : 1);
  for (const c of CONTEXTS)
    for (const o of [...objects].sort((a, b) => order(a) - order(b))) await clusters.client(c).apply(o);
}

beforeAll(async () => {
  // cluster time runs ten times faster, so a crash loop's back-off takes a second, not ten
  sandbox = await startSandbox({ clusters: 3, nodes: 3, timeScale: 0.1, seed: 7 });
  clusters = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath));
  workspace = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-recover-run-'));
  fs.copyFileSync(path.join(SAMPLE, 'kcl.mod'), path.join(workspace, 'kcl.mod'));
  for (const d of ['base', 'runbooks']) fs.cpSync(path.join(SAMPLE, d), path.join(workspace, d), { recursive: true });
  await deploySamples();
  await settled();
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
  if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

describe('kdeck recover, run against three clusters', () => {
  it('replaces exactly the twelve pods, batch by batch, never more than one replica of a workload down, and audits every step', async () => {
    const { hosts, uids } = await pickHosts();
    const before = await Promise.all(CONTEXTS.map(podsOf));
    const rv = sandbox.clusters.map((c) => c.store.resourceVersion);
    const r = await kdeck(['recover', 'runbooks/AppRecovery.k', '-D', `hosts=${hosts.join(',')}`, '--yes']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Recovery complete: every batch verified.');

    expectOnlyTargetsReplaced(rv, before, uids);
    const after = (await Promise.all(CONTEXTS.map(podsOf))).flat();
    expect(after).toHaveLength(30);
    expect(after.every(ready)).toBe(true);
    // untouched pods keep their uids; the twelve are gone
    const untouched = before.flat().filter((p) => !uids.has(p.metadata.uid));
    expect(after.filter((p) => !uids.has(p.metadata.uid)).map((p) => p.metadata.uid)).toEqual(
      expect.arrayContaining(untouched.map((p) => p.metadata.uid)),
    );
    expect(after.some((p) => uids.has(p.metadata.uid))).toBe(false);

    const audit = auditOf(r.stdout);
    expect(
      audit
        .filter((e) => e.outcome === 'deleted')
        .map((e) => `${e.cluster}/${e.target!.split('/')[2]}`)
        .sort(),
    ).toEqual([...uids.values()].sort());
    expect(audit.filter((e) => e.action === 'batch' && e.outcome === 'verified')).toHaveLength(6);
    expect(audit.every((e) => e.who && e.time && e.run)).toBe(true);
    expect(audit.at(-1)).toMatchObject({ action: 'run', outcome: 'finished' });
  }, 120_000);

  it('stops the cluster whose replacements crash-loop, finishes the others, and completes on --resume once the fault is cleared', async () => {
    await settled();
    const { hosts } = await pickHosts();
    const c = sandbox.cluster('c');
    c.faults.set({ ...c.faults.current, crashLoopImages: [NGINX] });
    const r = await kdeck([
      'recover',
      'runbooks/AppRecovery.k',
      '-D',
      `hosts=${hosts.join(',')}`,
      '-D',
      'onFailure=abort',
      '--yes',
      '-o',
      'json',
    ]);
    expect(r.code).toBe(1);
    const updates = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; entry?: AuditEntry });
    const ends = Object.fromEntries(
      updates.filter((u) => u.entry?.action === 'cluster').map((u) => [u.entry!.cluster, u.entry]),
    );
    expect(ends['sandbox-a']?.outcome).toBe('done');
    expect(ends['sandbox-b']?.outcome).toBe('done');
    expect(ends['sandbox-c']?.outcome).toBe('stopped');
    expect(ends['sandbox-c']?.detail).toMatch(/^CrashLoopBackOff: guestbook|^CrashLoopBackOff: nginx-example/);
    const run = updates.find((u) => u.entry)!.entry!.run;

    c.faults.set({ ...c.faults.current, crashLoopImages: [] });
    const resumed = await kdeck(['recover', '--resume', run]);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('sandbox-c: done');
    expect(resumed.stdout).toContain('Recovery complete: every batch verified.');
    await settled();
  }, 120_000);

  it('resumes a run killed with SIGKILL mid-run, and no pod is restarted twice', async () => {
    await settled();
    const { hosts, uids } = await pickHosts();
    const before = await Promise.all(CONTEXTS.map(podsOf));
    const rv = sandbox.clusters.map((c) => c.store.resourceVersion);
    const runs = path.join(workspace, '.kdeck', 'runs');
    const known = new Set(fs.existsSync(runs) ? fs.readdirSync(runs) : []);
    const child = spawn(
      process.execPath,
      [
        CLI,
        '--kubeconfig',
        sandbox.kubeconfigPath,
        'recover',
        'runbooks/AppRecovery.k',
        '-D',
        `hosts=${hosts.join(',')}`,
        '-D',
        'batchSize=1',
        '--yes',
      ],
      { cwd: workspace, stdio: 'ignore' },
    );
    const exited = new Promise((r) => child.on('exit', r));
    let run: string | undefined;
    try {
      // killed once some pods are deleted and most are not
      for (let i = 0; i < 600; i++) {
        run = fs.existsSync(runs) ? fs.readdirSync(runs).find((d) => !known.has(d)) : undefined;
        const log = run && path.join(runs, run, 'audit.jsonl');
        if (
          log &&
          fs.existsSync(log) &&
          fs
            .readFileSync(log, 'utf8')
            .split('\n')
            .filter((l) => l.includes('"deleted"')).length >= 3
        )
          break;
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    expect(run).toBeDefined();
    const resumed = await kdeck(['recover', '--resume', run!]);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('Recovery complete: every batch verified.');
    expectOnlyTargetsReplaced(rv, before, uids);
  }, 120_000);

  it('rolls named workloads out again with a WorkloadRestart runbook, as kubectl rollout restart does, and nothing else', async () => {
    await settled();
    fs.writeFileSync(
      path.join(workspace, 'runbooks', 'RollFrontend.k'),
      'import base.pkg.models.recovery\n\nrunbook = recovery.WorkloadRestart {\n    name = "roll-frontend"\n    targets = [recovery.Target {cluster = c, namespace = "guestbook", kind = "Deployment", name = "frontend"} for c in ["sandbox-a", "sandbox-c"]]\n    strategy = recovery.Strategy {batchSize = 1, onFailure = "abort"}\n}\n',
    );
    const frontends = async (c: string) =>
      (await podsOf(c)).filter((p) => p.metadata.name.startsWith('frontend-')).map((p) => p.metadata.uid);
    const before = { a: await frontends('sandbox-a'), b: await frontends('sandbox-b') };
    const r = await kdeck(['recover', 'runbooks/RollFrontend.k', '--yes']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const audit = auditOf(r.stdout);
    expect(
      audit
        .filter((e) => e.outcome === 'restarted')
        .map((e) => e.cluster)
        .sort(),
    ).toEqual(['sandbox-a', 'sandbox-c']);
    await settled();
    // every frontend pod of sandbox-a is new; sandbox-b, not named, is untouched
    expect((await frontends('sandbox-a')).some((u) => before.a.includes(u))).toBe(false);
    expect(await frontends('sandbox-b')).toEqual(before.b);
    const live = (
      await clusters
        .client('sandbox-a')
        .get({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'guestbook', name: 'frontend' })
    )?.spec as { template: { metadata: { annotations?: Record<string, string> } } };
    const record = JSON.parse(
      fs.readFileSync(path.join(workspace, '.kdeck', 'runs', audit[0]!.run, 'run.json'), 'utf8'),
    ) as { plan: { restartedAt: string } };
    expect(live.template.metadata.annotations?.['kubectl.kubernetes.io/restartedAt']).toBe(record.plan.restartedAt);
  }, 120_000);

  it("asks for a production cluster's name typed out: --yes alone is refused, --confirm with the name runs", async () => {
    await settled();
    // the same clusters under production names
    const doc = YAML.parse(fs.readFileSync(sandbox.kubeconfigPath, 'utf8')) as {
      contexts: { name: string }[];
      'current-context'?: string;
    };
    for (const c of doc.contexts) c.name = c.name.replace('sandbox-', 'prod-');
    doc['current-context'] = 'prod-a';
    const prodConfig = path.join(workspace, 'prod-kubeconfig');
    fs.writeFileSync(prodConfig, YAML.stringify(doc));
    const host = (await podsOf('sandbox-a')).find((p) => p.metadata.name.startsWith('frontend-'))!;
    const rv = sandbox.cluster('a').store.resourceVersion;
    const refused = await kdeckIn(
      workspace,
      ['--kubeconfig', prodConfig, 'recover', 'runbooks/AppRecovery.k', '-D', `hosts=${host.metadata.name}`, '--yes'],
      60_000,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'the recovery touches production (prod-a); --yes alone is not enough: confirm by name with --confirm prod-a',
    );
    const events = sandbox.cluster('a').store.eventsAfter(rv);
    expect(
      events !== 'expired' && events.some((e) => e.resource === '/pods' && e.object.metadata.deletionTimestamp),
    ).toBe(false);
    const confirmed = await kdeckIn(
      workspace,
      [
        '--kubeconfig',
        prodConfig,
        'recover',
        'runbooks/AppRecovery.k',
        '-D',
        `hosts=${host.metadata.name}`,
        '--confirm',
        'prod-a',
      ],
      60_000,
    );
    expect(confirmed.stderr).toBe('');
    expect(confirmed.code).toBe(0);
    expect(confirmed.stdout).toContain('prod-a: done (1 of 1 batch verified)');
  }, 120_000);

  it('refuses to run in --read-only mode, and a runbook with a KCL error changes nothing', async () => {
    const { hosts } = await pickHosts();
    const ro = await kdeck(['--read-only', 'recover', 'runbooks/AppRecovery.k', '-D', `hosts=${hosts[0]}`, '--yes']);
    expect(ro.code).toBe(2);
    expect(ro.stderr).toContain('refused in --read-only mode');
    const rv = sandbox.clusters.map((c) => c.store.resourceVersion);
    const bad = await kdeck([
      'recover',
      'runbooks/AppRecovery.k',
      '-D',
      `hosts=${hosts[0]}`,
      '-D',
      'onFailure=explode',
      '--yes',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('expect "pause" | "abort" | "continue", got str');
    const events = sandbox.clusters.map((c, i) => c.store.eventsAfter(rv[i]!));
    expect(
      events.every(
        (e) => e !== 'expired' && e.every((x) => x.resource !== '/pods' || !x.object.metadata.deletionTimestamp),
      ),
    ).toBe(true);
  }, 60_000);
});
