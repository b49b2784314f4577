/**
 * The clusters a rehearsal is measured on (the end-to-end test and `bench/rehearsal.ts`): three
 * sandbox clusters with workloads of different replica counts and readiness (readiness probes
 * with different initialDelaySeconds), and on sandbox-a a PodDisruptionBudget (maxUnavailable 1)
 * over two workloads, whose pods the first batch evicts together. The hostnames are pod names:
 * two of web and one of api on a, two workers on b, one cache on c.
 */
import type { ClusterSet } from '../src/cluster/cluster-set.js';
import type { KubeObject } from '../src/model/kube-object.js';

export const NAMESPACE = 'shop';
export const CONTEXTS = ['sandbox-a', 'sandbox-b', 'sandbox-c'] as const;

interface App {
  name: string;
  replicas: number;
  initialDelaySeconds: number;
  /** Pods of it the runbook is given, in order. */
  targets: number;
}

export const APPS: Record<(typeof CONTEXTS)[number], App[]> = {
  'sandbox-a': [
    { name: 'web', replicas: 3, initialDelaySeconds: 2, targets: 2 },
    { name: 'api', replicas: 2, initialDelaySeconds: 4, targets: 1 },
  ],
  'sandbox-b': [{ name: 'worker', replicas: 4, initialDelaySeconds: 1, targets: 2 }],
  'sandbox-c': [{ name: 'cache', replicas: 2, initialDelaySeconds: 3, targets: 1 }],
};

const deployment = (app: App): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: app.name, namespace: NAMESPACE },
  spec: {
    replicas: app.replicas,
    selector: { matchLabels: { app: app.name } },
    template: {
      metadata: { labels: { app: app.name, tier: 'front' } },
      spec: {
        containers: [
          {
            name: 'main',
            image: `registry.example/${app.name}:1`,
            env: [{ name: 'API_TOKEN', value: 'not-for-the-rehearsal' }],
            readinessProbe: {
              httpGet: { path: '/ready', port: 8080 },
              initialDelaySeconds: app.initialDelaySeconds,
              periodSeconds: 1,
            },
          },
        ],
      },
    },
  },
});

/** Everything a cluster gets, namespace first. */
export function fixtureObjects(context: (typeof CONTEXTS)[number]): KubeObject[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } },
    ...APPS[context].map(deployment),
    ...(context === 'sandbox-a'
      ? [
          {
            apiVersion: 'policy/v1',
            kind: 'PodDisruptionBudget',
            metadata: { name: 'front', namespace: NAMESPACE },
            spec: { maxUnavailable: 1, selector: { matchLabels: { tier: 'front' } } },
          },
        ]
      : []),
  ];
}

const podsOf = async (clusters: ClusterSet, context: string) =>
  (await clusters.client(context).list({ apiVersion: 'v1', kind: 'Pod', namespace: NAMESPACE })).items;

const ready = (p: KubeObject) =>
  p.metadata?.deletionTimestamp === undefined &&
  ((p.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some(
    (c) => c.type === 'Ready' && c.status === 'True',
  );

/** Applies the fixture to every cluster and waits (bounded) until every pod is Ready. */
export async function deployFixture(clusters: ClusterSet): Promise<void> {
  for (const c of CONTEXTS) for (const o of fixtureObjects(c)) await clusters.client(c).apply(o);
  await settledFixture(clusters);
}

/** Waits (bounded) until every cluster has exactly its replicas, all Ready. */
export async function settledFixture(clusters: ClusterSet): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const done = await Promise.all(
      CONTEXTS.map(async (c) => {
        const pods = await podsOf(clusters, c);
        return pods.length === APPS[c].reduce((n, a) => n + a.replicas, 0) && pods.every(ready);
      }),
    );
    if (done.every(Boolean)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the rehearsal fixture did not become Ready in the sandbox within a minute');
}

/** The hostnames (pod names) the runbook is given: web, api, web on a; two workers; one cache. */
export async function fixtureHosts(clusters: ClusterSet): Promise<string[]> {
  const hosts: string[] = [];
  for (const c of CONTEXTS) {
    const pods = (await podsOf(clusters, c)).map((p) => String(p.metadata?.name)).sort();
    const of = (app: string) => pods.filter((n) => n.startsWith(`${app}-`));
    if (c === 'sandbox-a') hosts.push(of('web')[0]!, of('api')[0]!, of('web')[1]!);
    else for (const app of APPS[c]) hosts.push(...of(app.name).slice(0, app.targets));
  }
  return hosts;
}
