/**
 * Which pods belong to an object, as the controllers see it: a workload's pods are those whose
 * controlling owner reference leads to it (Deployment → ReplicaSet → Pod, or straight from a
 * StatefulSet, DaemonSet, ReplicaSet or Job), among the pods its selector matches; a Service's
 * are those its EndpointSlices (or Endpoints) point at. Pure.
 */
import type { KubeObject } from '../../model/kube-object.js';
import { asObject, type Attributes } from '../../model/resource.js';

const arr = (x: unknown): Attributes[] => (Array.isArray(x) ? x.map(asObject) : []);
const uidOf = (o: KubeObject): string => String(asObject(o.metadata).uid ?? '');

/** A label selector (`matchLabels`, `matchExpressions`) as the `labelSelector` query writes it. */
export function labelSelectorText(selector: unknown): string | undefined {
  const s = asObject(selector);
  const parts = Object.entries(asObject(s.matchLabels)).map(([k, v]) => `${k}=${String(v)}`);
  for (const e of arr(s.matchExpressions)) {
    const values = arr(e.values).length ? (e.values as unknown[]).map(String) : [];
    const key = String(e.key);
    switch (e.operator) {
      case 'In':
        parts.push(`${key} in (${values.join(',')})`);
        break;
      case 'NotIn':
        parts.push(`${key} notin (${values.join(',')})`);
        break;
      case 'Exists':
        parts.push(key);
        break;
      case 'DoesNotExist':
        parts.push(`!${key}`);
        break;
    }
  }
  return parts.length ? parts.join(',') : undefined;
}

/** The selector of a workload's pods (a Service's spec.selector is a plain map). */
export function podSelectorOf(o: KubeObject): string | undefined {
  const spec = asObject(o.spec);
  if (o.kind === 'Service') return labelSelectorText({ matchLabels: spec.selector });
  return labelSelectorText(spec.selector);
}

/** The uid of the object's controlling owner, if it has one. */
function controllerUid(o: KubeObject): string | undefined {
  const ref = arr(asObject(o.metadata).ownerReferences).find((r) => r.controller === true);
  return ref ? String(ref.uid ?? '') : undefined;
}

/**
 * The pods of a workload: those it controls, or that a ReplicaSet it controls controls. Pods
 * without a controller that its selector matched count too (as `kubectl get pods -l` would show
 * them); a pod another controller owns does not.
 */
export function podsOfWorkload(
  workload: KubeObject,
  pods: readonly KubeObject[],
  replicaSets: readonly KubeObject[] = [],
): KubeObject[] {
  const owners = new Set([uidOf(workload)]);
  for (const rs of replicaSets) {
    const owner = controllerUid(rs);
    if (owner !== undefined && owners.has(owner)) owners.add(uidOf(rs));
  }
  return pods.filter((p) => {
    const owner = controllerUid(p);
    return owner === undefined || owners.has(owner);
  });
}

/** The pods a Service's EndpointSlices (or its Endpoints) point at, ready or not. */
export function podsBehind(endpoints: readonly KubeObject[], pods: readonly KubeObject[]): KubeObject[] {
  const names = new Set<string>();
  const take = (addresses: Attributes[]) => {
    for (const a of addresses) {
      const ref = asObject(a.targetRef);
      if (ref.kind === 'Pod' && typeof ref.name === 'string') names.add(ref.name);
    }
  };
  for (const e of endpoints) {
    // discovery.k8s.io/v1 EndpointSlice: endpoints[].targetRef; v1 Endpoints: subsets[].(notReady)addresses[]
    take(arr(e.endpoints));
    for (const s of arr(e.subsets)) take([...arr(s.addresses), ...arr(s.notReadyAddresses)]);
  }
  return pods.filter((p) => names.has(String(p.metadata?.name)));
}
