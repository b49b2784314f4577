/**
 * Resource ids as people read them: the parts of `apiVersion:Kind:namespace:name` and the short
 * `Kind/namespace/name` form the screens and messages use.
 */
export interface IdParts {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

/** `apps/v1:Deployment:shop:web` → its parts. */
export function idParts(id: string): IdParts {
  const [apiVersion = '', kind = '', ...rest] = id.split(':');
  return rest.length > 1
    ? { apiVersion, kind, namespace: rest[0], name: rest.slice(1).join(':') }
    : { apiVersion, kind, name: rest[0] ?? '' };
}

/** `Deployment/shop/web`: what a person calls a resource. */
export function shortId(id: string): string {
  const p = idParts(id);
  return [p.kind, p.namespace, p.name].filter(Boolean).join('/');
}
