/**
 * The executor at the cluster's pace, on the scripted doubles: the concurrency limit bounds the
 * API calls in flight, not the resources waiting to become healthy, and a dependent still waits
 * for its dependencies to be healthy.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Resource } from '../model/resource.js';
import { LocalStateBackend } from '../state/local.js';
import { executeChanges, type EngineEvent } from './execute.js';
import { planChanges } from './plan.js';
import { FakeClusters, ScriptedHealth, testStack } from './testing.js';

const stack = testStack('appops/shop/dev');
const ns: Resource = {
  id: 'v1:Namespace:shop',
  type: 'Kubernetes',
  attributes: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
};
const inShop = (apiVersion: string, kind: string, name: string, dependsOn: string[]): Resource => ({
  id: `${apiVersion}:${kind}:shop:${name}`,
  type: 'Kubernetes',
  dependsOn,
  attributes: { apiVersion, kind, metadata: { name, namespace: 'shop' } },
});
/** Per app a ConfigMap and a Service, and a Deployment that depends on both (and all on the namespace). */
function apps(n: number): Resource[] {
  return Array.from({ length: n }, (_, i) => {
    const cm = inShop('v1', 'ConfigMap', `app-${i}`, [ns.id]);
    const svc = inShop('v1', 'Service', `app-${i}`, [ns.id]);
    return [cm, svc, inShop('apps/v1', 'Deployment', `app-${i}`, [ns.id, cm.id, svc.id])];
  }).flat();
}

/** Lets the event loop turn until `check` holds (bounded, so a broken executor fails instead of hanging). */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

async function start(resources: Resource[], concurrency: number) {
  const backend = new LocalStateBackend(fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-pace-')));
  const clusters = new FakeClusters(['a']);
  const cluster = clusters.client('a');
  // every call answers a turn later, so calls that are allowed to overlap do
  cluster.latency = () => new Promise((r) => setImmediate(r));
  const health = new ScriptedHealth();
  const changeSet = await planChanges({ stack, spec: { resources }, clusters, backend, concurrency });
  const events: EngineEvent[] = [];
  const done = executeChanges(
    {
      stack,
      changeSet,
      clusters,
      backend,
      operation: 'apply',
      operator: 't@h',
      concurrency,
      timeoutMs: 60_000,
      followHealth: health.follow,
      signal: new AbortController().signal,
    },
    (e) => events.push(e),
  );
  return { cluster, health, events, done };
}

describe('the executor at the cluster pace', () => {
  it('lets more resources wait for their health than it has slots, with at most `concurrency` calls in flight', async () => {
    const resources = [ns, ...apps(6)];
    const { cluster, health, events, done } = await start(resources, 2);
    await until(() => health.waiting.has('Namespace/shop'), 'the namespace waits for its health');
    health.healthy('Namespace/shop');
    // all 12 ConfigMaps and Services are applied and wait for their health at once, 6 times the slots
    await until(() => health.waiting.size === 12, 'every ConfigMap and Service waits for its health');
    expect(events.filter((e) => e.type === 'started' && e.id.includes(':Deployment:'))).toEqual([]);
    for (const name of [...health.waiting.keys()]) health.healthy(name);
    await until(() => health.waiting.size === 6, 'every Deployment waits for its health');
    for (const name of [...health.waiting.keys()]) health.healthy(name);
    const result = await done;
    expect(result.succeeded).toHaveLength(resources.length);
    expect(result.counts.created).toBe(resources.length);
    expect(health.maxWaiting).toBe(12);
    // the plan's reads and the executor's calls, all under the limit, and the limit used
    expect(cluster.maxInFlight).toBe(2);
  });

  it('reads the live objects of a plan a kind and namespace at a time, and finds each of them', async () => {
    const resources = [ns, ...apps(6)];
    const backend = new LocalStateBackend(fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-pace-')));
    const clusters = new FakeClusters(['a']);
    const cluster = clusters.client('a');
    for (const r of resources) await cluster.apply(r.attributes);
    cluster.edit({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'app-3' }, (o) => {
      o.data = { changed: 'yes' };
    });
    cluster.calls.length = 0;
    cluster.gets = 0;
    const plan = await planChanges({ stack, spec: { resources }, clusters, backend });
    // one list per kind in the namespace, a read for the namespace alone
    expect(cluster.calls.filter((c) => c.startsWith('list '))).toEqual([
      'list ConfigMap in shop',
      'list Service in shop',
      'list Deployment in shop',
    ]);
    expect(cluster.gets).toBe(1);
    // each found (all imported, as the state is empty), the edited one with its difference
    expect(plan.changes.every((c) => c.live !== undefined && c.action === 'Import')).toBe(true);
    expect(plan.changes.find((c) => c.id === 'v1:ConfigMap:shop:app-3')!.decision.fields.length).toBeGreaterThan(0);
    expect(plan.changes.find((c) => c.id === 'v1:ConfigMap:shop:app-2')!.decision.fields).toEqual([]);
  });

  it('compares what only dependsOn ties together at once, and a resource after the one its reference reads', async () => {
    const backend = new LocalStateBackend(fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-pace-')));
    const clusters = new FakeClusters(['a']);
    const cluster = clusters.client('a');
    const svc = inShop('v1', 'Service', 'db', [ns.id]);
    const reader: Resource = {
      ...inShop('v1', 'ConfigMap', 'reader', [ns.id]),
      attributes: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'reader', namespace: 'shop' },
        data: { host: `\${ref:${svc.id}#/spec/clusterIP}` },
      },
    };
    const resources = [ns, inShop('v1', 'ConfigMap', 'a', [ns.id]), svc, reader];
    for (const r of [ns, svc, reader]) await cluster.apply(r.attributes);
    cluster.edit({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'reader' }, (o) => {
      o.data = { host: '10.96.0.1' };
    });
    cluster.edit({ apiVersion: 'v1', kind: 'Service', namespace: 'shop', name: 'db' }, (o) => {
      o.spec = { clusterIP: '10.96.0.7' };
    });
    cluster.latency = () => new Promise((r) => setImmediate(r));
    cluster.maxInFlight = 0;
    const plan = await planChanges({ stack, spec: { resources }, clusters, backend });
    // the namespace, the ConfigMap and the Service are read together: dependsOn makes no comparison wait
    expect(cluster.maxInFlight).toBe(3);
    // the reference resolved against the Service as the plan found it, and the preview shows it
    const change = plan.changes.find((c) => c.id === reader.id)!;
    expect(change.unresolved).toEqual([]);
    expect(change.decision.fields).toEqual([{ kind: 'change', path: 'data.host', from: '10.96.0.1', to: '10.96.0.7' }]);
  });

  it('stops asking a cluster that fails once a comparison failed: the calls still waiting for a slot are not made', async () => {
    // twelve independent objects, each read alone, against a cluster that answers nothing
    const resources = Array.from({ length: 12 }, (_, i): Resource => ({
      id: `v1:ConfigMap:ns-${i}:cm`,
      type: 'Kubernetes',
      attributes: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: `ns-${i}` } },
    }));
    const backend = new LocalStateBackend(fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-pace-')));
    const clusters = new FakeClusters(['a']);
    let asked = 0;
    clusters.client('a').latency = () => {
      asked++;
      return new Promise((_, reject) => setImmediate(() => reject(new Error('connect ECONNREFUSED'))));
    };
    await expect(planChanges({ stack, spec: { resources }, clusters, backend, concurrency: 2 })).rejects.toThrow(
      'ECONNREFUSED',
    );
    // the two in flight, and at most the one given the first one's slot as it failed (not all twelve)
    expect(asked).toBeLessThanOrEqual(3);
  });

  it('gives a free slot to what others wait on before a dependent that is ready', async () => {
    const resources = [ns, ...apps(3)];
    const backend = new LocalStateBackend(fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-pace-')));
    const clusters = new FakeClusters(['a']);
    const cluster = clusters.client('a');
    const health = new ScriptedHealth();
    const changeSet = await planChanges({ stack, spec: { resources }, clusters, backend, concurrency: 1 });
    // each call waits until the test answers it, so the slot's queue is seen as it stands
    const calls: (() => void)[] = [];
    cluster.latency = () => new Promise((r) => calls.push(r));
    const answer = async () => {
      await until(() => calls.length > 0, 'a call in flight');
      calls.shift()!();
    };
    const events: EngineEvent[] = [];
    const done = executeChanges(
      {
        stack,
        changeSet,
        clusters,
        backend,
        operation: 'apply',
        operator: 't@h',
        concurrency: 1,
        timeoutMs: 60_000,
        followHealth: health.follow,
        signal: new AbortController().signal,
      },
      (e) => events.push(e),
    );
    const name = (id: string) => id.split(':').slice(-1)[0];
    const started = () => events.filter((e) => e.type === 'started').map((e) => `${e.id.split(':')[1]}/${name(e.id)}`);
    await answer();
    await until(() => health.waiting.has('Namespace/shop'), 'the namespace waits for its health');
    health.healthy('Namespace/shop');
    // the ConfigMaps and Services, which the Deployments wait on, take the one slot in turn
    for (let n = 3; n <= 5; n++) {
      await answer();
      await until(() => started().length === n, `call ${n} starts`);
    }
    for (const cm of ['ConfigMap/app-0', 'ConfigMap/app-1', 'ConfigMap/app-2']) health.healthy(cm);
    await answer();
    await until(() => health.waiting.has('Service/app-0'), "app-0's Service waits for its health");
    health.healthy('Service/app-0');
    await until(
      () => events.some((e) => e.type === 'finished' && e.id === 'v1:Service:shop:app-0'),
      "app-0's Service is done",
    );
    // app-0's Deployment asks for the slot in the turn its last dependency finished
    await new Promise((r) => setImmediate(r));
    // it is ready now, but the Services the other Deployments wait on go first
    await answer();
    await until(() => started().length === 7, 'the next call starts');
    expect(started()).toEqual([
      'Namespace/shop',
      'ConfigMap/app-0',
      'ConfigMap/app-1',
      'ConfigMap/app-2',
      'Service/app-0',
      'Service/app-1',
      'Service/app-2',
    ]);
    while (events.filter((e) => e.type === 'finished').length < resources.length) {
      for (const n of [...health.waiting.keys()]) health.healthy(n);
      if (calls.length) calls.shift()!();
      await new Promise((r) => setImmediate(r));
    }
    expect((await done).failed).toEqual([]);
  });

  it('starts a dependent only once every dependency is healthy, and at once when it is', async () => {
    const resources = [ns, ...apps(3)];
    const { health, events, done } = await start(resources, 4);
    await until(() => health.waiting.has('Namespace/shop'), 'the namespace waits for its health');
    // while the namespace is not healthy, nothing that depends on it starts, however long it takes
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    expect(events.filter((e) => e.type === 'started').map((e) => e.id)).toEqual([ns.id]);
    health.healthy('Namespace/shop');
    await until(() => health.waiting.size === 6, 'the ConfigMaps and Services wait for their health');
    // app-1's Deployment waits for both of its own dependencies, not for the other apps'
    health.healthy('ConfigMap/app-1');
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    expect(health.waiting.has('Deployment/app-1')).toBe(false);
    health.healthy('Service/app-1');
    await until(
      () => health.waiting.has('Deployment/app-1'),
      'app-1 starts once its ConfigMap and Service are healthy',
    );
    expect([...health.waiting.keys()].filter((n) => n.startsWith('Deployment/'))).toEqual(['Deployment/app-1']);
    while (health.waiting.size) {
      for (const name of [...health.waiting.keys()]) health.healthy(name);
      await new Promise((r) => setImmediate(r));
      await until(
        () => health.waiting.size > 0 || events.filter((e) => e.type === 'finished').length === resources.length,
        'the next wave',
      );
    }
    expect((await done).failed).toEqual([]);
    // every dependency finished (healthy) before its dependent started
    const at = (type: EngineEvent['type'], id: string) => events.findIndex((e) => e.type === type && e.id === id);
    for (const r of resources)
      for (const d of r.dependsOn ?? [])
        expect(at('finished', d), `${d} before ${r.id}`).toBeLessThan(at('started', r.id));
  });
});
