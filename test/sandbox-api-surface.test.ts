/**
 * The API surface beyond workloads, as a real API server serves it: discovery of the storage,
 * policy, quota, scheduling and review groups; a 404 for an unknown group whatever the method;
 * claims bound by the default StorageClass's provisioner; StatefulSet claim templates; quota
 * usage and admission; LimitRange defaults; the reviews of `kubectl auth` and the TokenRequest of
 * `kubectl create token`; HPAs at autoscaling/v1 and v2. Runs against a real cluster too (see
 * support/kube-target.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractTarget, eventually, failure, raw, statusOf, type Target } from './support/kube-target.js';

let t: Target;
beforeAll(async () => {
  t = await contractTarget();
});
afterAll(async () => {
  await t?.close();
});

const ns = () => t.namespace;

async function post(path: string, body: unknown) {
  return raw(t.kc, 'POST', path, JSON.stringify(body), { 'Content-Type': 'application/json' });
}

describe('discovery', () => {
  it('serves the storage, policy, quota, scheduling, review and autoscaling groups', async () => {
    const core = (await raw(t.kc, 'GET', '/api/v1')).json().resources as { name: string }[];
    const names = core.map((r) => r.name);
    for (const r of [
      'persistentvolumes',
      'persistentvolumeclaims',
      'replicationcontrollers',
      'resourcequotas',
      'limitranges',
      'serviceaccounts/token',
    ])
      expect(names).toContain(r);
    const groups = (await raw(t.kc, 'GET', '/apis')).json().groups as {
      name: string;
      versions: { version: string }[];
    }[];
    const byName = new Map(groups.map((g) => [g.name, g.versions.map((v) => v.version)]));
    for (const g of [
      'storage.k8s.io',
      'scheduling.k8s.io',
      'events.k8s.io',
      'authorization.k8s.io',
      'authentication.k8s.io',
      'networking.k8s.io',
    ])
      expect(byName.has(g)).toBe(true);
    expect(byName.get('autoscaling')).toEqual(expect.arrayContaining(['v1', 'v2']));
    const authz = (await raw(t.kc, 'GET', '/apis/authorization.k8s.io/v1')).json().resources as {
      name: string;
      verbs: string[];
    }[];
    expect(authz.find((r) => r.name === 'selfsubjectaccessreviews')?.verbs).toEqual(['create']);
  });

  it('answers 404 for a group it does not serve, whatever the method', async () => {
    expect((await raw(t.kc, 'GET', '/apis/nope.example.com/v1/things')).status).toBe(404);
    expect((await post('/apis/nope.example.com/v1/namespaces/default/things', { kind: 'Thing' })).status).toBe(404);
  });
});

describe('reviews and tokens', () => {
  it('allows the caller everything in a SelfSubjectAccessReview and names it in a SelfSubjectReview', async () => {
    const ssar = await post('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { namespace: ns(), verb: 'create', resource: 'pods' } },
    });
    expect(ssar.status).toBe(201);
    expect((ssar.json().status as { allowed: boolean }).allowed).toBe(true);
    const ssr = await post('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
    });
    expect(ssr.status).toBe(201);
    const user = (ssr.json().status as { userInfo: { username?: string } }).userInfo;
    expect(typeof user.username).toBe('string');
  });

  it('issues a token for a service account, and 404 for a missing one', async () => {
    await t.core.createNamespacedServiceAccount({ namespace: ns(), body: { metadata: { name: 'bot' } } });
    const req = {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 3600 },
    };
    const ok = await post(`/api/v1/namespaces/${ns()}/serviceaccounts/bot/token`, req);
    expect(ok.status).toBe(201);
    const token = (ok.json().status as { token: string }).token;
    expect(token.split('.')).toHaveLength(3);
    expect((await post(`/api/v1/namespaces/${ns()}/serviceaccounts/nobody/token`, req)).status).toBe(404);
  });
});

describe('storage', () => {
  it('binds a claim without a class through the default StorageClass: a volume is made, both Bound', async () => {
    const classes = (await raw(t.kc, 'GET', '/apis/storage.k8s.io/v1/storageclasses')).json().items as {
      metadata: { name: string; annotations?: Record<string, string> };
      volumeBindingMode?: string;
    }[];
    const def = classes.find((c) => c.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true');
    expect(def).toBeDefined();
    await t.core.createNamespacedPersistentVolumeClaim({
      namespace: ns(),
      body: {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    });
    const claim = await t.core.readNamespacedPersistentVolumeClaim({ name: 'data', namespace: ns() });
    expect(claim.spec?.storageClassName).toBe(def!.metadata.name);
    // a class that waits for a consumer binds once a pod uses the claim
    if (def!.volumeBindingMode === 'WaitForFirstConsumer')
      await t.core.createNamespacedPod({
        namespace: ns(),
        body: {
          metadata: { name: 'user' },
          spec: {
            containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }],
            volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }],
          },
        },
      });
    const bound = await eventually(
      'the claim to be bound',
      async () => {
        const c = await t.core.readNamespacedPersistentVolumeClaim({ name: 'data', namespace: ns() });
        return c.status?.phase === 'Bound' ? c : undefined;
      },
      60_000,
    );
    const pv = await t.core.readPersistentVolume({ name: bound.spec!.volumeName! });
    expect(pv.status?.phase).toBe('Bound');
    expect(pv.spec?.claimRef?.name).toBe('data');
  });

  it('makes the claims of a StatefulSet volumeClaimTemplate, one per pod', async () => {
    await t.apps.createNamespacedStatefulSet({
      namespace: ns(),
      body: {
        metadata: { name: 'db' },
        spec: {
          serviceName: 'db',
          replicas: 2,
          selector: { matchLabels: { app: 'db' } },
          template: {
            metadata: { labels: { app: 'db' } },
            spec: { containers: [{ name: 'db', image: 'busybox', command: ['sleep', '3600'] }] },
          },
          volumeClaimTemplates: [
            {
              metadata: { name: 'www' },
              spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
            },
          ],
        },
      },
    });
    const claims = await eventually(
      'both claims',
      async () => {
        const l = await t.core.listNamespacedPersistentVolumeClaim({ namespace: ns(), labelSelector: 'app=db' });
        const names = l.items.map((c) => c.metadata?.name).sort();
        return names.length === 2 ? names : undefined;
      },
      60_000,
    );
    expect(claims).toEqual(['www-db-0', 'www-db-1']);
    const pod = await t.core.readNamespacedPod({ name: 'db-0', namespace: ns() });
    expect(pod.spec?.volumes?.find((v) => v.name === 'www')?.persistentVolumeClaim?.claimName).toBe('www-db-0');
  });
});

describe('quotas and limits', () => {
  it('counts usage in a ResourceQuota and refuses a create past it with the server message', async () => {
    await t.core.createNamespacedResourceQuota({
      namespace: ns(),
      body: { metadata: { name: 'cm-quota' }, spec: { hard: { configmaps: '3' } } },
    });
    await eventually('the quota to report usage', async () => {
      const q = await t.core.readNamespacedResourceQuota({ name: 'cm-quota', namespace: ns() });
      return q.status?.used?.configmaps !== undefined ? q : undefined;
    });
    const existing = (await t.core.listNamespacedConfigMap({ namespace: ns() })).items.length;
    for (let i = existing; i < 3; i++)
      await t.core.createNamespacedConfigMap({ namespace: ns(), body: { metadata: { name: `q-${i}` } } });
    const s = statusOf(
      await failure(
        t.core.createNamespacedConfigMap({ namespace: ns(), body: { metadata: { name: 'one-too-many' } } }),
      ),
    );
    expect(s.code).toBe(403);
    expect(s.reason).toBe('Forbidden');
    expect(s.message).toBe(
      'configmaps "one-too-many" is forbidden: exceeded quota: cm-quota, requested: configmaps=1, used: configmaps=3, limited: configmaps=3',
    );
    await eventually('the usage to read 3', async () => {
      const q = await t.core.readNamespacedResourceQuota({ name: 'cm-quota', namespace: ns() });
      return q.status?.used?.configmaps === '3' ? q : undefined;
    });
    await t.core.deleteNamespacedResourceQuota({ name: 'cm-quota', namespace: ns() });
  });

  it('applies a LimitRange default to a container that sets no resources', async () => {
    // raw: client-node's model calls the field `_default` and would drop `default`
    const lr = await post(`/api/v1/namespaces/${ns()}/limitranges`, {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'defaults' },
      spec: { limits: [{ type: 'Container', default: { cpu: '500m', memory: '256Mi' } }] },
    });
    expect(lr.status).toBe(201);
    const pod = await t.core.createNamespacedPod({
      namespace: ns(),
      body: {
        metadata: { name: 'limited' },
        spec: { containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }] },
      },
    });
    const res = pod.spec?.containers[0]?.resources;
    expect(res?.limits).toEqual({ cpu: '500m', memory: '256Mi' });
    expect(res?.requests).toEqual({ cpu: '500m', memory: '256Mi' });
    expect(pod.metadata?.annotations?.['kubernetes.io/limit-ranger']).toContain('limit for container c');
    await t.core.deleteNamespacedLimitRange({ name: 'defaults', namespace: ns() });
  });
});

describe('autoscaling', () => {
  it('serves one HPA at autoscaling/v1 (CPU target) and v2 (metrics)', async () => {
    const v1 = await post(`/apis/autoscaling/v1/namespaces/${ns()}/horizontalpodautoscalers`, {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 1,
        maxReplicas: 4,
        targetCPUUtilizationPercentage: 70,
      },
    });
    expect(v1.status).toBe(201);
    expect((v1.json().spec as Record<string, unknown>).targetCPUUtilizationPercentage).toBe(70);
    const v2 = (await raw(t.kc, 'GET', `/apis/autoscaling/v2/namespaces/${ns()}/horizontalpodautoscalers/web`)).json();
    expect(v2.apiVersion).toBe('autoscaling/v2');
    expect((v2.spec as { metrics: unknown[] }).metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
    ]);
  });
});

describe('events', () => {
  it("serves core v1 Events at events.k8s.io/v1 too, with that version's field names", async () => {
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const made = await post(`/api/v1/namespaces/${ns()}/events`, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'hello.1' },
      involvedObject: { kind: 'ConfigMap', name: 'hello', namespace: ns(), apiVersion: 'v1' },
      reason: 'Tested',
      message: 'a note for the new API',
      type: 'Normal',
      source: { component: 'contract-test' },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
    });
    expect(made.status).toBe(201);
    const got = await raw(t.kc, 'GET', `/apis/events.k8s.io/v1/namespaces/${ns()}/events/hello.1`);
    expect(got.status).toBe(200);
    expect(got.json()).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      reason: 'Tested',
      note: 'a note for the new API',
      regarding: { kind: 'ConfigMap', name: 'hello' },
    });
  });
});
