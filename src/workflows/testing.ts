/**
 * A scripted cluster for engine tests: objects in a map, server-side apply as a plain replace
 * with the bookkeeping a server adds (uid, resourceVersion and its precondition, the managers),
 * failures on request. The end-to-end tests use the sandbox.
 */
import { FIELD_MANAGER, type ApplyOptions } from '../cluster/objects.js';
import { ApiError } from '../cluster/rest.js';
import type { KubeObject, ObjectRef } from '../model/kube-object.js';
import { refOf } from '../model/kube-object.js';
import type { Stack } from '../konfig/workspace.js';
import type { ClusterPort, Clusters } from './plan.js';
import type { HealthFollower } from '../health/watched-health.js';
import type { Health } from '../health/rules.js';

const managersOf = (o: KubeObject | undefined) =>
  ((o?.metadata?.managedFields ?? []) as { manager: string }[]).map((e) => e.manager);

/** A stack at `stackPath` (`appops/<project>/<stack>`), deploying to `cluster` (the current context when none). */
export function testStack(stackPath: string, cluster?: string): Stack {
  const [, project, name] = stackPath.split('/');
  return { name, dir: '/x', path: stackPath, project: { name: project, dir: '/x' }, ...(cluster ? { cluster } : {}) };
}

const keyOf = (r: ObjectRef) => `${r.apiVersion}/${r.kind}/${r.namespace ?? ''}/${r.name}`;

export class FakeCluster implements ClusterPort {
  readonly objects = new Map<string, KubeObject>();
  readonly calls: string[] = [];
  /** ids (kind/name) whose apply fails with this message. */
  readonly failing = new Map<string, string>();
  private version = 0;
  /** API calls in flight now, and the most there ever were at once. */
  inFlight = 0;
  maxInFlight = 0;
  /** When set, every call takes this long to answer (a turn of the event loop, say), so calls can overlap. */
  latency?: () => Promise<void>;

  constructor(readonly cluster: string) {}

  private async call<T>(answer: () => T): Promise<T> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.latency) await this.latency();
      return answer();
    } finally {
      this.inFlight--;
    }
  }

  /** Objects read one at a time (GET). */
  gets = 0;

  get(ref: ObjectRef): Promise<KubeObject | undefined> {
    return this.call(() => {
      this.gets++;
      const o = this.objects.get(keyOf(ref));
      return o && structuredClone(o);
    });
  }

  list(kind: Omit<ObjectRef, 'name'>): Promise<{ items: KubeObject[] }> {
    return this.call(() => {
      this.calls.push(`list ${kind.kind}${kind.namespace ? ` in ${kind.namespace}` : ''}`);
      const items = [...this.objects.values()].filter((o) => {
        const r = refOf(o);
        return r.apiVersion === kind.apiVersion && r.kind === kind.kind && r.namespace === kind.namespace;
      });
      return { items: structuredClone(items) };
    });
  }

  apply(o: KubeObject, options: ApplyOptions = {}): Promise<KubeObject> {
    return this.call(() => this.answerApply(o, options));
  }

  private answerApply(o: KubeObject, options: ApplyOptions): KubeObject {
    const ref = refOf(o);
    this.calls.push(`${options.dryRun ? 'dry-run ' : ''}apply ${ref.kind}/${ref.name}`);
    const failure = this.failing.get(`${ref.kind}/${ref.name}`);
    if (failure && !options.dryRun) throw new Error(failure);
    const existing = this.objects.get(keyOf(ref));
    // a resourceVersion in the manifest is a precondition, as on a real server
    const expected = o.metadata?.resourceVersion;
    if (existing && expected !== undefined && expected !== existing.metadata?.resourceVersion)
      throw new ApiError(
        this.cluster,
        409,
        'Conflict',
        'the object has been modified',
        `PATCH ${ref.kind}/${ref.name}`,
      );
    const managers = new Set([...managersOf(existing), FIELD_MANAGER]);
    const served: KubeObject = {
      ...structuredClone(o),
      metadata: {
        ...structuredClone(o.metadata ?? {}),
        uid: existing?.metadata?.uid ?? `uid-${ref.name}`,
        // a dry run stores nothing, so it makes no new version: the object keeps the one it has
        resourceVersion: options.dryRun ? (existing?.metadata?.resourceVersion ?? '') : String(++this.version),
        managedFields: [...managers].map((manager) => ({ manager })),
      },
      // a Service keeps the cluster IP it was given first
      ...(ref.kind === 'Service'
        ? {
            spec: {
              ...(o.spec as object),
              clusterIP: (existing?.spec as { clusterIP?: string } | undefined)?.clusterIP ?? `10.0.0.${this.version}`,
            },
          }
        : {}),
    };
    if (!options.dryRun) this.objects.set(keyOf(ref), served);
    return structuredClone(served);
  }

  delete(ref: ObjectRef): Promise<boolean> {
    return this.call(() => {
      this.calls.push(`delete ${ref.kind}/${ref.name}`);
      return this.objects.delete(keyOf(ref));
    });
  }

  async waitGone(): Promise<void> {}

  /** Changes a live object behind kdeck's back. */
  edit(ref: ObjectRef, change: (o: KubeObject) => void): void {
    const o = this.objects.get(keyOf(ref))!;
    change(o);
    const managedFields = [...new Set([...managersOf(o), 'kubectl-edit'])].map((manager) => ({ manager }));
    o.metadata = { ...o.metadata, resourceVersion: String(++this.version), managedFields };
  }

  /** Creates an object behind kdeck's back, as `manager`. */
  create(o: KubeObject, manager: string): void {
    const ref = refOf(o);
    this.objects.set(keyOf(ref), {
      ...structuredClone(o),
      metadata: {
        ...structuredClone(o.metadata ?? {}),
        uid: `uid-${ref.name}-by-${manager}`,
        resourceVersion: String(++this.version),
        managedFields: [{ manager }],
      },
    });
  }
}

export class FakeClusters implements Clusters {
  readonly byName = new Map<string, FakeCluster>();

  constructor(
    names: string[],
    private readonly current = names[0],
  ) {
    for (const n of names) this.byName.set(n, new FakeCluster(n));
  }

  resolve(context: string | undefined): string {
    return context ?? this.current;
  }

  client(context: string): FakeCluster {
    const c = this.byName.get(context);
    if (!c) throw new Error(`no cluster ${context}`);
    return c;
  }
}

/**
 * A health follower whose verdicts the test gives: every applied object waits, as `kind/name`,
 * until the test calls `healthy` (or `degraded`) for it; an abort ends the wait as a real one does.
 */
export class ScriptedHealth {
  /** Objects waiting for their verdict now, as kind/name, and the most there ever were at once. */
  readonly waiting = new Map<string, (h: Health) => void>();
  maxWaiting = 0;

  readonly follow: HealthFollower = (_cluster, object, { signal, onHealth }) =>
    new Promise<Health>((resolve) => {
      const name = `${String(object.kind)}/${String(object.metadata?.name)}`;
      const done = (h: Health) => {
        this.waiting.delete(name);
        onHealth(h);
        resolve(h);
      };
      this.waiting.set(name, done);
      this.maxWaiting = Math.max(this.maxWaiting, this.waiting.size);
      signal.addEventListener('abort', () => done({ state: 'Progressing', message: 'interrupted' }), { once: true });
    });

  healthy(name: string): void {
    const done = this.waiting.get(name);
    if (!done)
      throw new Error(`${name} is not waiting for its health (waiting: ${[...this.waiting.keys()].join(', ')})`);
    done({ state: 'Healthy', message: 'ready' });
  }
}
