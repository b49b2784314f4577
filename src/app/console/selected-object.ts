/**
 * The object a per-object view or action is about: where it lives (context, namespace), what it
 * is and, for a pod, its containers. The console's selection (a stack's resource, a pod of a
 * workload) comes down to one of these, and everything per object (describe, YAML, logs, a
 * shell, restart, scale, delete, the kubectl command that does the same) takes it.
 */
import { idParts } from '../../model/ids.js';
import type { KubeObject } from '../../model/kube-object.js';
import { containerNames } from '../pods/objects.js';

export interface SelectedObject {
  /** The kube context (the cluster) it lives on. */
  cluster: string;
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
  /** A pod's containers, in the order of its spec (init containers not among them). */
  containers?: string[];
}

/** Kinds `kubectl rollout restart` takes. */
export const RESTARTABLE: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);
/** Kinds `kubectl scale` takes. */
export const SCALABLE: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet', 'ReplicaSet']);

/** A stack's resource, by its id, on its cluster. */
export function resourceObject(cluster: string, id: string): SelectedObject {
  const p = idParts(id);
  return {
    cluster,
    apiVersion: p.apiVersion,
    kind: p.kind,
    name: p.name,
    ...(p.namespace ? { namespace: p.namespace } : {}),
  };
}

/** A pod as read from the cluster. */
export function podObject(cluster: string, pod: KubeObject): SelectedObject {
  return {
    cluster,
    apiVersion: 'v1',
    kind: 'Pod',
    name: String(pod.metadata?.name ?? ''),
    ...(pod.metadata?.namespace ? { namespace: String(pod.metadata.namespace) } : {}),
    containers: containerNames(pod),
  };
}

/** Whether two selections name the same object. */
export const sameObject = (a: SelectedObject, b: SelectedObject): boolean =>
  a.cluster === b.cluster &&
  a.kind === b.kind &&
  a.namespace === b.namespace &&
  a.name === b.name &&
  a.apiVersion === b.apiVersion;
