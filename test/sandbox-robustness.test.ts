/**
 * Malformed and hostile input never breaks the sandbox: every answer is a Status with a 4xx code
 * (never a 500, never a dropped connection), the controllers never fail on what was stored,
 * and the cluster keeps serving. The cases are listed, then generated from valid objects with
 * fields swapped for values of the wrong type (a seeded generator, so a failure reproduces).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeConfig } from '@kubernetes/client-node';
import { SandboxCluster } from '../src/sandbox/cluster.js';
import { Random } from '../src/sandbox/random.js';
import { FAST, kubeConfigFor, raw } from './support/kube-target.js';

let cluster: SandboxCluster;
let kc: KubeConfig;
beforeAll(async () => {
  cluster = await SandboxCluster.start({ name: 'r', timings: FAST, seed: 1 });
  kc = kubeConfigFor(cluster);
});
afterAll(() => cluster.stop());

interface Case {
  method: string;
  path: string;
  body?: string;
  type?: string;
}

async function expectClientError(c: Case): Promise<number> {
  const r = await raw(
    kc,
    c.method,
    c.path,
    c.body,
    c.type ? { 'Content-Type': c.type } : { 'Content-Type': 'application/json' },
  );
  const where = `${c.method} ${c.path} ${c.body?.slice(0, 80) ?? ''}`;
  expect(r.status, where).toBeGreaterThanOrEqual(200);
  expect(r.status, `${where} → ${r.text}`).toBeLessThan(500);
  if (r.status >= 400) expect(r.json(), where).toMatchObject({ kind: 'Status', status: 'Failure', code: r.status });
  return r.status;
}

const PODS = '/api/v1/namespaces/default/pods';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

const LISTED: Case[] = [
  { method: 'GET', path: '/api/v1/namespaces/%zz/pods' },
  { method: 'GET', path: '/nothing/here' },
  { method: 'GET', path: '/apis/apps/v9/deployments' },
  { method: 'GET', path: `${DEPLOYMENTS}/web/nosuchsub` },
  { method: 'GET', path: `${PODS}?limit=abc` },
  { method: 'GET', path: `${PODS}?continue=not-a-token` },
  { method: 'GET', path: `${PODS}?resourceVersion=abc` },
  { method: 'GET', path: `${PODS}?labelSelector=a%20in%20(` },
  { method: 'GET', path: `${PODS}?fieldSelector=spec.nope%3Dx` },
  { method: 'GET', path: `${PODS}?watch=true&timeoutSeconds=-5` },
  { method: 'GET', path: `${PODS}?watch=true&resourceVersion=abc` },
  { method: 'OPTIONS', path: PODS },
  { method: 'PUT', path: PODS, body: '{}' },
  { method: 'POST', path: '/api/v1/pods', body: '{}' },
  { method: 'POST', path: PODS, body: '' },
  { method: 'POST', path: PODS, body: 'null' },
  { method: 'POST', path: PODS, body: '[]' },
  { method: 'POST', path: PODS, body: '"pod"' },
  { method: 'POST', path: PODS, body: '{"metadata": 5}' },
  { method: 'POST', path: PODS, body: '{"metadata": {"name": 5}}' },
  { method: 'POST', path: PODS, body: '{"metadata": {"name": "x", "labels": {"a": 1}}}' },
  { method: 'POST', path: PODS, body: '{"metadata": {"name": "x"}, "spec": "nope"}' },
  { method: 'POST', path: PODS, body: '{"metadata": {"name": "x"}, "spec": {"containers": "nope"}}' },
  {
    method: 'POST',
    path: PODS,
    body: '{"metadata": {"name": "x"}, "spec": {"containers": [{"name": "a", "image": "i", "ports": [1]}]}}',
  },
  { method: 'POST', path: PODS, body: '{"apiVersion": "apps/v1", "kind": "Pod", "metadata": {"name": "x"}}' },
  { method: 'POST', path: PODS, body: '{"kind": "Service", "metadata": {"name": "x"}}' },
  { method: 'POST', path: PODS, body: '{"metadata": {"name": "x", "namespace": "other"}}' },
  { method: 'POST', path: PODS, body: 'kind: Pod', type: 'application/yaml' },
  { method: 'POST', path: PODS, body: '\u0000\u0001', type: 'application/vnd.kubernetes.protobuf' },
  {
    method: 'POST',
    path: '/api/v1/namespaces/default/secrets',
    body: '{"metadata": {"name": "s"}, "data": {"k": "not base64!"}}',
  },
  { method: 'POST', path: DEPLOYMENTS, body: '{"metadata": {"name": "d"}, "spec": {"replicas": "3"}}' },
  {
    method: 'POST',
    path: DEPLOYMENTS,
    body: '{"metadata": {"name": "d"}, "spec": {"replicas": 1, "selector": {"matchLabels": {"a": "b"}}, "template": {"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}, "strategy": {"rollingUpdate": {"maxSurge": true}}}}',
  },
  { method: 'PATCH', path: `${PODS}/none`, body: '{}', type: 'application/merge-patch+json' },
  { method: 'PATCH', path: '/api/v1/namespaces/default', body: '{', type: 'application/merge-patch+json' },
  { method: 'PATCH', path: '/api/v1/namespaces/default', body: '{"op": "add"}', type: 'application/json-patch+json' },
  {
    method: 'PATCH',
    path: '/api/v1/namespaces/default',
    body: '[{"op": "remove", "path": "/nope/deeper"}]',
    type: 'application/json-patch+json',
  },
  {
    method: 'PATCH',
    path: '/api/v1/namespaces/default',
    body: '[{"op": "replace", "path": "/metadata", "value": 5}]',
    type: 'application/json-patch+json',
  },
  { method: 'PATCH', path: '/api/v1/namespaces/default', body: '[]', type: 'application/strategic-merge-patch+json' },
  {
    method: 'PATCH',
    path: '/api/v1/namespaces/default?fieldManager=t',
    body: '[1, 2]',
    type: 'application/apply-patch+yaml',
  },
  {
    method: 'PATCH',
    path: '/api/v1/namespaces/default?fieldManager=t',
    body: '{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "other"}}',
    type: 'application/apply-patch+yaml',
  },
  {
    method: 'PATCH',
    path: '/api/v1/namespaces/default?fieldManager=t',
    body: ': : :',
    type: 'application/apply-patch+yaml',
  },
  {
    method: 'PATCH',
    path: `${DEPLOYMENTS}/none/scale`,
    body: '{"spec": {"replicas": -1}}',
    type: 'application/merge-patch+json',
  },
  { method: 'DELETE', path: '/api/v1/namespaces/default' },
  { method: 'DELETE', path: `${PODS}/none?propagationPolicy=Sideways` },
  { method: 'DELETE', path: `${PODS}/none?gracePeriodSeconds=abc` },
  { method: 'DELETE', path: `${PODS}/none`, body: '{"preconditions": 5}' },
  { method: 'POST', path: `${PODS}/none/eviction`, body: '{"kind": "Eviction"}' },
  { method: 'POST', path: '/__sandbox/faults', body: '{}' },
  { method: 'PUT', path: '/__sandbox/faults', body: '{"apiErrors": [{"status": 418, "rate": 2}]}' },
];

describe('malformed requests', () => {
  it.each(LISTED.map((c) => [`${c.method} ${c.path}${c.body ? ` ${c.body.slice(0, 40)}` : ''}`, c] as const))(
    '%s → a 4xx Status',
    async (_name, c) => {
      const code = await expectClientError(c);
      expect(code).toBeGreaterThanOrEqual(400);
    },
  );

  it('a resourceVersion from the future → 504 Timeout, as the API server answers', async () => {
    const r = await raw(kc, 'GET', `${PODS}?resourceVersion=999999999`);
    expect(r.status).toBe(504);
    expect(r.json()).toMatchObject({
      reason: 'Timeout',
      message: expect.stringMatching(/^Timeout: Too large resource version: 999999999, current: [0-9]+$/),
    });
  });

  it('a body over 3 MiB → 413, and the server carries on', async () => {
    const r = await raw(
      kc,
      'POST',
      '/api/v1/namespaces/default/configmaps',
      `{"metadata":{"name":"big"},"data":{"a":"${'x'.repeat(3.5 * 1024 * 1024)}"}}`,
      { 'Content-Type': 'application/json' },
    );
    expect(r.status).toBe(413);
    expect((await raw(kc, 'GET', '/api/v1/namespaces/default')).status).toBe(200);
  });
});

/** A value of another JSON type than `v`. */
function wrongType(rnd: Random, v: unknown): unknown {
  const options: unknown[] = ['text', 7, -1, 2.5, true, null, [], [1, 'a'], {}, { x: { y: 1 } }];
  const candidates = options.filter((o) => typeof o !== typeof v || Array.isArray(o) !== Array.isArray(v));
  return candidates[Math.floor(rnd.next() * candidates.length)];
}

/** Every path to a value in `o`, as key lists. */
function paths(o: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(o)) return [at, ...o.flatMap((x, i) => paths(x, [...at, i]))];
  if (o !== null && typeof o === 'object') return [at, ...Object.entries(o).flatMap(([k, x]) => paths(x, [...at, k]))];
  return [at];
}

function mutated(rnd: Random, base: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(base);
  const all = paths(copy).filter((p) => p.length > 0 && !(p.length === 2 && p[0] === 'metadata' && p[1] === 'name'));
  const p = all[Math.floor(rnd.next() * all.length)]!;
  let parent: Record<string | number, unknown> = copy;
  for (const k of p.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  parent[p[p.length - 1]!] = wrongType(rnd, parent[p[p.length - 1]!]);
  return copy;
}

const TEMPLATE = {
  metadata: { labels: { app: 'f' } },
  spec: {
    containers: [
      {
        name: 'c',
        image: 'nginx:1',
        ports: [{ containerPort: 80, name: 'http' }],
        readinessProbe: { initialDelaySeconds: 0 },
      },
    ],
    nodeSelector: { zone: 'a' },
  },
};
const VALID: [string, Record<string, unknown>][] = [
  [
    DEPLOYMENTS,
    {
      metadata: { name: 'f', labels: { app: 'f' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'f' } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
        template: TEMPLATE,
      },
    },
  ],
  [
    '/apis/apps/v1/namespaces/default/statefulsets',
    {
      metadata: { name: 'f' },
      spec: { replicas: 1, serviceName: 'f', selector: { matchLabels: { app: 'f' } }, template: TEMPLATE },
    },
  ],
  [
    '/apis/batch/v1/namespaces/default/jobs',
    {
      metadata: { name: 'f' },
      spec: {
        completions: 1,
        backoffLimit: 1,
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1' }] } },
      },
    },
  ],
  [
    '/api/v1/namespaces/default/services',
    {
      metadata: { name: 'f' },
      spec: { selector: { app: 'f' }, ports: [{ port: 80, targetPort: 'http', name: 'web' }] },
    },
  ],
  [
    '/apis/policy/v1/namespaces/default/poddisruptionbudgets',
    { metadata: { name: 'f' }, spec: { minAvailable: '50%', selector: { matchLabels: { app: 'f' } } } },
  ],
  [
    PODS,
    {
      metadata: { name: 'f', labels: { app: 'f' }, annotations: { 'sandbox.kdeck.dev/readiness-delay': '1s' } },
      spec: { containers: [{ name: 'c', image: 'nginx:1' }], tolerations: [{ key: 'k', operator: 'Exists' }] },
    },
  ],
];

describe('objects with fields of the wrong type', () => {
  it('are refused or stored without breaking a controller (300 seeded mutants)', async () => {
    const rnd = new Random(20260101);
    const outcomes = new Map<number, number>();
    for (let i = 0; i < 300; i++) {
      const [path, base] = VALID[i % VALID.length]!;
      const body = mutated(rnd, base);
      const code = await expectClientError({ method: 'POST', path, body: JSON.stringify(body) });
      outcomes.set(code, (outcomes.get(code) ?? 0) + 1);
      if (code === 201) await raw(kc, 'DELETE', `${path}/f?gracePeriodSeconds=0`);
    }
    await cluster.settle();
    expect(cluster.controllers.lastError).toBeUndefined();
    // both kinds of outcome happen: some mutants are harmless, most are refused
    expect(outcomes.get(201) ?? 0).toBeGreaterThan(0);
    expect((outcomes.get(400) ?? 0) + (outcomes.get(422) ?? 0)).toBeGreaterThan(0);
    expect((await raw(kc, 'GET', '/api/v1/namespaces/default/pods')).status).toBe(200);
  });
});
