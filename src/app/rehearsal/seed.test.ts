import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../model/kube-object.js';
import { seedState, selects, topWorkload, type ClusterShape } from './seed.js';

const template = {
  metadata: { labels: { app: 'web' }, annotations: { 'checksum/config': 'abc' } },
  spec: {
    serviceAccountName: 'web',
    volumes: [{ name: 'creds', secret: { secretName: 'web-creds' } }],
    containers: [
      {
        name: 'main',
        image: 'registry.example/web:1',
        env: [{ name: 'TOKEN', value: 's3cret' }],
        envFrom: [{ configMapRef: { name: 'web-config' } }],
        volumeMounts: [{ name: 'creds', mountPath: '/creds' }],
        readinessProbe: { httpGet: { path: '/ready', port: 8080 }, initialDelaySeconds: 30, periodSeconds: 10 },
      },
    ],
  },
};

const deployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'web',
    namespace: 'shop',
    uid: 'd-1',
    resourceVersion: '98765',
    annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"env":"s3cret"}' },
    managedFields: [{ manager: 'kubectl' }],
  },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template },
  status: { replicas: 3, readyReplicas: 3 },
};
const owned = (kind: string, name: string, uid: string) => [
  { apiVersion: 'apps/v1', kind, name, uid, controller: true },
];
const replicaSet: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'web-7f', namespace: 'shop', uid: 'rs-1', ownerReferences: owned('Deployment', 'web', 'd-1') },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template },
};
const pod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-7f-abc',
    namespace: 'shop',
    uid: 'p-1',
    labels: { app: 'web', tier: 'front' },
    ownerReferences: owned('ReplicaSet', 'web-7f', 'rs-1'),
  },
  spec: { ...template.spec, nodeName: 'node-a' },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
};
const node: KubeObject = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'node-a', uid: 'n-1' },
  status: { conditions: [{ type: 'Ready', status: 'True' }], allocatable: { cpu: '4' } },
};
const budget: KubeObject = {
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'front', namespace: 'shop', uid: 'b-1' },
  spec: { maxUnavailable: 1, selector: { matchLabels: { tier: 'front' } } },
};
const shape: ClusterShape = {
  cluster: 'prod-eu',
  nodes: [node],
  workloads: [deployment, replicaSet],
  pods: [pod],
  budgets: [budget],
};

const seeded = (kind: string) => seedState(shape, () => 4200).objects.find((o) => o.object.kind === kind)!;

describe('the state a rehearsal sandbox starts from', () => {
  it('names a pod by the workload at the top of its owner chain, as the plan does', () => {
    expect(topWorkload('prod-eu', pod, [deployment, replicaSet, pod])).toBe('prod-eu/shop/Deployment/web');
    expect(topWorkload('prod-eu', { ...pod, metadata: { name: 'lone', namespace: 'shop' } }, [])).toBe(
      'prod-eu/shop/Pod/lone',
    );
  });

  it('keeps names, uids, owners, labels, replicas, selectors, budgets and placement', () => {
    const s = seedState(shape, () => 4200);
    expect(s.objects.map((o) => `${o.resource} ${o.object.metadata.name}`)).toEqual([
      '/namespaces default',
      '/namespaces kube-node-lease',
      '/namespaces shop',
      '/nodes node-a',
      'apps/deployments web',
      'apps/replicasets web-7f',
      '/pods web-7f-abc',
      'policy/poddisruptionbudgets front',
    ]);
    expect(s.resourceVersion).toBe(8);
    const p = seeded('Pod').object;
    expect(p.metadata).toMatchObject({
      uid: 'p-1',
      labels: { app: 'web', tier: 'front' },
      ownerReferences: owned('ReplicaSet', 'web-7f', 'rs-1'),
    });
    expect(p.spec).toMatchObject({ nodeName: 'node-a' });
    expect(p.status).toMatchObject({ phase: 'Running' });
    expect(seeded('Deployment').object.spec).toMatchObject({ replicas: 3, selector: { matchLabels: { app: 'web' } } });
    expect(seeded('PodDisruptionBudget').object.spec).toMatchObject({ maxUnavailable: 1 });
    expect(seeded('Node').object.status).toMatchObject({ allocatable: { cpu: '4' } });
  });

  it('gives every container a readiness probe that holds it the measured time', () => {
    for (const kind of ['Pod', 'Deployment', 'ReplicaSet']) {
      const o = seeded(kind).object as unknown as {
        spec: { containers?: unknown[]; template?: { spec: { containers: unknown[] } } };
      };
      const [c] = (o.spec.template?.spec.containers ?? o.spec.containers) as { readinessProbe: object }[];
      expect(c!.readinessProbe).toMatchObject({
        httpGet: { path: '/ready', port: 8080 },
        initialDelaySeconds: 4,
        periodSeconds: 1,
      });
    }
  });

  it('copies nothing private: no env, no ConfigMap or Secret reference, no volume, no annotation, no service account', () => {
    const text = JSON.stringify(seedState(shape, () => 4200));
    for (const secret of [
      's3cret',
      'web-config',
      'web-creds',
      'checksum/config',
      'last-applied',
      '"serviceAccountName":"web"',
      'managedFields',
      '98765',
    ])
      expect(text).not.toContain(secret);
  });

  it("uses the API's selector rules for budgets: labels and expressions, {} selects every pod", () => {
    expect(selects(budget, pod)).toBe(true);
    expect(selects({ ...budget, spec: { selector: { matchLabels: { tier: 'back' } } } }, pod)).toBe(false);
    expect(
      selects(
        { ...budget, spec: { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] } } },
        pod,
      ),
    ).toBe(true);
    expect(selects({ ...budget, spec: { selector: {} } }, pod)).toBe(true);
    expect(selects({ ...budget, spec: {} }, pod)).toBe(false);
  });
});
