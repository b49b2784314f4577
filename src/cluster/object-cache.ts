/**
 * The objects of one kind in one namespace, kept current by a resilient watch (list, then
 * events; a relist replaces everything): what a loop that waits for pods to turn Ready reads
 * instead of listing the namespace again and again, and what wakes it when something changed.
 * It keeps the objects without their `metadata.managedFields`, as controller-runtime's caches
 * are told to: what the server records of who set which field is half of a pod's JSON, and
 * nothing that reads the cache looks at it, so the objects a run holds stay small and the old
 * versions it drops are cheap to collect.
 */
import type { Listed, ObjectClient } from './objects.js';
import { withoutManagedFields, type KubeObject } from '../model/kube-object.js';
import { watchObjects, type WatchTarget } from './watch.js';

export class ObjectCache {
  private readonly objects = new Map<string, KubeObject>();
  private readonly listeners = new Set<() => void>();
  private readonly controller = new AbortController();
  private listing = true;
  private readonly first: Promise<void>;

  /** `from`: a list of the target just made, which the cache starts from instead of listing again. */
  constructor(client: ObjectClient, target: WatchTarget, from?: Listed) {
    let resolveFirst: () => void = () => undefined;
    this.first = new Promise((r) => (resolveFirst = r));
    const keyOf = (o: KubeObject) => String(o.metadata?.uid ?? `${o.metadata?.namespace}/${o.metadata?.name}`);
    void watchObjects(
      client,
      target,
      (e) => {
        if (e.type === 'DELETED') this.objects.delete(keyOf(e.object));
        else this.objects.set(keyOf(e.object), withoutManagedFields(e.object));
        // a list's objects come in one burst: its listeners hear once, after it
        if (!this.listing) this.notify();
      },
      {
        signal: this.controller.signal,
        ...(from ? { from } : {}),
        onList: () => {
          // a (re)list's objects follow at once, within this turn: what was seen before may be gone
          this.objects.clear();
          this.listing = true;
          queueMicrotask(() => {
            this.listing = false;
            resolveFirst();
            this.notify();
          });
        },
      },
    );
  }

  /** Resolves once the first list has arrived. */
  ready(): Promise<void> {
    return this.first;
  }

  items(): KubeObject[] {
    return [...this.objects.values()];
  }

  /** The object with this uid, if the cache holds it. */
  get(uid: string): KubeObject | undefined {
    return this.objects.get(uid);
  }

  /** Calls `listener` after every change; returns the way to stop. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const l of this.listeners) l();
  }

  close(): void {
    this.controller.abort();
    this.listeners.clear();
  }
}
