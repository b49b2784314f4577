import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Resource, Spec } from '../model/resource.js';
import type { State } from '../state/model.js';
import type { Stack } from '../konfig/workspace.js';
import { LocalStateBackend } from '../state/local.js';
import { executeChanges, type EngineEvent } from './execute.js';
import { summarize } from '../diff/change-set.js';
import { changeJson } from '../diff/change-text.js';
import { planChanges } from './plan.js';
import { FakeClusters, testStack } from './testing.js';

const stack = testStack('appops/shop/prod', 'a');
const ns: Resource = {
  id: 'v1:Namespace:shop',
  type: 'Kubernetes',
  attributes: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
};
const svc: Resource = {
  id: 'v1:Service:shop:db',
  type: 'Kubernetes',
  dependsOn: [ns.id],
  attributes: {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'db', namespace: 'shop' },
    spec: { ports: [{ port: 5432 }] },
  },
};
const app = (image: string, usesDb = true): Resource => ({
  id: 'apps/v1:Deployment:shop:app',
  type: 'Kubernetes',
  dependsOn: [ns.id],
  attributes: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'app', namespace: 'shop' },
    spec: {
      template: {
        spec: {
          containers: [
            {
              name: 'main',
              image,
              env: [{ name: 'DB', value: usesDb ? `\${ref:${svc.id}#/spec/clusterIP}` : 'localhost' }],
            },
          ],
        },
      },
    },
  },
});

function setup() {
  const backend = new LocalStateBackend(fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-engine-')));
  const clusters = new FakeClusters(['a', 'b']);
  const plan = (spec: Spec, destroy = false, on = stack) =>
    planChanges({ stack: on, spec, clusters, backend, destroy });
  const execute = async (spec: Spec, options: { destroy?: boolean; failFast?: boolean; on?: Stack } = {}) => {
    const events: EngineEvent[] = [];
    const changeSet = await plan(spec, options.destroy, options.on);
    const result = await executeChanges(
      {
        stack: options.on ?? stack,
        changeSet,
        clusters,
        backend,
        operation: options.destroy ? 'destroy' : 'apply',
        operator: 'sre@laptop',
        concurrency: 4,
        failFast: options.failFast,
        timeoutMs: 1000,
        signal: new AbortController().signal,
      },
      (e) => events.push(e),
    );
    return { result, events };
  };
  return { backend, clusters, plan, execute };
}

const key = { project: 'shop', stack: 'prod', cluster: 'a' };

describe('preview and apply', () => {
  it('creates everything, resolving the reference from the applied Service, then shows nothing to do', async () => {
    const { backend, clusters, plan, execute } = setup();
    const spec = { resources: [app('web:1'), ns, svc] };
    expect(summarize((await plan(spec)).changes)).toMatchObject({ Create: 3 });
    const { result } = await execute(spec);
    expect(result).toMatchObject({ failed: [], skipped: [], counts: { created: 3, updated: 0, deleted: 0 } });
    const deployment = await clusters
      .client('a')
      .get({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'app', namespace: 'shop' });
    const service = await clusters
      .client('a')
      .get({ apiVersion: 'v1', kind: 'Service', name: 'db', namespace: 'shop' });
    expect(JSON.stringify(deployment)).toContain(`"value":"${(service!.spec as { clusterIP: string }).clusterIP}"`);
    const state = (await backend.read(key))!;
    expect(state.resources.map((r) => r.id)).toEqual([app('').id, ns.id, svc.id]);
    expect(state.resources[0].live?.uid).toBe('uid-app');
    expect(state.history.map((h) => [h.kind, h.result, h.created])).toEqual([['apply', 'succeeded', 3]]);
    expect(summarize((await plan(spec)).changes)).toMatchObject({ UnChanged: 3, Create: 0, Update: 0 });
  });

  it('updates only what changed and deletes what left the Spec, dependents first', async () => {
    const { plan, execute, clusters } = setup();
    await execute({ resources: [app('web:1'), ns, svc] });
    const changes = (await plan({ resources: [app('web:2', false), ns] })).changes;
    expect(changes.map((c) => [c.id, c.action])).toEqual([
      [ns.id, 'UnChanged'],
      [app('').id, 'Update'],
      [svc.id, 'Delete'],
    ]);
    expect(changes[1].decision.fields.map((f) => f.path)).toEqual([
      'spec.template.spec.containers[name=main].image',
      'spec.template.spec.containers[name=main].env[name=DB].value',
    ]);
    clusters.client('a').calls.length = 0;
    expect((await execute({ resources: [app('web:2', false), ns] })).result.counts).toEqual({
      created: 0,
      updated: 1,
      deleted: 1,
    });
  });

  it('reports drift made behind its back', async () => {
    const { plan, execute, clusters } = setup();
    await execute({ resources: [ns, svc] });
    clusters
      .client('a')
      .edit(
        { apiVersion: 'v1', kind: 'Service', name: 'db', namespace: 'shop' },
        (o) => ((o.spec as { ports: unknown[] }).ports = [{ port: 6543 }]),
      );
    const change = (await plan({ resources: [ns, svc] })).changes.find((c) => c.id === svc.id)!;
    expect(change).toMatchObject({ action: 'Update', decision: { drift: true } });
  });

  it('reports a change made between the preview and the apply, and applies the plan over it', async () => {
    const { plan, execute, clusters, backend } = setup();
    await execute({ resources: [ns, svc] });
    const cluster = clusters.client('a');
    const wider = { ...svc, attributes: { ...svc.attributes, spec: { ports: [{ port: 5433 }] } } };
    const apply = async (changeSet: Awaited<ReturnType<typeof plan>>) => {
      const events: EngineEvent[] = [];
      const signal = new AbortController().signal;
      const input = { stack, changeSet, clusters, backend, operation: 'apply' as const, operator: 'sre' };
      await executeChanges({ ...input, concurrency: 4, timeoutMs: 1000, signal }, (e) => events.push(e));
      return events.filter((e) => e.type === 'changed-since-preview');
    };

    // as previewed: nothing to report, and nothing read again before applying
    const previewed = await plan({ resources: [ns, wider] });
    const gets = cluster.gets;
    expect(await apply(previewed)).toEqual([]);
    expect(cluster.gets).toBe(gets);

    // changed after the preview: the difference is reported, then the plan wins
    const changeSet = await plan({ resources: [ns, svc] });
    const ref = { apiVersion: 'v1', kind: 'Service', name: 'db', namespace: 'shop' };
    cluster.edit(ref, (o) => ((o.spec as { ports: unknown[] }).ports = [{ port: 6543 }]));
    const reported = await apply(changeSet);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ id: svc.id, cluster: 'a' });
    expect((reported[0] as { message: string }).message).toMatch(/changed since the preview: .*6543/s);
    expect((await cluster.get(ref))?.spec).toMatchObject({ ports: [{ port: 5432 }] });

    // created by another hand after a preview that found nothing
    const fresh = setup();
    const createSet = await fresh.plan({ resources: [ns, svc] });
    fresh.clusters.client('a').create(svc.attributes, 'kubectl-create');
    const events: EngineEvent[] = [];
    await executeChanges(
      {
        stack,
        changeSet: createSet,
        clusters: fresh.clusters,
        backend: fresh.backend,
        operation: 'apply',
        operator: 'sre',
        concurrency: 4,
        timeoutMs: 1000,
        signal: new AbortController().signal,
      },
      (e) => events.push(e),
    );
    expect(events.filter((e) => e.type === 'changed-since-preview')).toEqual([
      {
        type: 'changed-since-preview',
        id: svc.id,
        cluster: 'a',
        message:
          'the live object changed since the preview: it was created meanwhile (fields managed by kubectl-create)',
      },
    ]);
  });

  it('reports a resource whose state cannot be written as failed, and keeps the state it could write', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-engine-'));
    /** A disk that fills up once the Service is to be written. */
    class FullDisk extends LocalStateBackend {
      override async write(state: State, expectedSerial: number): Promise<State> {
        if (state.resources.some((r) => r.id === svc.id)) throw new Error('no space left on device');
        return super.write(state, expectedSerial);
      }
    }
    const backend = new FullDisk(dir);
    const clusters = new FakeClusters(['a']);
    const changeSet = await planChanges({ stack, spec: { resources: [ns, svc] }, clusters, backend });
    const events: EngineEvent[] = [];
    const result = await executeChanges(
      {
        stack,
        changeSet,
        clusters,
        backend,
        operation: 'apply',
        operator: 'sre',
        concurrency: 4,
        timeoutMs: 1000,
        signal: new AbortController().signal,
      },
      (e) => events.push(e),
    );
    // the Service (and whatever shared its write) failed, each saying why; what succeeded is on disk
    expect(result.failed).toContainEqual({ cluster: 'a', id: svc.id });
    const failures = events.filter((e) => e.type === 'finished' && e.outcome === 'failed');
    expect(failures.map((e) => e.id).sort()).toEqual(result.failed.map((r) => r.id).sort());
    for (const e of failures)
      expect(e).toMatchObject({ message: 'applied, but the state could not be written: no space left on device' });
    const state = await backend.read(key);
    expect(state?.resources.map((r) => r.id) ?? []).toEqual(result.succeeded.map((r) => r.id));
  });

  it('skips the dependents of a failed resource, applies the rest, and records exactly what reached the cluster', async () => {
    const { execute, backend, clusters } = setup();
    clusters.client('a').failing.set('Service/db', 'admission webhook denied the request');
    const { result, events } = await execute({ resources: [app('web:1'), ns, svc] });
    expect(result).toMatchObject({
      succeeded: [{ cluster: 'a', id: ns.id }],
      failed: [{ cluster: 'a', id: svc.id }],
      skipped: [{ cluster: 'a', id: app('').id }],
    });
    expect(events).toContainEqual({
      type: 'finished',
      id: svc.id,
      cluster: 'a',
      outcome: 'failed',
      message: 'admission webhook denied the request',
    });
    const state = (await backend.read(key))!;
    expect(state.resources.map((r) => r.id)).toEqual([ns.id]);
    expect(state.history[state.history.length - 1].result).toBe('failed');
  });

  it('destroys what the state holds, in reverse order, leaving an empty state', async () => {
    const { execute, backend, clusters } = setup();
    await execute({ resources: [app('web:1'), ns, svc] });
    clusters.client('a').calls.length = 0;
    const { result } = await execute({ resources: [] }, { destroy: true });
    expect(result.counts.deleted).toBe(3);
    const calls = clusters.client('a').calls;
    expect(calls.indexOf('delete Namespace/shop')).toBe(calls.length - 1);
    expect((await backend.read(key))!.resources).toEqual([]);
  });

  it('keeps a state per cluster when a resource overrides the stack cluster', async () => {
    const { execute, backend } = setup();
    await execute({ resources: [ns, { ...svc, dependsOn: undefined, extensions: { cluster: 'b' } }] });
    expect((await backend.list()).map((k) => k.cluster)).toEqual(['a', 'b']);
    expect((await backend.read({ ...key, cluster: 'b' }))!.resources.map((r) => r.id)).toEqual([svc.id]);
  });

  it('moves a stack to another cluster: creates on the new one first, then deletes from the old one', async () => {
    const { execute, plan, backend, clusters } = setup();
    const spec = { resources: [app('web:1'), ns, svc] };
    await execute(spec);
    const onB: Stack = { ...stack, cluster: 'b' };
    const moving = await plan(spec, false, onB);
    expect(moving.changes.map((c) => `${c.action} ${c.cluster} ${c.id}`)).toEqual([
      `Create b ${ns.id}`,
      `Create b ${svc.id}`,
      `Create b ${app('').id}`,
      `Delete a ${app('').id}`,
      `Delete a ${svc.id}`,
      `Delete a ${ns.id}`,
    ]);
    // the preview's JSON keeps both steps of an id that is on two clusters
    expect(Object.keys(JSON.parse(changeJson(moving)).changeSteps as object)).toHaveLength(6);
    const { result, events } = await execute(spec, { on: onB });
    expect(result.counts).toEqual({ created: 3, updated: 0, deleted: 3 });
    expect(result.succeeded).toHaveLength(6);
    const finished = events.filter((e) => e.type === 'finished').map((e) => e.cluster);
    expect(finished).toEqual(['b', 'b', 'b', 'a', 'a', 'a']);
    expect(await clusters.client('b').get({ apiVersion: 'v1', kind: 'Namespace', name: 'shop' })).toBeDefined();
    expect(clusters.client('a').objects.size).toBe(0);
    expect((await backend.read({ ...key, cluster: 'b' }))!.resources).toHaveLength(3);
    expect((await backend.read(key))!.resources).toEqual([]);
  });

  it('keeps an object another stack also applied when destroying, and only forgets it', async () => {
    const { execute, backend, clusters, plan } = setup();
    await execute({ resources: [ns, svc] });
    const other: Stack = { ...stack, name: 'canary', path: 'appops/shop/canary' };
    const otherPlan = await planChanges({ stack: other, spec: { resources: [ns] }, clusters, backend });
    await executeChanges(
      {
        stack: other,
        changeSet: otherPlan,
        clusters,
        backend,
        operation: 'apply',
        operator: 'sre@laptop',
        concurrency: 4,
        timeoutMs: 1000,
        signal: new AbortController().signal,
      },
      () => {},
    );
    const destroy = (await plan({ resources: [] }, true)).changes;
    expect(destroy.find((c) => c.id === ns.id)).toMatchObject({ action: 'Delete', sharedWith: ['shop/canary'] });
    const { result } = await execute({ resources: [] }, { destroy: true });
    expect(result.counts.deleted).toBe(1);
    expect(await clusters.client('a').get({ apiVersion: 'v1', kind: 'Namespace', name: 'shop' })).toBeDefined();
    expect((await backend.read(key))!.resources).toEqual([]);
    expect((await backend.read({ ...key, stack: 'canary' }))!.resources.map((r) => r.id)).toEqual([ns.id]);
  });
});
