/**
 * One cluster's objects, in memory: the tables, the cluster-wide resourceVersion counter (as etcd's
 * revision), the recent event history that watches resume from, and an index of dependents by
 * owner uid for garbage collection. The store knows nothing of validation or HTTP; it only
 * keeps what it is given and tells its listeners, in order, synchronously.
 *
 * Stored objects are never mutated after they are handed in: a writer copies, changes and
 * writes back, so readers and queued watch events can share them safely.
 */
import { objectKey, type KubeObject } from './object.js';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: EventType;
  /** The resource key, `group/plural`. */
  resource: string;
  rv: number;
  /** The state after the write; for DELETED, the last state stamped with the deletion's RV. */
  object: KubeObject;
  /** The state before the write, for MODIFIED and DELETED. */
  old?: KubeObject;
  /** The object's JSON while watchers still have lines of it to make (see `eventJson`). */
  json: string | undefined;
  /** Who still needs that JSON: the watchers still to make their lines, and the write while it tells them. */
  lines: number;
}

export type StoreListener = (e: StoreEvent) => void;

/**
 * The JSON of an event's object while watchers still have lines of it to make: made by the first
 * of them, shared by the rest, and let go with the last (a watch resuming later makes it again).
 * Kept with the event, it would stay as long as the event stays in the history, thousands of
 * writes, and hold tens of MB of text nobody reads again. A watcher says it will make a line with
 * `expectJson`, and that it made it (or never will) with `releaseJson`.
 */
export function expectJson(e: StoreEvent): void {
  e.lines++;
}

export function eventJson(e: StoreEvent): string {
  if (e.lines === 0) return JSON.stringify(e.object);
  e.json ??= JSON.stringify(e.object);
  return e.json;
}

export function releaseJson(e: StoreEvent): void {
  if (e.lines === 0) return;
  if (--e.lines === 0) e.json = undefined;
}

export interface StoreSnapshot {
  resourceVersion: number;
  objects: { resource: string; object: KubeObject }[];
}

interface Ref {
  resource: string;
  namespace: string;
  name: string;
}

const FIRST_RV = 1000;

export class Store {
  private rv: number;
  /** resource → namespace ('' for cluster-scoped) → name → object */
  private readonly tables = new Map<string, Map<string, Map<string, KubeObject>>>();
  private readonly history: (StoreEvent | undefined)[];
  private historyStart = 0;
  private historyLength = 0;
  /** Every event with an RV at or below this one has left the history. */
  private compactedRv: number;
  /** List continuations issued at or below this RV were made before a compaction. */
  private compactionRv = 0;
  private readonly listeners = new Set<StoreListener>();
  private readonly dependentsByOwner = new Map<string, Map<string, Ref>>();

  constructor(historySize = 5_000, startRv = FIRST_RV) {
    this.history = new Array<StoreEvent | undefined>(Math.max(1, historySize));
    this.rv = startRv;
    this.compactedRv = startRv;
  }

  get resourceVersion(): number {
    return this.rv;
  }

  /** The RV of the last explicit compaction: older list continuations have expired. */
  get lastCompaction(): number {
    return this.compactionRv;
  }

  /** The oldest RV a watch may resume from without 410 Gone. */
  get oldestResumableRv(): number {
    return this.compactedRv;
  }

  subscribe(l: StoreListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  get(resource: string, namespace: string, name: string): KubeObject | undefined {
    return this.tables.get(resource)?.get(namespace)?.get(name);
  }

  /** Objects of a resource, sorted by namespace then name; one namespace, or all when undefined. */
  list(resource: string, namespace?: string): KubeObject[] {
    const table = this.tables.get(resource);
    if (!table) return [];
    const namespaces = namespace === undefined ? [...table.keys()].sort() : [namespace];
    const out: KubeObject[] = [];
    for (const ns of namespaces) {
      const names = table.get(ns);
      if (!names) continue;
      for (const n of [...names.keys()].sort()) out.push(names.get(n)!);
    }
    return out;
  }

  count(resource: string): number {
    let n = 0;
    for (const names of this.tables.get(resource)?.values() ?? []) n += names.size;
    return n;
  }

  /** Stores a new object, stamping its resourceVersion. */
  create(resource: string, obj: KubeObject): KubeObject {
    return this.write('ADDED', resource, obj, undefined);
  }

  update(resource: string, obj: KubeObject): KubeObject {
    const old = this.get(resource, obj.metadata.namespace ?? '', obj.metadata.name ?? '');
    return this.write(old ? 'MODIFIED' : 'ADDED', resource, obj, old);
  }

  remove(resource: string, namespace: string, name: string): KubeObject | undefined {
    const old = this.get(resource, namespace, name);
    if (!old) return undefined;
    const last: KubeObject = { ...old, metadata: { ...old.metadata } };
    return this.write('DELETED', resource, last, old);
  }

  private write(type: EventType, resource: string, obj: KubeObject, old: KubeObject | undefined): KubeObject {
    this.rv++;
    obj.metadata.resourceVersion = String(this.rv);
    const ns = obj.metadata.namespace ?? '';
    const name = obj.metadata.name ?? '';
    let table = this.tables.get(resource);
    if (!table) this.tables.set(resource, (table = new Map()));
    let names = table.get(ns);
    if (!names) table.set(ns, (names = new Map()));
    if (type === 'DELETED') {
      names.delete(name);
      if (names.size === 0) table.delete(ns);
    } else {
      names.set(name, obj);
    }
    this.indexOwners(resource, old, type === 'DELETED' ? undefined : obj);
    // every field set here, in one order: the history holds thousands of these. The write holds
    // its text while it tells its listeners, so a line made meanwhile keeps it for the ones after
    const e: StoreEvent = { type, resource, rv: this.rv, object: obj, old, json: undefined, lines: 1 };
    this.remember(e);
    try {
      for (const l of this.listeners) l(e);
    } finally {
      releaseJson(e);
    }
    return obj;
  }

  private remember(e: StoreEvent): void {
    const cap = this.history.length;
    if (this.historyLength === cap) {
      this.compactedRv = this.history[this.historyStart]!.rv;
      this.history[this.historyStart] = e;
      this.historyStart = (this.historyStart + 1) % cap;
    } else {
      this.history[(this.historyStart + this.historyLength) % cap] = e;
      this.historyLength++;
    }
  }

  /** Events after `rv`, oldest first, or 'expired' when some of them have left the history. */
  eventsAfter(rv: number): StoreEvent[] | 'expired' {
    if (rv < this.compactedRv) return 'expired';
    const cap = this.history.length;
    const at = (i: number) => this.history[(this.historyStart + i) % cap]!;
    let lo = 0;
    let hi = this.historyLength;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at(mid).rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    const out: StoreEvent[] = [];
    for (let i = lo; i < this.historyLength; i++) out.push(at(i));
    return out;
  }

  /** Forgets the event history, so any older RV now gets 410 Gone. */
  compact(): void {
    this.history.fill(undefined);
    this.historyStart = 0;
    this.historyLength = 0;
    this.compactedRv = this.rv;
    this.compactionRv = this.rv;
  }

  private indexOwners(resource: string, old: KubeObject | undefined, next: KubeObject | undefined): void {
    const ref = old ?? next!;
    const key = `${resource}|${objectKey(ref.metadata.namespace ?? '', ref.metadata.name ?? '')}`;
    for (const o of old?.metadata.ownerReferences ?? []) this.dependentsByOwner.get(o.uid)?.delete(key);
    for (const o of next?.metadata.ownerReferences ?? []) {
      let deps = this.dependentsByOwner.get(o.uid);
      if (!deps) this.dependentsByOwner.set(o.uid, (deps = new Map()));
      deps.set(key, { resource, namespace: ref.metadata.namespace ?? '', name: ref.metadata.name ?? '' });
    }
    for (const o of old?.metadata.ownerReferences ?? []) {
      if (this.dependentsByOwner.get(o.uid)?.size === 0) this.dependentsByOwner.delete(o.uid);
    }
  }

  /** Objects whose ownerReferences name this uid. */
  dependents(ownerUid: string): { resource: string; object: KubeObject }[] {
    const out: { resource: string; object: KubeObject }[] = [];
    for (const r of this.dependentsByOwner.get(ownerUid)?.values() ?? []) {
      const o = this.get(r.resource, r.namespace, r.name);
      if (o) out.push({ resource: r.resource, object: o });
    }
    return out;
  }

  snapshot(): StoreSnapshot {
    const objects: StoreSnapshot['objects'] = [];
    for (const [resource, table] of this.tables) {
      for (const names of table.values()) for (const object of names.values()) objects.push({ resource, object });
    }
    return { resourceVersion: this.rv, objects };
  }

  /** Loads a snapshot into an empty store without events; the RV never goes backwards. */
  restore(s: StoreSnapshot): void {
    for (const { resource, object } of s.objects) {
      let table = this.tables.get(resource);
      if (!table) this.tables.set(resource, (table = new Map()));
      const ns = object.metadata.namespace ?? '';
      let names = table.get(ns);
      if (!names) table.set(ns, (names = new Map()));
      names.set(object.metadata.name ?? '', object);
      this.indexOwners(resource, undefined, object);
    }
    this.rv = Math.max(this.rv, s.resourceVersion);
    this.compactedRv = this.rv;
  }
}
