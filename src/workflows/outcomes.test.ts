/**
 * The executor reports what really happened to each resource: a resource interrupted while its
 * health was still Progressing is stopped (not done), one another stack also applied is kept and
 * only forgotten (not deleted), and one judged Degraded makes the stack unhealthy.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HealthFollower } from '../health/watched-health.js';
import type { Resource, Spec } from '../model/resource.js';
import type { Stack } from '../konfig/workspace.js';
import { LocalStateBackend } from '../state/local.js';
import { executeChanges, type EngineEvent } from './execute.js';
import { planChanges } from './plan.js';
import { FakeClusters } from './testing.js';

const stackNamed = (name: string): Stack => ({
  name,
  dir: `/x/${name}`,
  path: `appops/shop/${name}`,
  project: { name: 'shop', dir: '/x' },
  cluster: 'a',
});
const crd: Resource = {
  id: 'apiextensions.k8s.io/v1:CustomResourceDefinition:widgets.example.com',
  type: 'Kubernetes',
  attributes: {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
  },
};
const web: Resource = {
  id: 'apps/v1:Deployment:shop:web',
  type: 'Kubernetes',
  attributes: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' } },
};
const hpa: Resource = {
  id: 'autoscaling/v2:HorizontalPodAutoscaler:shop:web',
  type: 'Kubernetes',
  dependsOn: [web.id],
  attributes: {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'shop' },
  },
};

function setup() {
  const backend = new LocalStateBackend(fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-outcomes-')));
  const clusters = new FakeClusters(['a']);
  const run = async (
    stack: Stack,
    spec: Spec,
    options: { destroy?: boolean; follow?: HealthFollower; controller?: AbortController } = {},
  ) => {
    const events: EngineEvent[] = [];
    const changeSet = await planChanges({ stack, spec, clusters, backend, destroy: options.destroy });
    const result = await executeChanges(
      {
        stack,
        changeSet,
        clusters,
        backend,
        operation: options.destroy ? 'destroy' : 'apply',
        operator: 'sre@laptop',
        concurrency: 4,
        timeoutMs: 1000,
        followHealth: options.follow,
        signal: (options.controller ?? new AbortController()).signal,
      },
      (e) => events.push(e),
    );
    return { result, events };
  };
  return { backend, clusters, run };
}

const finished = (events: EngineEvent[]) =>
  events.flatMap((e) => (e.type === 'finished' ? [[e.id, e.outcome, e.message ?? ''] as const] : []));

describe('truthful outcomes', () => {
  it('keeps an object another stack applied: forgotten, not deleted, and counted apart', async () => {
    const { run, clusters, backend } = setup();
    await run(stackNamed('prod'), { resources: [crd] });
    await run(stackNamed('dev'), { resources: [crd] });
    const { result, events } = await run(stackNamed('dev'), { resources: [crd] }, { destroy: true });
    expect(finished(events)).toEqual([
      [crd.id, 'forgotten', 'kept in the cluster: also applied by shop/prod; only forgotten by this stack'],
    ]);
    expect(result).toMatchObject({
      succeeded: [],
      forgotten: [{ cluster: 'a', id: crd.id }],
      counts: { deleted: 0 },
    });
    expect(clusters.client('a').calls.filter((c) => c.startsWith('delete'))).toEqual([]);
    expect((await backend.read({ project: 'shop', stack: 'dev', cluster: 'a' }))!.resources).toEqual([]);
  });

  it('reports a resource interrupted while Progressing as stopped, not done', async () => {
    const { run } = setup();
    const controller = new AbortController();
    // a follower that reports Progressing, then (like the real one) settles Progressing on abort
    const follow: HealthFollower = (_cluster, _object, { signal, onHealth }) =>
      new Promise((resolve) => {
        const h = { state: 'Progressing' as const, reason: 'CrashLoopBackOff', message: 'pod web-1: container main' };
        onHealth(h);
        signal.addEventListener('abort', () => resolve(h), { once: true });
        controller.abort();
      });
    const { result, events } = await run(stackNamed('dev'), { resources: [web, hpa] }, { follow, controller });
    expect(finished(events)).toEqual([
      [web.id, 'stopped', 'stopped while progressing: applied and recorded, its health not yet known'],
    ]);
    expect(result).toMatchObject({
      interrupted: true,
      succeeded: [],
      stopped: [{ cluster: 'a', id: web.id }],
      notStarted: [{ cluster: 'a', id: hpa.id }],
    });
  });

  it('fails a resource judged Degraded, skips its dependents, and says the stack is unhealthy', async () => {
    const { run } = setup();
    const follow: HealthFollower = async () => ({
      state: 'Degraded',
      reason: 'CrashLoopBackOff',
      message: 'pod web-1: container main CrashLoopBackOff',
    });
    const { result, events } = await run(stackNamed('dev'), { resources: [web, hpa] }, { follow });
    expect(finished(events)).toEqual([
      [web.id, 'failed', 'CrashLoopBackOff: pod web-1: container main CrashLoopBackOff'],
    ]);
    expect(result).toMatchObject({
      failed: [{ cluster: 'a', id: web.id }],
      skipped: [{ cluster: 'a', id: hpa.id }],
      unhealthy: [{ cluster: 'a', id: web.id }],
    });
  });
});
