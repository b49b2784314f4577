/**
 * Objects of one resource by namespace and by the `key=value` pairs of one of their maps (a pod's
 * labels, a Service's selector), kept up to date from the store's events. The endpoints
 * controller asks it which pods a Service selects and which Services select a pod: scanning the
 * namespace for both made each pod change cost every Service and each Service every pod, so a
 * namespace of a hundred Services spent most of an apply there.
 */
import type { KubeObject } from '../api/object.js';
import type { Store, StoreEvent } from '../api/store.js';

type Pairs = Readonly<Record<string, string>>;

const SEP = '\u0000';

export class PairIndex {
  /** namespace → `key\0value` → names */
  private readonly buckets = new Map<string, Map<string, Set<string>>>();
  /** `namespace\0name` → the pairs it is indexed under */
  private readonly indexed = new Map<string, Pairs>();
  private readonly unsubscribe: () => void;

  constructor(
    store: Store,
    private readonly resource: string,
    private readonly pairsOf: (o: KubeObject) => Pairs | undefined,
  ) {
    for (const o of store.list(resource)) this.add(o);
    this.unsubscribe = store.subscribe((e) => this.onEvent(e));
  }

  close(): void {
    this.unsubscribe();
  }

  private onEvent(e: StoreEvent): void {
    if (e.resource !== this.resource) return;
    // most writes leave the map alone (a pod's status, a Service's status): the store shares an
    // unchanged part between an object's states, so the same map is the same object
    if (e.type === 'MODIFIED' && e.old && this.pairsOf(e.old) === this.pairsOf(e.object)) return;
    if (e.old) this.drop(e.old);
    if (e.type !== 'DELETED') this.add(e.object);
  }

  private add(o: KubeObject): void {
    const pairs = this.pairsOf(o);
    if (!pairs) return;
    const ns = o.metadata.namespace ?? '';
    const name = o.metadata.name ?? '';
    this.indexed.set(ns + SEP + name, pairs);
    let byPair = this.buckets.get(ns);
    if (!byPair) this.buckets.set(ns, (byPair = new Map()));
    for (const [k, v] of Object.entries(pairs)) {
      const pair = k + SEP + v;
      let names = byPair.get(pair);
      if (!names) byPair.set(pair, (names = new Set()));
      names.add(name);
    }
  }

  private drop(o: KubeObject): void {
    const ns = o.metadata.namespace ?? '';
    const name = o.metadata.name ?? '';
    const pairs = this.indexed.get(ns + SEP + name);
    if (!pairs) return;
    this.indexed.delete(ns + SEP + name);
    const byPair = this.buckets.get(ns);
    for (const [k, v] of Object.entries(pairs)) {
      const pair = k + SEP + v;
      const names = byPair?.get(pair);
      names?.delete(name);
      if (names?.size === 0) byPair!.delete(pair);
    }
  }

  /** Names in `namespace`, sorted, of the objects whose map holds every pair of `want` (none for an empty `want`). */
  including(namespace: string, want: Pairs): string[] {
    const byPair = this.buckets.get(namespace);
    const entries = Object.entries(want);
    if (!byPair || entries.length === 0) return [];
    // the rarest pair's objects are the fewest to check for the others
    let smallest: Set<string> | undefined;
    for (const [k, v] of entries) {
      const names = byPair.get(k + SEP + v);
      if (!names) return [];
      if (!smallest || names.size < smallest.size) smallest = names;
    }
    const out: string[] = [];
    for (const name of smallest!) {
      const pairs = this.indexed.get(namespace + SEP + name)!;
      if (entries.every(([k, v]) => pairs[k] === v)) out.push(name);
    }
    return out.sort();
  }

  /** Names in `namespace`, sorted, of the objects whose map is not empty and holds only pairs of `labels`. */
  within(namespace: string, labels: Pairs | undefined): string[] {
    const byPair = this.buckets.get(namespace);
    if (!byPair || !labels) return [];
    const out = new Set<string>();
    for (const [k, v] of Object.entries(labels)) {
      for (const name of byPair.get(k + SEP + v) ?? []) {
        if (out.has(name)) continue;
        const pairs = this.indexed.get(namespace + SEP + name)!;
        if (Object.entries(pairs).every(([pk, pv]) => labels[pk] === pv)) out.add(name);
      }
    }
    return [...out].sort();
  }
}

/** The pair indexes the controllers read: pods by labels, Services by selector, EndpointSlices by labels. */
export interface LabelIndexes {
  readonly pods: PairIndex;
  readonly services: PairIndex;
  readonly endpointSlices: PairIndex;
}

export function labelIndexes(store: Store): LabelIndexes {
  const labels = (o: KubeObject) => o.metadata.labels;
  return {
    pods: new PairIndex(store, '/pods', labels),
    services: new PairIndex(store, '/services', (o) => (o.spec as { selector?: Pairs } | undefined)?.selector),
    endpointSlices: new PairIndex(store, 'discovery.k8s.io/endpointslices', labels),
  };
}

export function closeLabelIndexes(ix: LabelIndexes): void {
  for (const index of [ix.pods, ix.services, ix.endpointSlices]) index.close();
}
