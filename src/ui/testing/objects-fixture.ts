/**
 * Live objects for screen tests and golden frames: an in-memory ObjectSource (what the cluster
 * layer reads and writes) holding the fixture's guestbook on sandbox-b as a cluster would show
 * it (the frontend Deployment, its ReplicaSet and pods, one crash-looping, their events, the
 * redis-auth Secret), so that the console's real object control (ConsoleObjects) runs over it:
 * follows are answered at once and again after every write; writes are recorded.
 */
import type { ObjectSource } from '../../cluster/object-source.js';
import type { WatchTarget } from '../../cluster/watch.js';
import { ConsoleObjects } from '../../app/console/objects.js';
import type { KubeObject, ObjectRef } from '../../model/kube-object.js';
import { asObject, isObject } from '../../model/resource.js';
import { T0 } from './clock.js';

/** What the screen tests' clock says: ten minutes after the fixture's T0. */
export const OBJECTS_NOW = T0 + 10 * 60_000;
const at = (msBeforeNow: number) => new Date(OBJECTS_NOW - msBeforeNow).toISOString().replace(/\.\d+Z$/, 'Z');

/** An equality-only label selector (`a=b,c=d`), as the console sends them. */
function matches(o: KubeObject, target: WatchTarget): boolean {
  if (o.apiVersion !== target.apiVersion || o.kind !== target.kind) return false;
  if (target.namespace !== undefined && o.metadata?.namespace !== target.namespace) return false;
  const labels = asObject(o.metadata?.labels);
  for (const term of (target.labelSelector ?? '').split(',').filter(Boolean)) {
    const [k, v] = term.split('=');
    if (labels[k!] !== v) return false;
  }
  for (const term of (target.fieldSelector ?? '').split(',').filter(Boolean)) {
    const [k, v] = term.split('=');
    if (k === 'metadata.name' && o.metadata?.name !== v) return false;
  }
  return true;
}

function merged(base: unknown, patch: unknown): unknown {
  if (!isObject(base) || !isObject(patch)) return patch;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) out[k] = v === null ? undefined : merged(base[k], v);
  return out;
}

export class FixtureObjectSource implements ObjectSource {
  readonly kubeconfigFiles = ['/work/konfig-sample/.kdeck/sandbox/kubeconfig'];
  /** The writes asked for, as `verb kind/name on cluster`. */
  readonly writes: string[] = [];
  private readonly followers = new Set<() => void>();

  constructor(private readonly objects: Map<string, KubeObject[]> = guestbookLive()) {}

  private of(cluster: string): KubeObject[] {
    return this.objects.get(cluster) ?? [];
  }

  private changed(): void {
    for (const f of [...this.followers]) f();
  }

  private find(cluster: string, ref: ObjectRef): KubeObject | undefined {
    return this.of(cluster).find(
      (o) => o.kind === ref.kind && o.metadata?.name === ref.name && o.metadata?.namespace === ref.namespace,
    );
  }

  async get(cluster: string, ref: ObjectRef): Promise<KubeObject | undefined> {
    return this.find(cluster, ref);
  }

  follow(cluster: string, target: WatchTarget, onChange: (objects: KubeObject[]) => void): () => void {
    const tell = () => onChange(this.of(cluster).filter((o) => matches(o, target)));
    this.followers.add(tell);
    tell();
    return () => this.followers.delete(tell);
  }

  async mergePatch(cluster: string, ref: ObjectRef, patch: Record<string, unknown>): Promise<KubeObject> {
    this.writes.push(`patch ${ref.kind}/${ref.name} on ${cluster}: ${JSON.stringify(patch)}`);
    const o = this.find(cluster, ref);
    if (!o) throw new Error(`${ref.kind} ${ref.name} not found`);
    const next = merged(o, patch) as KubeObject;
    this.objects.set(
      cluster,
      this.of(cluster).map((x) => (x === o ? next : x)),
    );
    this.changed();
    return next;
  }

  async delete(cluster: string, ref: ObjectRef): Promise<boolean> {
    this.writes.push(`delete ${ref.kind}/${ref.name} on ${cluster}`);
    const o = this.find(cluster, ref);
    if (!o) return false;
    this.objects.set(
      cluster,
      this.of(cluster).filter((x) => x !== o),
    );
    this.changed();
    return true;
  }
}

/** The console's object control over the fixture's live objects, at the fixture's clock. */
export function fixtureObjects(
  options: { readOnly?: boolean; showSecrets?: boolean; source?: FixtureObjectSource } = {},
): ConsoleObjects {
  return new ConsoleObjects({
    source: options.source ?? new FixtureObjectSource(),
    readOnly: options.readOnly ?? false,
    showSecrets: options.showSecrets ?? false,
    now: () => OBJECTS_NOW,
  });
}

const NS = 'guestbook';

const FRONTEND = {
  name: 'frontend',
  image: 'gb-frontend:v5',
  ports: [{ containerPort: 80, protocol: 'TCP' }],
  resources: { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '100m', memory: '64Mi' } },
  readinessProbe: { httpGet: { path: '/healthz', port: 80 }, periodSeconds: 5 },
};

function pod(name: string, ip: string, node: string, crash?: { restarts: number; lastMsAgo: number }): KubeObject {
  const running = { running: { startedAt: at(9 * 60_000) } };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: NS,
      uid: `${name}-uid`,
      creationTimestamp: at(9 * 60_000 + 30_000),
      labels: { app: 'frontend', 'pod-template-hash': '7d9' },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'frontend-7d9', uid: 'rs-frontend-7d9', controller: true },
      ],
    },
    spec: { nodeName: node, containers: [FRONTEND] },
    status: {
      phase: 'Running',
      podIP: ip,
      conditions: [{ type: 'Ready', status: crash ? 'False' : 'True' }],
      containerStatuses: [
        {
          name: 'frontend',
          image: 'gb-frontend:v5',
          ready: !crash,
          restartCount: crash?.restarts ?? 0,
          state: crash
            ? {
                waiting: {
                  reason: 'CrashLoopBackOff',
                  message: 'back-off 40s restarting failed container=frontend',
                },
              }
            : running,
          ...(crash
            ? {
                lastState: {
                  terminated: { exitCode: 1, reason: 'Error', finishedAt: at(crash.lastMsAgo) },
                },
              }
            : {}),
        },
      ],
    },
  };
}

function event(
  name: string,
  about: KubeObject,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
  msAgo: number,
  count = 1,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: NS },
    involvedObject: {
      kind: about.kind,
      name: about.metadata?.name,
      namespace: NS,
      uid: asObject(about.metadata).uid,
    },
    type,
    reason,
    message,
    count,
    firstTimestamp: at(msAgo + (count - 1) * 60_000),
    lastTimestamp: at(msAgo),
  };
}

/** The guestbook on sandbox-b, as live as the fixture's plan says it is. */
export function guestbookLive(): Map<string, KubeObject[]> {
  const deployment: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'frontend',
      namespace: NS,
      uid: 'deploy-frontend',
      generation: 3,
      creationTimestamp: at(40 * 60_000),
      labels: { app: 'frontend' },
      managedFields: [
        { manager: 'kdeck', operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', time: at(40 * 60_000) },
      ],
    },
    spec: {
      replicas: 5,
      selector: { matchLabels: { app: 'frontend' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      template: {
        metadata: { labels: { app: 'frontend' } },
        spec: { containers: [FRONTEND] },
      },
    },
    status: {
      observedGeneration: 3,
      replicas: 3,
      updatedReplicas: 3,
      availableReplicas: 2,
      unavailableReplicas: 1,
      conditions: [
        { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
        { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
      ],
    },
  };
  const replicaSet: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: 'frontend-7d9',
      namespace: NS,
      uid: 'rs-frontend-7d9',
      labels: { app: 'frontend', 'pod-template-hash': '7d9' },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'Deployment', name: 'frontend', uid: 'deploy-frontend', controller: true },
      ],
    },
  };
  const pods = [
    pod('frontend-7d9-abcde', '10.1.0.11', 'b-node-1'),
    pod('frontend-7d9-fghij', '10.1.0.12', 'b-node-2', { restarts: 5, lastMsAgo: 42_000 }),
    pod('frontend-7d9-klmnopqrstuvwxyz-long-generated-name', '10.1.0.13', 'b-node-1'),
  ];
  const secret: KubeObject = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'redis-auth', namespace: NS, uid: 'secret-redis-auth', creationTimestamp: at(40 * 60_000) },
    type: 'Opaque',
    data: { password: Buffer.from('hunter2').toString('base64') },
  };
  const events = [
    event(
      'frontend.1',
      deployment,
      'Normal',
      'ScalingReplicaSet',
      'Scaled up replica set frontend-7d9 to 3',
      9 * 60_000,
    ),
    event(
      'frontend-7d9-fghij.1',
      pods[1]!,
      'Warning',
      'BackOff',
      'Back-off restarting failed container frontend in pod frontend-7d9-fghij_guestbook(frontend-7d9-fghij-uid)',
      12_000,
      14,
    ),
    event(
      'frontend-7d9-fghij.2',
      pods[1]!,
      'Normal',
      'Pulled',
      'Container image "gb-frontend:v5" already present on machine',
      42_000,
      6,
    ),
  ];
  return new Map([['sandbox-b', [deployment, replicaSet, ...pods, secret, ...events]]]);
}
