/**
 * What a namespace uses of the resources a ResourceQuota can limit: object counts (`pods`,
 * `configmaps`, `count/deployments.apps`…), the compute its live pods request and are limited
 * to, and the storage its claims request. The quota controller writes it as status.used;
 * admission adds a new object's share to it.
 */
import { getPath, isMap, type JsonMap } from '../json.js';
import type { ApiContext } from './context.js';
import type { KubeObject } from './object.js';
import { parseQuantity } from './quantity.js';
import type { ResourceType } from './resources.js';

/** Core resources a quota counts by their bare plural. */
const COUNTED = new Set([
  'pods',
  'services',
  'configmaps',
  'secrets',
  'persistentvolumeclaims',
  'replicationcontrollers',
  'resourcequotas',
]);

/** The count keys one object of a type adds to. */
export function countKeys(r: Pick<ResourceType, 'group' | 'plural'>): string[] {
  const keys = [r.group === '' ? `count/${r.plural}` : `count/${r.plural}.${r.group}`];
  if (r.group === '' && COUNTED.has(r.plural)) keys.push(r.plural);
  return keys;
}

function isLive(pod: KubeObject): boolean {
  const phase = getPath(pod, ['status', 'phase']);
  return phase !== 'Succeeded' && phase !== 'Failed';
}

/** The quota keys of compute: `requests.cpu` and `cpu` are one thing. */
function computeKey(k: string): { kind: 'requests' | 'limits'; resource: string } | undefined {
  const m = /^(?:(requests|limits)\.)?(cpu|memory|ephemeral-storage)$/.exec(k);
  if (!m) return undefined;
  return { kind: (m[1] ?? 'requests') as 'requests' | 'limits', resource: m[2]! };
}

export interface PodResources {
  totals: Map<string, number>;
  /** The containers that leave out what a quota key needs. */
  missing(key: string): string[];
}

export function podResources(pod: KubeObject): PodResources {
  const containers = ((getPath(pod, ['spec', 'containers']) as unknown[] | undefined) ?? []).filter(isMap);
  const value = (c: JsonMap, kind: string, resource: string): number | undefined => {
    const v = getPath(c, ['resources', kind, resource]);
    // a limit alone also sets the request, as the API server defaults it
    if (v === undefined && kind === 'requests') return parseQuantity(getPath(c, ['resources', 'limits', resource]));
    return parseQuantity(v);
  };
  const totals = new Map<string, number>();
  for (const kind of ['requests', 'limits'])
    for (const resource of ['cpu', 'memory', 'ephemeral-storage']) {
      const sum = containers.reduce((s, c) => s + (value(c, kind, resource) ?? 0), 0);
      totals.set(`${kind}.${resource}`, sum);
      if (kind === 'requests') totals.set(resource, sum);
    }
  totals.set('pods', 1);
  totals.set('count/pods', 1);
  return {
    totals,
    missing(key) {
      const ck = computeKey(key);
      if (!ck) return [];
      return containers.filter((c) => value(c, ck.kind, ck.resource) === undefined).map((c) => String(c.name));
    },
  };
}

/** The namespace's usage of each key. */
export function quotaUsage(ctx: ApiContext, ns: string, keys: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  let pods: KubeObject[] | undefined;
  const livePods = () => (pods ??= ctx.store.list('/pods', ns).filter(isLive));
  for (const k of keys) {
    if (k === 'pods' || k === 'count/pods') {
      out.set(k, livePods().length);
    } else if (computeKey(k)) {
      out.set(
        k,
        livePods().reduce((s, p) => s + (podResources(p).totals.get(k) ?? 0), 0),
      );
    } else if (k === 'requests.storage') {
      const claims = ctx.store.list('/persistentvolumeclaims', ns);
      out.set(
        k,
        claims.reduce((s, c) => s + (parseQuantity(getPath(c, ['spec', 'resources', 'requests', 'storage'])) ?? 0), 0),
      );
    } else if (k === 'services.nodeports' || k === 'services.loadbalancers') {
      const type = k === 'services.nodeports' ? 'NodePort' : 'LoadBalancer';
      out.set(k, ctx.store.list('/services', ns).filter((s) => getPath(s, ['spec', 'type']) === type).length);
    } else if (COUNTED.has(k)) {
      out.set(k, ctx.store.list(`/${k}`, ns).length);
    } else if (k.startsWith('count/')) {
      const [plural, ...group] = k.slice(6).split('.');
      out.set(k, ctx.store.list(`${group.join('.')}/${plural ?? ''}`, ns).length);
    }
  }
  return out;
}
