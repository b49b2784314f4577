/**
 * The sandbox's contract, driven through @kubernetes/client-node over HTTPS as kdeck drives a
 * cluster: lists, watches, the four patch types, server-side apply, conflicts, subresources,
 * eviction against budgets, rollouts, deletion, and the Status a malformed request gets. Every
 * test here holds against a real cluster too (see support/kube-target.ts); the sandbox's own
 * faults and clock are in sandbox-faults.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PatchStrategy, setHeaderOptions, Watch, type V1Deployment, type V1Pod } from '@kubernetes/client-node';
import { contractTarget, eventually, failure, raw, statusOf, type Target } from './support/kube-target.js';

let t: Target;
beforeAll(async () => {
  t = await contractTarget();
});
afterAll(async () => {
  await t?.close();
});

const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const strategic = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
const apply = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);

function deployment(
  name: string,
  replicas: number,
  image = 'nginx:1.27',
  extra: Partial<V1Deployment['spec']> = {},
): V1Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image, ports: [{ containerPort: 8080, name: 'http' }] }] },
      },
      ...extra,
    },
  };
}

async function rolledOut(name: string): Promise<V1Deployment> {
  return eventually(`deployment ${name} to roll out`, async () => {
    const d = await t.apps.readNamespacedDeployment({ name, namespace: t.namespace });
    const s = d.status ?? {};
    const want = d.spec?.replicas ?? 1;
    const done =
      (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 1) &&
      (s.updatedReplicas ?? 0) === want &&
      (s.replicas ?? 0) === want &&
      (s.availableReplicas ?? 0) === want;
    return done ? d : undefined;
  });
}

describe('reads', () => {
  it('lists with label and field selectors, sorted, without kind on items', async () => {
    for (const [name, tier] of [
      ['cm-b', 'back'],
      ['cm-a', 'front'],
      ['cm-c', 'front'],
    ]) {
      await t.core.createNamespacedConfigMap({
        namespace: t.namespace,
        body: { metadata: { name, labels: { tier: tier! } }, data: { k: name! } },
      });
    }
    const front = await t.core.listNamespacedConfigMap({ namespace: t.namespace, labelSelector: 'tier=front' });
    expect(front.items.map((c) => c.metadata?.name)).toEqual(['cm-a', 'cm-c']);
    const notBack = await t.core.listNamespacedConfigMap({
      namespace: t.namespace,
      labelSelector: 'tier,tier notin (back)',
    });
    expect(notBack.items.map((c) => c.metadata?.name)).toEqual(['cm-a', 'cm-c']);
    const byName = await t.core.listNamespacedConfigMap({
      namespace: t.namespace,
      fieldSelector: 'metadata.name=cm-b',
    });
    expect(byName.items.map((c) => c.metadata?.name)).toEqual(['cm-b']);
    const rawList = (
      await raw(t.kc, 'GET', `/api/v1/namespaces/${t.namespace}/configmaps?labelSelector=tier%3Dback`)
    ).json();
    expect((rawList.items as Record<string, unknown>[])[0]).not.toHaveProperty('kind');
  });

  it('pages with limit and continue, and rejects a bad selector with 400', async () => {
    const first = await t.core.listNamespacedConfigMap({ namespace: t.namespace, limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.metadata?._continue).toBeTruthy();
    const rest = await t.core.listNamespacedConfigMap({
      namespace: t.namespace,
      limit: 2,
      _continue: first.metadata!._continue!,
    });
    const names = [...first.items, ...rest.items].map((c) => c.metadata?.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['cm-a', 'cm-b', 'cm-c']));
    const bad = statusOf(
      await failure(t.core.listNamespacedConfigMap({ namespace: t.namespace, fieldSelector: 'data.k=x' })),
    );
    expect(bad).toMatchObject({ code: 400, reason: 'BadRequest' });
  });

  it('finds kinds through discovery (KubernetesObjectApi), main resources before their subresources', async () => {
    const res = (await raw(t.kc, 'GET', '/apis/apps/v1')).json();
    const names = (res.resources as { name: string }[]).map((r) => r.name);
    expect(names.indexOf('deployments')).toBeLessThan(names.indexOf('deployments/status'));
    const cm = await t.objects.read({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm-a', namespace: t.namespace },
    });
    expect(cm.metadata?.name).toBe('cm-a');
  });
});

describe('watch', () => {
  it('streams changes from a resourceVersion, in order, with the selector applied', async () => {
    const list = await t.core.listNamespacedConfigMap({ namespace: t.namespace, labelSelector: 'w=1' });
    const seen: string[] = [];
    const watch = new Watch(t.kc);
    const req = await watch.watch(
      `/api/v1/namespaces/${t.namespace}/configmaps`,
      { resourceVersion: list.metadata!.resourceVersion!, labelSelector: 'w=1' },
      (type, obj: { metadata: { name: string } }) => seen.push(`${type} ${obj.metadata.name}`),
      () => undefined,
    );
    try {
      await t.core.createNamespacedConfigMap({
        namespace: t.namespace,
        body: { metadata: { name: 'w-1', labels: { w: '1' } } },
      });
      await t.core.createNamespacedConfigMap({ namespace: t.namespace, body: { metadata: { name: 'w-other' } } });
      await t.core.patchNamespacedConfigMap({ namespace: t.namespace, name: 'w-1', body: { data: { a: 'b' } } }, merge);
      // leaving the selector is a DELETED for this watcher
      await t.core.patchNamespacedConfigMap(
        { namespace: t.namespace, name: 'w-1', body: { metadata: { labels: { w: '2' } } } },
        merge,
      );
      await eventually('three watch events', () => (seen.length >= 3 ? true : undefined));
      expect(seen).toEqual(['ADDED w-1', 'MODIFIED w-1', 'DELETED w-1']);
    } finally {
      req.abort();
    }
  });

  it('replays the events after a past resourceVersion', async () => {
    const start = (await t.core.listNamespacedConfigMap({ namespace: t.namespace })).metadata!.resourceVersion!;
    await t.core.createNamespacedConfigMap({ namespace: t.namespace, body: { metadata: { name: 'replay-1' } } });
    await t.core.deleteNamespacedConfigMap({ namespace: t.namespace, name: 'replay-1' });
    const seen: string[] = [];
    const req = await new Watch(t.kc).watch(
      `/api/v1/namespaces/${t.namespace}/configmaps`,
      { resourceVersion: start, fieldSelector: 'metadata.name=replay-1' },
      (type) => seen.push(type),
      () => undefined,
    );
    try {
      await eventually('the replayed events', () => (seen.length >= 2 ? true : undefined));
      expect(seen).toEqual(['ADDED', 'DELETED']);
    } finally {
      req.abort();
    }
  });
});

describe('writes', () => {
  it('refuses a stale resourceVersion with 409 Conflict, and a taken name with 409 AlreadyExists', async () => {
    const cm = await t.core.readNamespacedConfigMap({ namespace: t.namespace, name: 'cm-a' });
    await t.core.replaceNamespacedConfigMap({
      namespace: t.namespace,
      name: 'cm-a',
      body: { ...cm, data: { k: 'v2' } },
    });
    const stale = statusOf(
      await failure(
        t.core.replaceNamespacedConfigMap({ namespace: t.namespace, name: 'cm-a', body: { ...cm, data: { k: 'v3' } } }),
      ),
    );
    expect(stale).toMatchObject({ code: 409, reason: 'Conflict' });
    expect(stale.message).toContain('the object has been modified');
    const taken = statusOf(
      await failure(t.core.createNamespacedConfigMap({ namespace: t.namespace, body: { metadata: { name: 'cm-a' } } })),
    );
    expect(taken).toMatchObject({ code: 409, reason: 'AlreadyExists', details: { name: 'cm-a', kind: 'configmaps' } });
  });

  it('holds Secrets and Leases to the same preconditions: stale update or delete → 409 Conflict, taken name → 409 AlreadyExists', async () => {
    const ns = t.namespace;
    const secret = await t.core.createNamespacedSecret({
      namespace: ns,
      body: { metadata: { name: 'held' }, data: { k: Buffer.from('v1').toString('base64') } },
    });
    await t.core.replaceNamespacedSecret({
      namespace: ns,
      name: 'held',
      body: { ...secret, data: { k: Buffer.from('v2').toString('base64') } },
    });
    expect(
      statusOf(
        await failure(
          t.core.replaceNamespacedSecret({ namespace: ns, name: 'held', body: { ...secret, data: { k: 'djM=' } } }),
        ),
      ),
    ).toMatchObject({ code: 409, reason: 'Conflict' });
    expect(
      statusOf(await failure(t.core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'held' } } }))),
    ).toMatchObject({ code: 409, reason: 'AlreadyExists' });
    const staleDelete = statusOf(
      await failure(
        t.core.deleteNamespacedSecret({
          namespace: ns,
          name: 'held',
          body: { preconditions: { resourceVersion: secret.metadata?.resourceVersion } },
        }),
      ),
    );
    expect(staleDelete).toMatchObject({ code: 409, reason: 'Conflict' });
    expect(staleDelete.message).toContain('Precondition failed: ResourceVersion in precondition');

    const leases = `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`;
    const spec = {
      holderIdentity: 'a@host:1',
      leaseDurationSeconds: 15,
      acquireTime: '2026-01-01T00:00:00.000000Z',
      renewTime: '2026-01-01T00:00:00.000000Z',
    };
    const made = await raw(
      t.kc,
      'POST',
      leases,
      JSON.stringify({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'lock' }, spec }),
      { 'Content-Type': 'application/json' },
    );
    expect(made.status).toBe(201);
    const lease = made.json() as { metadata: { resourceVersion: string } };
    const renew = (rv: string) =>
      raw(
        t.kc,
        'PUT',
        `${leases}/lock`,
        JSON.stringify({
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: 'lock', resourceVersion: rv },
          spec: { ...spec, renewTime: '2026-01-01T00:00:05.000000Z' },
        }),
        { 'Content-Type': 'application/json' },
      );
    expect((await renew(lease.metadata.resourceVersion)).status).toBe(200);
    const lost = await renew(lease.metadata.resourceVersion);
    expect(lost.status).toBe(409);
    expect(lost.json()).toMatchObject({ reason: 'Conflict' });
    const again = await raw(
      t.kc,
      'POST',
      leases,
      JSON.stringify({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'lock' }, spec }),
      { 'Content-Type': 'application/json' },
    );
    expect(again.json()).toMatchObject({ code: 409, reason: 'AlreadyExists' });
  });

  it('refuses a Secret whose data passes 1 MiB with 422 Invalid on data', async () => {
    const big = Buffer.alloc(1024 * 1024 + 1, 1).toString('base64');
    const refused = statusOf(
      await failure(
        t.core.createNamespacedSecret({
          namespace: t.namespace,
          body: { metadata: { name: 'big' }, data: { k: big } },
        }),
      ),
    );
    expect(refused).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(refused.message).toContain('data: Too long');
    const fits = Buffer.alloc(1024 * 1024, 1).toString('base64');
    expect(
      (
        await t.core.createNamespacedSecret({
          namespace: t.namespace,
          body: { metadata: { name: 'fits' }, data: { k: fits } },
        })
      ).metadata?.name,
    ).toBe('fits');
  });

  it('deletes a collection by selector, and keeps an immutable ConfigMap unchanged', async () => {
    for (const n of ['dc-1', 'dc-2'])
      await t.core.createNamespacedConfigMap({
        namespace: t.namespace,
        body: { metadata: { name: n, labels: { sweep: 'yes' } } },
      });
    await t.core.deleteCollectionNamespacedConfigMap({ namespace: t.namespace, labelSelector: 'sweep=yes' });
    expect(
      (await t.core.listNamespacedConfigMap({ namespace: t.namespace, labelSelector: 'sweep=yes' })).items,
    ).toEqual([]);
    const frozen = await t.core.createNamespacedConfigMap({
      namespace: t.namespace,
      body: { metadata: { name: 'frozen' }, data: { a: '1' }, immutable: true },
    });
    const refused = statusOf(
      await failure(
        t.core.replaceNamespacedConfigMap({
          namespace: t.namespace,
          name: 'frozen',
          body: { ...frozen, data: { a: '2' } },
        }),
      ),
    );
    expect(refused).toMatchObject({ code: 422, reason: 'Invalid' });
  });

  it("lets a Pod's update change its images and tolerations, and refuses any other change of its spec", async () => {
    await t.core.createNamespacedPod({
      namespace: t.namespace,
      body: {
        metadata: { name: 'spec-change' },
        spec: { containers: [{ name: 'main', image: 'nginx:1.25' }], nodeSelector: { disk: 'ssd' } },
      },
    });
    // strategic merge patches: they carry no resourceVersion, so the scheduler's and kubelet's writes do not conflict
    const change = (spec: object) =>
      t.core.patchNamespacedPod({ namespace: t.namespace, name: 'spec-change', body: { spec } }, strategic);
    const retagged = await change({
      containers: [{ name: 'main', image: 'nginx:1.26' }],
      tolerations: [{ key: 'spot', operator: 'Exists', effect: 'NoSchedule' }],
    });
    expect(retagged.spec?.containers[0].image).toBe('nginx:1.26');
    expect(retagged.spec?.tolerations).toContainEqual({ key: 'spot', operator: 'Exists', effect: 'NoSchedule' });
    for (const spec of [{ nodeSelector: { disk: 'hdd' } }, { containers: [{ name: 'main', workingDir: '/srv' }] }]) {
      const refused = statusOf(await failure(change(spec)));
      expect(refused).toMatchObject({ code: 422, reason: 'Invalid' });
      expect(refused.message).toContain('pod updates may not change fields other than');
    }
  });

  it('marks an object a finalizer holds as being deleted, its managed fields as they were', async () => {
    const ns = t.namespace;
    const name = 'held';
    await t.core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name, finalizers: ['example.com/hold'] }, data: { a: '1' } },
    });
    const before = await t.core.readNamespacedConfigMap({ namespace: ns, name });
    await t.core.deleteNamespacedConfigMap({ namespace: ns, name });
    const marked = await t.core.readNamespacedConfigMap({ namespace: ns, name });
    expect(marked.metadata?.deletionTimestamp).toBeDefined();
    expect(marked.metadata?.resourceVersion).not.toBe(before.metadata?.resourceVersion);
    expect(marked.metadata?.managedFields).toEqual(before.metadata?.managedFields);
    expect(marked.data).toEqual({ a: '1' });
    await t.core.patchNamespacedConfigMap({ namespace: ns, name, body: { metadata: { finalizers: null } } }, merge);
    await eventually('the ConfigMap to go once its finalizer is removed', async () =>
      statusOf(await failure(t.core.readNamespacedConfigMap({ namespace: ns, name }))).code === 404 ? true : undefined,
    );
  });

  it('stores nothing on dryRun=All but answers as if it had', async () => {
    const made = await t.core.createNamespacedConfigMap({
      namespace: t.namespace,
      dryRun: 'All',
      body: { metadata: { name: 'dry' }, data: { a: '1' } },
    });
    expect(made.metadata?.uid).toBeTruthy();
    expect(statusOf(await failure(t.core.readNamespacedConfigMap({ namespace: t.namespace, name: 'dry' }))).code).toBe(
      404,
    );
  });

  it('applies the four patch types, strategic merge merging containers by name', async () => {
    await t.apps.createNamespacedDeployment({ namespace: t.namespace, body: deployment('patchme', 1) });
    const sidecar = { spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'envoy:1' }] } } } };
    const s = await t.apps.patchNamespacedDeployment(
      { namespace: t.namespace, name: 'patchme', body: sidecar },
      strategic,
    );
    expect(s.spec?.template.spec?.containers.map((c) => c.name)).toEqual(['app', 'sidecar']);
    const m = await t.apps.patchNamespacedDeployment(
      { namespace: t.namespace, name: 'patchme', body: { metadata: { labels: { team: 'x' } } } },
      merge,
    );
    expect(m.metadata?.labels).toEqual({ app: 'patchme', team: 'x' });
    const j = await t.apps.patchNamespacedDeployment(
      { namespace: t.namespace, name: 'patchme', body: [{ op: 'replace', path: '/spec/replicas', value: 2 }] },
      jsonPatch,
    );
    expect(j.spec?.replicas).toBe(2);
    const failedTest = statusOf(
      await failure(
        t.apps.patchNamespacedDeployment(
          { namespace: t.namespace, name: 'patchme', body: [{ op: 'test', path: '/spec/replicas', value: 5 }] },
          jsonPatch,
        ),
      ),
    );
    expect(failedTest.code).toBe(422);
    const a = await t.apps.patchNamespacedDeployment(
      {
        namespace: t.namespace,
        name: 'patchme',
        fieldManager: 'contract',
        body: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'patchme' },
          spec: { minReadySeconds: 1 },
        },
      },
      apply,
    );
    expect(a.spec?.minReadySeconds).toBe(1);
    expect(a.metadata?.managedFields?.some((f) => f.manager === 'contract' && f.operation === 'Apply')).toBe(true);
  });

  it('server-side apply: conflicts with another manager, force takes the field, dropped fields go', async () => {
    const ns = t.namespace;
    const cfg = (replicas: number, withMinReady: boolean) => {
      const d = deployment('ssa', replicas);
      if (withMinReady) d.spec!.minReadySeconds = 2;
      return d;
    };
    const created = await t.apps.patchNamespacedDeployment(
      { namespace: ns, name: 'ssa', fieldManager: 'team-a', body: cfg(2, true) },
      apply,
    );
    expect(created.spec?.replicas).toBe(2);
    await t.apps.patchNamespacedDeploymentScale(
      { namespace: ns, name: 'ssa', fieldManager: 'autoscaler', body: { spec: { replicas: 5 } } },
      merge,
    );
    const conflict = statusOf(
      await failure(
        t.apps.patchNamespacedDeployment(
          { namespace: ns, name: 'ssa', fieldManager: 'team-a', body: cfg(3, true) },
          apply,
        ),
      ),
    );
    expect(conflict).toMatchObject({ code: 409, reason: 'Conflict' });
    expect(conflict.message).toMatch(/^Apply failed with 1 conflict: conflict with "autoscaler".*: \.spec\.replicas$/);
    expect((conflict.details as { causes: { type: string; field: string }[] }).causes).toEqual([
      expect.objectContaining({ type: 'FieldManagerConflict', field: '.spec.replicas' }),
    ]);
    // same value: no conflict, shared ownership
    await t.apps.patchNamespacedDeployment(
      { namespace: ns, name: 'ssa', fieldManager: 'team-a', body: cfg(5, true) },
      apply,
    );
    const forced = await t.apps.patchNamespacedDeployment(
      { namespace: ns, name: 'ssa', fieldManager: 'team-a', force: true, body: cfg(3, false) },
      apply,
    );
    expect(forced.spec?.replicas).toBe(3);
    expect(forced.spec?.minReadySeconds ?? 0).toBe(0);
    const owners = forced.metadata?.managedFields?.map((f) => f.manager);
    expect(owners).toContain('team-a');
    const missingManager = statusOf(
      await failure(t.apps.patchNamespacedDeployment({ namespace: ns, name: 'ssa', body: cfg(3, false) }, apply)),
    );
    expect(missingManager.code).toBe(422);
  });

  it('writes status and scale only through their subresources', async () => {
    const ns = t.namespace;
    await t.apps.createNamespacedDeployment({ namespace: ns, body: deployment('sub', 1) });
    const d = await t.apps.readNamespacedDeployment({ namespace: ns, name: 'sub' });
    const ignored = await t.apps.replaceNamespacedDeployment({
      namespace: ns,
      name: 'sub',
      body: { ...d, metadata: { ...d.metadata, resourceVersion: undefined }, status: { replicas: 99 } },
    });
    expect(ignored.status?.replicas).not.toBe(99);
    const scale = await t.apps.readNamespacedDeploymentScale({ namespace: ns, name: 'sub' });
    expect(scale.spec?.replicas).toBe(1);
    expect(scale.status?.selector).toBe('app=sub');
    await t.apps.replaceNamespacedDeploymentScale({
      namespace: ns,
      name: 'sub',
      body: { metadata: { name: 'sub', namespace: ns }, spec: { replicas: 3 } },
    });
    const after = await t.apps.readNamespacedDeployment({ namespace: ns, name: 'sub' });
    expect(after.spec?.replicas).toBe(3);
    expect(after.metadata?.generation).toBe((d.metadata?.generation ?? 1) + 1);
  });
});

describe('custom resources', () => {
  it('serves the kind a CRD defines, with its status subresource, and removes its objects with it', async () => {
    const group = `${t.namespace}.example.com`;
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `widgets.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wdg'] },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            subresources: { status: {} },
          },
        ],
      },
    };
    // raw: client-node's CRD model would drop `x-kubernetes-preserve-unknown-fields` (it knows the
    // field under another name), and a real server would then prune every field of the Widget
    const made = await raw(
      t.kc,
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      JSON.stringify(crd),
      {
        'Content-Type': 'application/json',
      },
    );
    expect(made.status).toBe(201);
    try {
      await eventually('the CRD to be established', async () => {
        const got = (await t.objects.read({
          apiVersion: crd.apiVersion,
          kind: crd.kind,
          metadata: { name: crd.metadata.name },
        })) as { status?: { conditions?: { type: string; status: string }[] } };
        return got.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ? true : undefined;
      });
      const widget = {
        apiVersion: `${group}/v1`,
        kind: 'Widget',
        metadata: { name: 'w1', namespace: t.namespace },
        spec: { size: 3 },
      };
      await eventually('the Widget kind to be served', () => t.objects.create(widget));
      const listed = (await raw(t.kc, 'GET', `/apis/${group}/v1/namespaces/${t.namespace}/widgets`)).json();
      expect(listed).toMatchObject({
        kind: 'WidgetList',
        items: [{ kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 3 } }],
      });
      // status goes through the subresource only
      const path = `/apis/${group}/v1/namespaces/${t.namespace}/widgets/w1`;
      const ignored = (
        await raw(t.kc, 'PATCH', path, JSON.stringify({ status: { ready: true } }), {
          'Content-Type': 'application/merge-patch+json',
        })
      ).json();
      expect(ignored.status).toBeUndefined();
      const set = (
        await raw(t.kc, 'PATCH', `${path}/status`, JSON.stringify({ status: { ready: true } }), {
          'Content-Type': 'application/merge-patch+json',
        })
      ).json();
      expect(set.status).toEqual({ ready: true });
      const strategic = await raw(t.kc, 'PATCH', path, '{}', {
        'Content-Type': 'application/strategic-merge-patch+json',
      });
      expect(strategic.status).toBe(415);
    } finally {
      await t.objects.delete({ apiVersion: crd.apiVersion, kind: crd.kind, metadata: { name: crd.metadata.name } });
    }
    await eventually('the Widgets to go with their CRD', async () =>
      (await raw(t.kc, 'GET', `/apis/${group}/v1/namespaces/${t.namespace}/widgets`)).status === 404 ? true : undefined,
    );
  });
});

describe('malformed requests get the Status a real API server gives', () => {
  it('bad JSON → 400 BadRequest', async () => {
    const r = await raw(t.kc, 'POST', `/api/v1/namespaces/${t.namespace}/configmaps`, '{"metadata": {', {
      'Content-Type': 'application/json',
    });
    expect(r.status).toBe(400);
    expect(r.json()).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
  });

  it('unknown kind → 404 NotFound', async () => {
    const r = await raw(t.kc, 'GET', `/apis/apps/v1/namespaces/${t.namespace}/gadgets`);
    expect(r.status).toBe(404);
    expect(r.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  });

  it('invalid name → 422 Invalid naming the field', async () => {
    const s = statusOf(
      await failure(
        t.core.createNamespacedConfigMap({ namespace: t.namespace, body: { metadata: { name: 'Bad_Name' } } }),
      ),
    );
    expect(s).toMatchObject({ code: 422, reason: 'Invalid', details: { name: 'Bad_Name', kind: 'ConfigMap' } });
    expect(s.message).toMatch(
      /^ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
    );
    expect((s.details as { causes: { field: string; reason: string }[] }).causes[0]).toMatchObject({
      field: 'metadata.name',
      reason: 'FieldValueInvalid',
    });
  });

  it('missing namespace → 404 namespaces "…" not found', async () => {
    const s = statusOf(
      await failure(
        t.core.createNamespacedConfigMap({ namespace: 'no-such-namespace', body: { metadata: { name: 'x' } } }),
      ),
    );
    expect(s).toMatchObject({
      code: 404,
      reason: 'NotFound',
      message: 'namespaces "no-such-namespace" not found',
      details: { name: 'no-such-namespace', kind: 'namespaces' },
    });
  });

  it('a selector that does not match the template → 422 on spec.template.metadata.labels', async () => {
    const bad = deployment('mismatch', 1);
    bad.spec!.template.metadata!.labels = { app: 'other' };
    const s = statusOf(await failure(t.apps.createNamespacedDeployment({ namespace: t.namespace, body: bad })));
    expect(s).toMatchObject({ code: 422, reason: 'Invalid', details: { kind: 'Deployment', group: 'apps' } });
    expect((s.details as { causes: { field: string }[] }).causes.map((c) => c.field)).toContain(
      'spec.template.metadata.labels',
    );
  });

  it('an unknown patch type → 415; the server keeps serving', async () => {
    const r = await raw(t.kc, 'PATCH', `/api/v1/namespaces/${t.namespace}/configmaps/cm-a`, '{}', {
      'Content-Type': 'text/plain',
    });
    expect(r.status).toBe(415);
    expect(r.json()).toMatchObject({ reason: 'UnsupportedMediaType' });
    expect((await t.core.readNamespacedConfigMap({ namespace: t.namespace, name: 'cm-a' })).metadata?.name).toBe(
      'cm-a',
    );
  });
});

describe('workloads', () => {
  it('rolls out under maxSurge 1 / maxUnavailable 0: never more than 5 pods, never fewer than 4 ready', async () => {
    const ns = t.namespace;
    const d = deployment('roll', 4, 'nginx:1.27', {
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    });
    await t.apps.createNamespacedDeployment({ namespace: ns, body: d });
    const first = await rolledOut('roll');
    expect(first.status?.conditions?.map((c) => `${c.type}=${c.status}/${c.reason}`).sort()).toEqual([
      'Available=True/MinimumReplicasAvailable',
      'Progressing=True/NewReplicaSetAvailable',
    ]);

    const pods = new Map<string, V1Pod>();
    const violations: string[] = [];
    const check = () => {
      const live = [...pods.values()].filter((p) => !p.metadata?.deletionTimestamp);
      const ready = live.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
      if (live.length > 5) violations.push(`${live.length} pods`);
      if (ready.length < 4) violations.push(`${ready.length} ready`);
    };
    const list = await t.core.listNamespacedPod({ namespace: ns, labelSelector: 'app=roll' });
    for (const p of list.items) pods.set(p.metadata!.name!, p);
    const req = await new Watch(t.kc).watch(
      `/api/v1/namespaces/${ns}/pods`,
      { resourceVersion: list.metadata!.resourceVersion!, labelSelector: 'app=roll' },
      (type, p: V1Pod) => {
        if (type === 'DELETED') pods.delete(p.metadata!.name!);
        else pods.set(p.metadata!.name!, p);
        check();
      },
      () => undefined,
    );
    try {
      await t.apps.patchNamespacedDeployment(
        {
          namespace: ns,
          name: 'roll',
          body: { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:1.28' }] } } } },
        },
        strategic,
      );
      const done = await rolledOut('roll');
      expect(done.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
      await eventually('the old pods to go', () =>
        [...pods.values()].every((p) => p.spec?.containers[0]?.image === 'nginx:1.28') ? true : undefined,
      );
    } finally {
      req.abort();
    }
    expect(violations).toEqual([]);
    const rs = await t.apps.listNamespacedReplicaSet({ namespace: ns, labelSelector: 'app=roll' });
    expect(rs.items.map((r) => r.spec?.replicas).sort()).toEqual([0, 4]);
    for (const r of rs.items) expect(r.metadata?.name).toBe(`roll-${r.metadata?.labels?.['pod-template-hash']}`);
  });

  it('replaces a deleted pod at once, and schedules pods onto nodes with hostnames and IPs', async () => {
    const ns = t.namespace;
    const pods = await t.core.listNamespacedPod({ namespace: ns, labelSelector: 'app=roll' });
    const victim = pods.items.find((p) => !p.metadata?.deletionTimestamp)!;
    expect(victim.spec?.nodeName).toBeTruthy();
    expect(victim.status).toMatchObject({ phase: 'Running', hostIP: expect.any(String), podIP: expect.any(String) });
    await t.core.deleteNamespacedPod({ namespace: ns, name: victim.metadata!.name! });
    await eventually('a replacement pod', async () => {
      const now = await t.core.listNamespacedPod({ namespace: ns, labelSelector: 'app=roll' });
      const live = now.items.filter(
        (p) => !p.metadata?.deletionTimestamp && p.metadata?.name !== victim.metadata?.name,
      );
      return live.length === 4 ? true : undefined;
    });
  });

  it('evicts only as far as the PodDisruptionBudget allows (429 beyond)', async () => {
    const ns = t.namespace;
    // bare pods: nothing replaces an evicted one, so the budget stays spent
    for (const i of [1, 2, 3]) {
      await t.core.createNamespacedPod({
        namespace: ns,
        body: {
          metadata: { name: `guarded-${i}`, labels: { app: 'guarded' } },
          spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
        },
      });
    }
    await t.policy.createNamespacedPodDisruptionBudget({
      namespace: ns,
      body: { metadata: { name: 'guarded' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'guarded' } } } },
    });
    await eventually('the budget to allow one disruption', async () => {
      const b = await t.policy.readNamespacedPodDisruptionBudget({ namespace: ns, name: 'guarded' });
      return b.status?.disruptionsAllowed === 1 && (b.status.observedGeneration ?? 0) >= (b.metadata?.generation ?? 1)
        ? b
        : undefined;
    });
    const pods = (await t.core.listNamespacedPod({ namespace: ns, labelSelector: 'app=guarded' })).items.map(
      (p) => p.metadata!.name!,
    );
    const evict = (name: string) =>
      t.core.createNamespacedPodEviction({
        namespace: ns,
        name,
        body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: ns } },
      });
    await evict(pods[0]!);
    const refused = statusOf(await failure(evict(pods[1]!)));
    expect(refused).toMatchObject({
      code: 429,
      reason: 'TooManyRequests',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
    });
    expect((refused.details as { causes: { reason: string; message: string }[] }).causes[0]).toMatchObject({
      reason: 'DisruptionBudget',
      message: 'The disruption budget guarded needs 2 healthy pods and has 2 currently',
    });
  });

  it('deletes dependents in the background, keeps them with Orphan, and empties a deleted namespace', async () => {
    const ns = t.namespace;
    await t.apps.createNamespacedDeployment({ namespace: ns, body: deployment('orphan', 1) });
    await rolledOut('orphan');
    await t.apps.deleteNamespacedDeployment({ namespace: ns, name: 'orphan', propagationPolicy: 'Orphan' });
    const kept = await t.apps.listNamespacedReplicaSet({ namespace: ns, labelSelector: 'app=orphan' });
    expect(kept.items).toHaveLength(1);
    expect(kept.items[0]!.metadata?.ownerReferences ?? []).toEqual([]);

    await t.apps.deleteNamespacedDeployment({ namespace: ns, name: 'sub' });
    await eventually('the ReplicaSet and pods of a deleted Deployment to go', async () => {
      const rs = await t.apps.listNamespacedReplicaSet({ namespace: ns, labelSelector: 'app=sub' });
      const pods = await t.core.listNamespacedPod({ namespace: ns, labelSelector: 'app=sub' });
      return rs.items.length === 0 && pods.items.length === 0 ? true : undefined;
    });

    const doomed = `${ns}-doomed`;
    await t.core.createNamespace({ body: { metadata: { name: doomed } } });
    await t.apps.createNamespacedDeployment({ namespace: doomed, body: deployment('web', 2) });
    await t.core.deleteNamespace({ name: doomed });
    const terminating = await t.core.readNamespace({ name: doomed }).catch(() => undefined);
    if (terminating) expect(terminating.status?.phase).toBe('Terminating');
    await eventually(
      'the namespace to go',
      async () => (statusOf(await failure(t.core.readNamespace({ name: doomed }))).code === 404 ? true : undefined),
      30_000,
    );
  });
});
