/**
 * `kdeck recover --rehearse`, as on call runs it before a recovery: three sandbox clusters stand
 * in for production (workloads of different sizes and readiness, a PodDisruptionBudget over two
 * workloads on sandbox-a). The rehearsal must predict the batches, each workload's lowest
 * availability and the eviction the budget refuses, from the pods' own timestamps, and leave the
 * clusters untouched; the real run afterwards must go batch for batch as predicted.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterSet } from '../src/cluster/cluster-set.js';
import { loadKubeconfig } from '../src/cluster/kubeconfig.js';
import type { Rehearsal } from '../src/recovery/rehearsal.js';
import { startSandbox, type Sandbox } from '../src/sandbox/index.js';
import type { AuditEntry } from '../src/workflows/recovery/model.js';
import { deployFixture, fixtureHosts, NAMESPACE } from '../bench/rehearsal-fixture.js';
import { SAMPLE } from './support/sample.js';
import { kdeckIn } from './support/run.js';

let sandbox: Sandbox;
let clusters: ClusterSet;
let workspace: string;
let hosts: string[];

const kdeck = (args: string[]) => kdeckIn(workspace, ['--kubeconfig', sandbox.kubeconfigPath, ...args], 100_000);

/** Every object of the fixture's namespace, and every node, by kind and name: its uid and resourceVersion. */
function identities(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of sandbox.clusters)
    for (const { resource, object } of c.snapshot().objects) {
      const m = object.metadata;
      if (m.namespace === NAMESPACE || resource === '/nodes')
        out[`${c.name}/${resource}/${m.namespace ?? ''}/${m.name ?? ''}`] = `${m.uid}@${m.resourceVersion}`;
    }
  return out;
}

beforeAll(async () => {
  sandbox = await startSandbox({ clusters: 3, nodes: 3, seed: 19 });
  clusters = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath));
  workspace = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-rehearse-'));
  fs.copyFileSync(path.join(SAMPLE, 'kcl.mod'), path.join(workspace, 'kcl.mod'));
  for (const d of ['base', 'runbooks']) fs.cpSync(path.join(SAMPLE, d), path.join(workspace, d), { recursive: true });
  await deployFixture(clusters);
  hosts = await fixtureHosts(clusters);
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
  if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

const podTarget = (name: string) => `${NAMESPACE}/Pod/${name}`;

/** `kdeck [global] recover runbooks/AppRecovery.k -D hosts=… -D action=evict --rehearse [extra]`. */
const rehearse = (extra: string[], global: string[] = []) =>
  kdeck([
    ...global,
    'recover',
    'runbooks/AppRecovery.k',
    '-D',
    `hosts=${hosts.join(',')}`,
    '-D',
    'action=evict',
    '--rehearse',
    ...extra,
  ]);

describe('kdeck recover --rehearse against three clusters', () => {
  let rehearsal: Rehearsal;

  it('predicts the batches, the lowest availability per workload and the refused eviction, and writes nothing', async () => {
    const before = identities();
    const r = await rehearse(['-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    rehearsal = JSON.parse(r.stdout) as Rehearsal;
    const [web1, api1, web2, worker1, worker2, cache1] = hosts;

    expect(rehearsal.batches.map((b) => [b.cluster, b.index, b.targets, b.outcome])).toEqual([
      ['sandbox-a', 1, [podTarget(web1!), podTarget(api1!)], 'verified'],
      ['sandbox-a', 2, [podTarget(web2!)], 'verified'],
      ['sandbox-b', 1, [podTarget(worker1!)], 'verified'],
      ['sandbox-b', 2, [podTarget(worker2!)], 'verified'],
      ['sandbox-c', 1, [podTarget(cache1!)], 'verified'],
    ]);
    // the readiness comes from the pods' timestamps (whole seconds, as the API writes them)
    expect(
      rehearsal.workloads.map((w) => [w.workload, w.desired, w.minAvailable, w.readiness.source, w.readiness.ms]),
    ).toEqual([
      ['sandbox-a/shop/Deployment/api', 2, 1, 'pods', 4000],
      ['sandbox-a/shop/Deployment/web', 3, 2, 'pods', 2000],
      ['sandbox-b/shop/Deployment/worker', 4, 3, 'pods', 1000],
      ['sandbox-c/shop/Deployment/cache', 2, 1, 'pods', 3000],
    ]);
    // the budget lets one of the first batch's two pods go at a time: the other is refused, once
    expect(rehearsal.refusals).toHaveLength(1);
    expect(rehearsal.refusals[0]).toMatchObject({ cluster: 'sandbox-a', batch: 1 });
    expect([podTarget(web1!), podTarget(api1!)]).toContain(rehearsal.refusals[0]!.target);
    expect(rehearsal.refusals[0]!.message).toMatch(/disruption budget/i);
    expect(rehearsal.pauses).toEqual([]);
    expect(rehearsal.gates.filter((g) => g.decision === 'opened')).toHaveLength(5);
    // the lower bound: a's batches 4 s + 2 s, b's 1 s + 1 s, c's 3 s, side by side
    expect(rehearsal.lowerBound.overallMs).toBe(6000);
    expect(rehearsal.predicted.overallMs).toBeGreaterThanOrEqual(rehearsal.lowerBound.overallMs);
    expect(rehearsal.limits.join(' ')).toMatch(/image pull/);

    expect(identities()).toEqual(before);
    expect(fs.existsSync(path.join(workspace, '.kdeck', 'sandbox'))).toBe(false);
    expect(fs.existsSync(path.join(workspace, '.kdeck', 'runs'))).toBe(false);
  }, 120_000);

  it('says it in words, and is allowed under --read-only, where it never offers the real run', async () => {
    const r = await rehearse(['--time-scale', '0.5'], ['--read-only']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/at 2\.0× speed/);
    expect(r.stdout).toMatch(/predicted wall time \d+\.\d s; lower bound 6\.0 s/);
    expect(r.stdout).toMatch(
      /sandbox-a\/shop\/Deployment\/web: 2 of 3 at \+\d+\.\d s \(3 before\); readiness 2\.0 s measured on 3 pods/,
    );
    expect(r.stdout).toMatch(
      /Evictions refused \(PodDisruptionBudget\):\n {2}\+\d+\.\d s sandbox-a batch 1: shop\/Pod\/(web|api)-/,
    );
    expect(r.stdout).toContain('What a rehearsal cannot know:');
    expect(r.stdout).toMatch(/Rehearsal only: nothing was changed\.\n$/);
  }, 120_000);

  it('then runs the same plan for real, batch for batch as predicted, and audits each batch beside its forecast', async () => {
    const r = await rehearse(['--yes', '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; entry?: AuditEntry; rehearsal?: Rehearsal });
    const predicted = lines[0]!.rehearsal!;
    expect(predicted.batches.map((b) => [b.cluster, b.index, b.targets])).toEqual(
      rehearsal.batches.map((b) => [b.cluster, b.index, b.targets]),
    );
    const audit = lines.flatMap((l) => (l.entry ? [l.entry] : []));
    // the real batches: each cluster's evictions, cut at its batch verifications
    const real: [string, number, string[]][] = [];
    const open = new Map<string, string[]>();
    for (const e of audit) {
      if (!e.cluster) continue;
      if (e.action === 'evict' && e.outcome === 'evicted')
        open.set(e.cluster, [...(open.get(e.cluster) ?? []), e.target!]);
      if (e.action === 'batch' && e.outcome === 'verified') {
        real.push([e.cluster, Number(e.target!.split(' ')[1]), open.get(e.cluster) ?? []]);
        open.delete(e.cluster);
        expect(e.detail).toMatch(/after approval; the rehearsal predicted \d+\.\d s$/);
      }
    }
    const sorted = (b: [string, number, string[]][]) =>
      b.map(([c, i, t]) => [c, i, [...t].sort()]).sort((x, y) => String(x).localeCompare(String(y)));
    expect(sorted(real)).toEqual(sorted(predicted.batches.map((b) => [b.cluster, b.index, b.targets])));
    expect(audit.filter((e) => e.action === 'evict' && e.outcome === 'refused')).toHaveLength(1);
    expect(audit.at(-1)).toMatchObject({ action: 'run', outcome: 'finished' });
  }, 120_000);
});
