/**
 * Discovery: the documents clients read to map kinds to resources. The legacy ones
 * (APIVersions, APIGroupList, APIGroup, APIResourceList) and the aggregated one
 * (apidiscovery.k8s.io/v2 APIGroupDiscoveryList) that kubectl asks for first.
 */
import type { JsonMap } from '../json.js';
import { apiVersionOf, type ResourceRegistry, type ResourceType, type SubresourceName } from './resources.js';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

interface SubresourceInfo {
  verbs: string[];
  group?: string;
  version?: string;
  kind?: string;
}

const SUBRESOURCES: Record<SubresourceName, SubresourceInfo> = {
  status: { verbs: ['get', 'patch', 'update'] },
  scale: { verbs: ['get', 'patch', 'update'], group: 'autoscaling', version: 'v1', kind: 'Scale' },
  eviction: { verbs: ['create'], group: 'policy', version: 'v1', kind: 'Eviction' },
  log: { verbs: ['get'] },
  finalize: { verbs: ['update'] },
  token: { verbs: ['create'], group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' },
};

/** What a type takes: a review is only created; everything else takes every verb. */
function verbsOf(r: ResourceType): string[] {
  return r.virtual ? ['create'] : VERBS;
}

function resourceEntries(r: ResourceType): JsonMap[] {
  const main: JsonMap = {
    name: r.plural,
    singularName: r.singular,
    namespaced: r.namespaced,
    kind: r.kind,
    verbs: verbsOf(r),
  };
  if (r.shortNames.length > 0) main.shortNames = r.shortNames;
  if (r.categories.length > 0) main.categories = r.categories;
  const subs = r.subresources.map((s) => {
    const info = SUBRESOURCES[s];
    const e: JsonMap = {
      name: `${r.plural}/${s}`,
      singularName: '',
      namespaced: r.namespaced,
      kind: info.kind ?? r.kind,
      verbs: info.verbs,
    };
    if (info.group !== undefined) {
      e.group = info.group;
      e.version = info.version;
    }
    return e;
  });
  return [main, ...subs];
}

export function apiVersions(serverAddress: string): JsonMap {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function groupEntry(name: string, versions: string[]): JsonMap {
  const vs = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions: vs, preferredVersion: vs[0] };
}

export function apiGroupList(reg: ResourceRegistry): JsonMap {
  const groups = [...reg.groupVersions()].filter(([g]) => g !== '').map(([g, vs]) => groupEntry(g, vs));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

export function apiGroup(reg: ResourceRegistry, group: string): JsonMap | undefined {
  const vs = reg.groupVersions().get(group);
  if (!vs || group === '') return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(group, vs) };
}

export function apiResourceList(reg: ResourceRegistry, group: string, version: string): JsonMap | undefined {
  const rs = reg.inGroupVersion(group, version);
  if (rs.length === 0) return undefined;
  // sorted by name, so each resource comes before its subresources (client-node takes the first match)
  const resources = rs.flatMap(resourceEntries).sort((a, b) => String(a.name).localeCompare(String(b.name)));
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf({ group, version }), resources };
}

function aggregatedResource(r: ResourceType): JsonMap {
  const e: JsonMap = {
    resource: r.plural,
    responseKind: { group: r.group, version: r.version, kind: r.kind },
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singular,
    verbs: verbsOf(r),
  };
  if (r.shortNames.length > 0) e.shortNames = r.shortNames;
  if (r.categories.length > 0) e.categories = r.categories;
  if (r.subresources.length > 0) {
    e.subresources = r.subresources.map((s) => {
      const info = SUBRESOURCES[s];
      return {
        subresource: s,
        responseKind: { group: info.group ?? r.group, version: info.version ?? r.version, kind: info.kind ?? r.kind },
        verbs: info.verbs,
      };
    });
  }
  return e;
}

export type AggregatedVersion = 'v2' | 'v2beta1';

/** The aggregated discovery document of the core group (`/api`) or of all named groups (`/apis`). */
export function aggregatedDiscovery(reg: ResourceRegistry, core: boolean, version: AggregatedVersion): JsonMap {
  const items = [...reg.groupVersions()]
    .filter(([g]) => (g === '') === core)
    .map(([g, vs]) => ({
      metadata: core ? { creationTimestamp: null } : { name: g, creationTimestamp: null },
      versions: vs.map((v) => ({
        version: v,
        resources: reg.inGroupVersion(g, v).map(aggregatedResource),
        freshness: 'Current',
      })),
    }));
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items };
}

/** Which aggregated discovery version an Accept header asks for, if any. */
export function aggregatedAsked(accept: string | undefined): AggregatedVersion | undefined {
  if (!accept) return undefined;
  for (const part of accept.split(',')) {
    const p = part.replace(/\s+/g, '');
    if (!p.includes('as=APIGroupDiscoveryList') || !p.includes('g=apidiscovery.k8s.io')) continue;
    if (p.includes('v=v2beta1')) return 'v2beta1';
    if (p.includes('v=v2')) return 'v2';
  }
  return undefined;
}
