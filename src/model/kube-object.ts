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

/**
 * The object without `metadata.managedFields`: the server's record of which manager set which
 * field, which only an explicit look at it (`kubectl get --show-managed-fields`) wants.
 */
export function withoutManagedFields(o: KubeObject): KubeObject {
  if (o.metadata?.managedFields === undefined) return o;
  const { managedFields: _, ...metadata } = o.metadata;
  return { ...o, metadata };
}

const API_VERSION: Readonly<Record<string, string>> = {
  Deployment: 'apps/v1',
  StatefulSet: 'apps/v1',
  DaemonSet: 'apps/v1',
  ReplicaSet: 'apps/v1',
  Job: 'batch/v1',
  PodDisruptionBudget: 'policy/v1',
};

/** The API version of the built-in kinds kdeck reads by kind alone: the workloads and budgets, else the core group (Pod, Service). */
export const apiVersionOf = (kind: string): string => API_VERSION[kind] ?? 'v1';
