/**
 * The controllers whose own writes do not queue them again (`settlesItsOwnWrites`): what they
 * used to come back for through those writes' events, they now do in the same reconcile, or they
 * ask to be woken for it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/object.js';
import { ManualClock } from '../clock.js';
import { SandboxCluster } from '../cluster.js';
import { templateHash } from './workload-util.js';
import type { Deployment, PodTemplate } from './kinds.js';
import { commitCreate, commitUpdate } from '../api/write.js';

let cluster: SandboxCluster | undefined;
afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
});

const template: PodTemplate = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'main', image: 'nginx:1' }] },
};

const workload = (
  kind: string,
  name: string,
  replicas: number,
  tpl: PodTemplate,
  more: Record<string, unknown> = {},
): KubeObject => ({
  apiVersion: 'apps/v1',
  kind,
  metadata: { name, namespace: 'default' },
  spec: { replicas, selector: { matchLabels: tpl.metadata?.labels ?? {} }, template: tpl, ...more },
});

const start = (objects: KubeObject[]) =>
  SandboxCluster.start({
    name: 'a',
    nodes: 2,
    seed: 1,
    clock: new ManualClock(Date.parse('2026-01-01T00:00:00Z')),
    objects,
  });

describe('controllers that settle their own writes', () => {
  it('counts a collision when its ReplicaSet name is taken by another template, and rolls out under the next hash', async () => {
    // paused, it makes no ReplicaSet yet: its template, defaulted, names the one it will make
    cluster = await start([workload('Deployment', 'web', 2, template, { paused: true })]);
    const deployments = cluster.api.resources.forResource('apps', 'deployments')!;
    const replicasets = cluster.api.resources.forResource('apps', 'replicasets')!;
    const paused = cluster.store.get('apps/deployments', 'default', 'web') as Deployment;
    const taken = `web-${templateHash(paused.spec.template)}`;
    const other: PodTemplate = {
      metadata: { labels: { app: 'other' } },
      spec: { containers: [{ name: 'main', image: 'busybox:1' }] },
    };
    commitCreate(cluster.api, replicasets, workload('ReplicaSet', taken, 0, other), { manager: 'test' });
    commitUpdate(
      cluster.api,
      deployments,
      paused,
      { ...paused, spec: { ...paused.spec, paused: false } },
      { manager: 'test' },
    );
    for (let i = 0; i < 4; i++) await cluster.advance(1_000);
    const d = cluster.store.get('apps/deployments', 'default', 'web')!;
    expect(d.status).toMatchObject({ collisionCount: 1, availableReplicas: 2 });
    const made = cluster.store.get('apps/replicasets', 'default', `web-${templateHash(paused.spec.template, 1)}`);
    expect(made?.metadata.ownerReferences?.[0]?.name).toBe('web');
    expect(cluster.store.get('apps/replicasets', 'default', taken)?.metadata.ownerReferences).toBeUndefined();
  });

  it('counts the pods a scale-down deletes as terminating at once, whatever their kubelet does', async () => {
    cluster = await start([workload('ReplicaSet', 'web', 3, template)]);
    await cluster.advance(2_000);
    // kubelets that no longer answer: nothing but the ReplicaSet's own deletes changes the pods
    cluster.faults.set({ notReadyNodes: cluster.store.list('/nodes').map((n) => n.metadata.name ?? '') });
    const replicasets = cluster.api.resources.forResource('apps', 'replicasets')!;
    const rs = cluster.store.get('apps/replicasets', 'default', 'web')!;
    commitUpdate(
      cluster.api,
      replicasets,
      rs,
      { ...rs, spec: { ...(rs.spec as object), replicas: 1 } },
      { manager: 'test' },
    );
    await cluster.advance(0);
    expect(cluster.store.get('apps/replicasets', 'default', 'web')?.status).toMatchObject({
      replicas: 1,
      terminatingReplicas: 2,
    });
  });

  it('makes the pods of a ReplicaSet beyond one burst of creations', async () => {
    cluster = await start([workload('ReplicaSet', 'many', 520, template)]);
    await cluster.advance(100);
    expect(cluster.store.list('/pods', 'default')).toHaveLength(520);
  });
});
