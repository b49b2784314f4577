/**
 * A scripted cluster for engine tests: objects in a map, server-side apply as a plain replace
 * with the bookkeeping a server adds, failures on request. The end-to-end tests use the sandbox.
 */
import type { ApplyOptions } from '../cluster/objects.js';
import type { KubeObject, ObjectRef } from '../model/kube-object.js';
import { refOf } from '../model/kube-object.js';
import type { ClusterPort, Clusters } from './plan.js';

const keyOf = (r: ObjectRef) => `${r.apiVersion}/${r.kind}/${r.namespace ?? ''}/${r.name}`;

export class FakeCluster implements ClusterPort {
  readonly objects = new Map<string, KubeObject>();
  readonly calls: string[] = [];
  /** ids (kind/name) whose apply fails with this message. */
  readonly failing = new Map<string, string>();
  private version = 0;

  constructor(readonly cluster: string) {}

  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    const o = this.objects.get(keyOf(ref));
    return o && structuredClone(o);
  }

  async apply(o: KubeObject, options: ApplyOptions = {}): Promise<KubeObject> {
    const ref = refOf(o);
    this.calls.push(`${options.dryRun ? 'dry-run ' : ''}apply ${ref.kind}/${ref.name}`);
    const failure = this.failing.get(`${ref.kind}/${ref.name}`);
    if (failure && !options.dryRun) throw new Error(failure);
    const existing = this.objects.get(keyOf(ref));
    const served: KubeObject = {
      ...structuredClone(o),
      metadata: {
        ...structuredClone(o.metadata ?? {}),
        uid: existing?.metadata?.uid ?? `uid-${ref.name}`,
        resourceVersion: String(++this.version),
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

  async delete(ref: ObjectRef): Promise<boolean> {
    this.calls.push(`delete ${ref.kind}/${ref.name}`);
    return this.objects.delete(keyOf(ref));
  }

  async waitGone(): Promise<void> {}

  /** Changes a live object behind kdeck's back. */
  edit(ref: ObjectRef, change: (o: KubeObject) => void): void {
    const o = this.objects.get(keyOf(ref))!;
    change(o);
    o.metadata = { ...o.metadata, resourceVersion: String(++this.version) };
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
