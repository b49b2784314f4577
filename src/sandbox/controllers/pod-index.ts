/**
 * Which pods sit on which node, and which pod IPs each node has handed out, kept up to date from
 * the store's events so the scheduler and the kubelet need not scan every pod.
 */
import type { Store, StoreEvent } from '../api/store.js';
import type { Pod } from './kinds.js';

export class PodIndex {
  private readonly byNode = new Map<string, Set<string>>();
  private readonly ipsByNode = new Map<string, Set<string>>();
  /** Pods on each node that still run or may run (not Succeeded or Failed). */
  private readonly activeByNode = new Map<string, number>();
  private readonly unsubscribe: () => void;

  constructor(store: Store) {
    for (const p of store.list('/pods')) this.add(p as Pod);
    this.unsubscribe = store.subscribe((e) => this.onEvent(e));
  }

  close(): void {
    this.unsubscribe();
  }

  private onEvent(e: StoreEvent): void {
    if (e.resource !== '/pods') return;
    if (e.old) this.drop(e.old as Pod);
    if (e.type !== 'DELETED') this.add(e.object as Pod);
  }

  private static key(p: Pod): string {
    return `${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''}`;
  }

  private static active(p: Pod): boolean {
    return p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed';
  }

  private add(p: Pod): void {
    const node = p.spec.nodeName;
    if (!node) return;
    let pods = this.byNode.get(node);
    if (!pods) this.byNode.set(node, (pods = new Set()));
    pods.add(PodIndex.key(p));
    if (PodIndex.active(p)) this.activeByNode.set(node, (this.activeByNode.get(node) ?? 0) + 1);
    const ip = p.status?.podIP;
    if (ip) {
      let ips = this.ipsByNode.get(node);
      if (!ips) this.ipsByNode.set(node, (ips = new Set()));
      ips.add(ip);
    }
  }

  private drop(p: Pod): void {
    const node = p.spec.nodeName;
    if (!node) return;
    this.byNode.get(node)?.delete(PodIndex.key(p));
    if (PodIndex.active(p)) this.activeByNode.set(node, (this.activeByNode.get(node) ?? 1) - 1);
    const ip = p.status?.podIP;
    if (ip) this.ipsByNode.get(node)?.delete(ip);
  }

  /** `namespace/name` of the pods bound to a node. */
  podsOn(node: string): ReadonlySet<string> {
    return this.byNode.get(node) ?? new Set();
  }

  /** How many pods on a node count against its capacity. */
  activeOn(node: string): number {
    return this.activeByNode.get(node) ?? 0;
  }

  ipInUse(node: string, ip: string): boolean {
    return this.ipsByNode.get(node)?.has(ip) ?? false;
  }
}
