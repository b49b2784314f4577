/**
 * A Kubernetes object as kdeck reads it from a cluster or a manifest: loosely typed (any kind,
 * any version), with the few fields every object has, and the reference that names it.
 */
export type KubeObject = Record<string, unknown> & {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; [k: string]: unknown };
};

export interface ObjectRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

export function refOf(o: KubeObject): ObjectRef {
  return {
    apiVersion: String(o.apiVersion),
    kind: String(o.kind),
    name: String(o.metadata?.name),
    ...(o.metadata?.namespace ? { namespace: String(o.metadata.namespace) } : {}),
  };
}
