/**
 * The resources kdeck works on, as every stage sees them: kusion's resource model (`id`, `type`,
 * `dependsOn`, `attributes`, `extensions`) and the Kubernetes id format.
 */
export type Attributes = Record<string, unknown>;

export interface Resource {
  id: string;
  /** The runtime that owns the resource; kdeck applies `Kubernetes` ones. */
  type: string;
  dependsOn?: string[];
  attributes: Attributes;
  /** Free-form metadata; `cluster` overrides the stack's cluster for this resource. */
  extensions?: Attributes;
}

export interface Spec {
  resources: Resource[];
}

export const KUBERNETES = 'Kubernetes';

export function isObject(x: unknown): x is Attributes {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** `x` when it is a mapping, else an empty one: for reading fields of untrusted objects. */
export function asObject(x: unknown): Attributes {
  return isObject(x) ? x : {};
}

/** `apiVersion:Kind:namespace:name`, or `apiVersion:Kind:name` for an object without a namespace. */
export function kubernetesId(apiVersion: string, kind: string, name: string, namespace?: string): string {
  return namespace ? `${apiVersion}:${kind}:${namespace}:${name}` : `${apiVersion}:${kind}:${name}`;
}

/** The id of a Kubernetes manifest, or the reason it has none. */
export function manifestId(obj: Attributes): string | { missing: string } {
  const metadata = isObject(obj.metadata) ? obj.metadata : {};
  const field = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const apiVersion = field(obj.apiVersion);
  const kind = field(obj.kind);
  const name = field(metadata.name);
  const missing = [!apiVersion && 'apiVersion', !kind && 'kind', !name && 'metadata.name'].filter(Boolean);
  if (!apiVersion || !kind || !name) return { missing: missing.join(', ') };
  return kubernetesId(apiVersion, kind, name, field(metadata.namespace));
}

/** The cluster a resource goes to: its own `extensions.cluster`, else its stack's. */
export function clusterOf(resource: Resource, stackCluster: string | undefined): string | undefined {
  const own = resource.extensions?.cluster;
  return typeof own === 'string' && own !== '' ? own : stackCluster;
}
