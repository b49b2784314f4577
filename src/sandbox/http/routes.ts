/**
 * Request paths to what they name: a discovery document, a health check, or a resource
 * collection, object or subresource — `/api/v1/namespaces/<ns>/pods/<name>/status`,
 * `/apis/apps/v1/deployments`, `/api/v1/namespaces/<name>` and the like.
 */
import type { ResourceRegistry, ResourceType, SubresourceName } from '../api/resources.js';

export type Route =
  | { type: 'version' }
  | { type: 'health' }
  | { type: 'coreVersions' }
  | { type: 'groups' }
  | { type: 'group'; group: string }
  | { type: 'resources'; group: string; version: string }
  | { type: 'openapiIndex' }
  | { type: 'openapi'; group: string; version: string }
  | { type: 'openapiV2' }
  | { type: 'admin'; path: string[] }
  | { type: 'resource'; resource: ResourceType; namespace?: string; name?: string; subresource?: SubresourceName }
  | { type: 'notFound' };

const NOT_FOUND: Route = { type: 'notFound' };

function decode(segments: string[]): string[] | undefined {
  try {
    return segments.map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

function resourceRoute(reg: ResourceRegistry, group: string, version: string, rest: string[]): Route {
  if (rest.length === 0) return { type: 'resources', group, version };
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const r = reg.lookup(group, version, rest[2]!);
    if (r && r.namespaced) return objectRoute(r, rest[1]!, rest.slice(3));
  }
  const r = reg.lookup(group, version, rest[0]!);
  if (!r) return NOT_FOUND;
  // a namespaced resource without a namespace is only a collection (list and watch across all)
  if (r.namespaced) return rest.length === 1 ? { type: 'resource', resource: r } : NOT_FOUND;
  return objectRoute(r, undefined, rest.slice(1));
}

function objectRoute(r: ResourceType, namespace: string | undefined, rest: string[]): Route {
  if (rest.length > 2) return NOT_FOUND;
  const route: Route = { type: 'resource', resource: r };
  if (namespace !== undefined) route.namespace = namespace;
  if (rest[0] !== undefined) route.name = rest[0];
  if (rest[1] !== undefined) {
    const sub = rest[1] as SubresourceName;
    if (!r.subresources.includes(sub)) return NOT_FOUND;
    route.subresource = sub;
  }
  return route;
}

export function routeOf(reg: ResourceRegistry, pathname: string): Route {
  const segs = decode(pathname.split('/').filter((s) => s !== ''));
  if (!segs) return NOT_FOUND;
  const [a, b, c, d] = segs;
  switch (a) {
    case 'version':
      return segs.length === 1 ? { type: 'version' } : NOT_FOUND;
    case 'healthz':
    case 'livez':
    case 'readyz':
      return { type: 'health' };
    case '__sandbox':
      return { type: 'admin', path: segs.slice(1) };
    case 'openapi':
      if (b === 'v2' && segs.length === 2) return { type: 'openapiV2' };
      if (b !== 'v3') return NOT_FOUND;
      if (segs.length === 2) return { type: 'openapiIndex' };
      if (c === 'api' && d !== undefined && segs.length === 4) return { type: 'openapi', group: '', version: d };
      if (c === 'apis' && d !== undefined && segs.length === 5) return { type: 'openapi', group: d, version: segs[4]! };
      return NOT_FOUND;
    case 'api':
      if (b === undefined) return { type: 'coreVersions' };
      return b === 'v1' ? resourceRoute(reg, '', 'v1', segs.slice(2)) : NOT_FOUND;
    case 'apis':
      if (b === undefined) return { type: 'groups' };
      if (c === undefined) return { type: 'group', group: b };
      if (!reg.groupVersions().get(b)?.includes(c)) return NOT_FOUND;
      return resourceRoute(reg, b, c, segs.slice(3));
    default:
      return NOT_FOUND;
  }
}
