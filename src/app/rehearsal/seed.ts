/**
 * The shape of what a recovery touches on one cluster (its targets' workloads, their pods,
 * the PodDisruptionBudgets over them, the nodes they run on), and that shape as the starting
 * state of a rehearsal's sandbox cluster: the same names, uids (so the frozen plan's uids name
 * the same pods), labels, selectors, replica counts, budgets and placement, with each workload's
 * pod template reduced to what the sandbox needs to run it. Nothing private goes over: no
 * Secret or ConfigMap, no env value, no volume, no annotation but a Deployment's revision, and
 * every container's readiness probe says how long that workload's pods took to turn Ready on
 * the real cluster. Pure.
 */
import type { KubeObject } from '../../model/kube-object.js';
import { asObject } from '../../model/resource.js';
import { applyDefaults } from '../../sandbox/api/defaults.js';
import { matchesLabels, selectorFromObject } from '../../sandbox/api/selectors.js';
import type { ClusterOptions } from '../../sandbox/index.js';

export interface ClusterShape {
  cluster: string;
  nodes: KubeObject[];
  /** The targets' workloads and everything between them and their pods (ReplicaSets). */
  workloads: KubeObject[];
  /** Every pod of those workloads (the targets among them), and targets no workload owns. */
  pods: KubeObject[];
  budgets: KubeObject[];
}

/** The sandbox's store key of each kind the seed holds. */
const RESOURCE: Record<string, string> = {
  Namespace: '/namespaces',
  Node: '/nodes',
  Pod: '/pods',
  Deployment: 'apps/deployments',
  ReplicaSet: 'apps/replicasets',
  StatefulSet: 'apps/statefulsets',
  DaemonSet: 'apps/daemonsets',
  PodDisruptionBudget: 'policy/poddisruptionbudgets',
};

/** A sandbox cluster's starting state (what its `snapshot` option takes). */
export type SeedState = NonNullable<ClusterOptions['snapshot']>;
type SeededObject = SeedState['objects'][number]['object'];

const str = (x: unknown): string => (typeof x === 'string' ? x : '');
const meta = (o: KubeObject) => asObject(o.metadata);
export const uidOf = (o: KubeObject) => str(meta(o).uid);

/** The controlling owner reference of an object, if any. */
function controllerRef(o: KubeObject): { kind: string; name: string; uid: string } | undefined {
  const refs = Array.isArray(meta(o).ownerReferences) ? (meta(o).ownerReferences as unknown[]) : [];
  const r = refs.map(asObject).find((x) => x.controller === true);
  return r ? { kind: str(r.kind), name: str(r.name), uid: str(r.uid) } : undefined;
}

/**
 * The workload an object belongs to, at the top of its owner chain among `objects` (a pod's
 * ReplicaSet's Deployment), as the plan names workloads: `cluster/namespace/Kind/name`.
 */
export function topWorkload(cluster: string, o: KubeObject, objects: readonly KubeObject[]): string {
  let at = o;
  for (let ref = controllerRef(at); ref; ref = controllerRef(at)) {
    const owner = objects.find((x) => uidOf(x) === ref!.uid);
    if (!owner) return `${cluster}/${str(meta(o).namespace)}/${ref.kind}/${ref.name}`;
    at = owner;
  }
  return `${cluster}/${str(meta(o).namespace)}/${at.kind}/${str(meta(at).name)}`;
}

const KEPT_ANNOTATIONS = new Set(['deployment.kubernetes.io/revision']);

function metadataOf(o: KubeObject, rv: number): SeededObject['metadata'] {
  const m = meta(o);
  const annotations = Object.fromEntries(
    Object.entries(asObject(m.annotations)).filter(([k]) => KEPT_ANNOTATIONS.has(k)),
  );
  const kept: Record<string, unknown> = { name: m.name, uid: m.uid, resourceVersion: String(rv) };
  for (const k of ['namespace', 'labels', 'ownerReferences', 'creationTimestamp', 'generation', 'generateName'])
    if (m[k] !== undefined) kept[k] = structuredClone(m[k]);
  if (Object.keys(annotations).length) kept.annotations = annotations;
  return kept;
}

function pick(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, structuredClone(o[k])]));
}

/** A readiness probe that makes the sandbox's kubelet hold a started container `ms` before Ready. */
function probeOf(real: unknown, ms: number): Record<string, unknown> {
  // the handler says nothing private (a port, a path); a container without one gets a no-op
  const handler = pick(asObject(real), ['httpGet', 'tcpSocket', 'grpc']);
  return {
    ...(Object.keys(handler).length ? handler : { exec: { command: ['true'] } }),
    initialDelaySeconds: Math.round(ms / 1000),
    periodSeconds: 1,
    failureThreshold: 3,
    successThreshold: 1,
    timeoutSeconds: 1,
  };
}

const POD_SPEC_KEPT = [
  'nodeName',
  'nodeSelector',
  'affinity',
  'tolerations',
  'topologySpreadConstraints',
  'restartPolicy',
  'terminationGracePeriodSeconds',
  'schedulerName',
  'priority',
  'dnsPolicy',
];

/** A pod spec as the rehearsal runs it: placement and lifecycle kept, containers reduced, probes from `ms`. */
export function rehearsalPodSpec(spec: unknown, readinessMs: number): Record<string, unknown> {
  const s = asObject(spec);
  const containers = (Array.isArray(s.containers) ? s.containers : []).map((c) => {
    const o = asObject(c);
    return {
      ...pick(o, ['name', 'image', 'imagePullPolicy', 'ports', 'resources']),
      readinessProbe: probeOf(o.readinessProbe, readinessMs),
    };
  });
  return { ...pick(s, POD_SPEC_KEPT), containers };
}

function templateOf(spec: Record<string, unknown>, readinessMs: number): Record<string, unknown> {
  const t = asObject(spec.template);
  const m = asObject(t.metadata);
  return {
    metadata: pick(m, ['labels']),
    spec: rehearsalPodSpec(t.spec, readinessMs),
  };
}

const WORKLOAD_SPEC_KEPT = [
  'replicas',
  'selector',
  'strategy',
  'minReadySeconds',
  'revisionHistoryLimit',
  'progressDeadlineSeconds',
  'paused',
  'serviceName',
  'podManagementPolicy',
  'updateStrategy',
  'ordinals',
];

const POD_STATUS_KEPT = [
  'phase',
  'conditions',
  'hostIP',
  'hostIPs',
  'podIP',
  'podIPs',
  'startTime',
  'qosClass',
  'containerStatuses',
];

function seededObject(
  cluster: string,
  o: KubeObject,
  all: readonly KubeObject[],
  readiness: (workload: string) => number,
  rv: number,
): SeededObject {
  const base = { apiVersion: o.apiVersion ?? '', kind: o.kind ?? '', metadata: metadataOf(o, rv) };
  const spec = asObject(o.spec);
  switch (o.kind) {
    case 'Pod':
      return {
        ...base,
        spec: rehearsalPodSpec(spec, readiness(topWorkload(cluster, o, all))),
        status: pick(asObject(o.status), POD_STATUS_KEPT),
      };
    case 'Node':
      return {
        ...base,
        spec: pick(spec, ['taints', 'unschedulable', 'podCIDR', 'podCIDRs']),
        status: pick(asObject(o.status), ['capacity', 'allocatable', 'conditions', 'addresses']),
      };
    case 'PodDisruptionBudget':
      return {
        ...base,
        spec: pick(spec, ['selector', 'minAvailable', 'maxUnavailable', 'unhealthyPodEvictionPolicy']),
        status: structuredClone(asObject(o.status)),
      };
    default:
      return {
        ...base,
        spec: {
          ...pick(spec, WORKLOAD_SPEC_KEPT),
          template: templateOf(spec, readiness(topWorkload(cluster, o, all))),
        },
        status: structuredClone(asObject(o.status)),
      };
  }
}

/**
 * The sandbox state that stands in for one cluster: its namespaces, nodes, workloads, pods and
 * budgets, in that order, with resourceVersions of their own. `readiness` gives a workload's
 * (`cluster/namespace/Kind/name`) start-to-Ready time in ms.
 */
export function seedState(shape: ClusterShape, readiness: (workload: string) => number): SeedState {
  const all = [...shape.workloads, ...shape.pods];
  const namespaces = [
    ...new Set(['default', 'kube-node-lease', ...[...all, ...shape.budgets].map((o) => str(meta(o).namespace))]),
  ].filter(Boolean);
  const source: KubeObject[] = [
    ...namespaces.map((name): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, uid: `rehearsal-namespace-${name}` },
    })),
    ...shape.nodes,
    ...shape.workloads,
    ...shape.pods,
    ...shape.budgets,
  ];
  const objects = source.map((o, i) => {
    const resource = RESOURCE[o.kind ?? ''];
    if (!resource) throw new Error(`a rehearsal does not seed ${o.kind}`);
    const object: SeededObject =
      o.kind === 'Namespace'
        ? {
            apiVersion: 'v1',
            kind: 'Namespace',
            metadata: { ...meta(o), resourceVersion: String(i + 1) },
            spec: { finalizers: ['kubernetes'] },
            status: { phase: 'Active' },
          }
        : seededObject(shape.cluster, o, all, readiness, i + 1);
    // as the API server stores what it is given: the run's writes are checked against it
    applyDefaults(object);
    return { resource, object };
  });
  return { resourceVersion: objects.length, objects };
}

/** Whether a PodDisruptionBudget selects a pod (the API's own selector rules: `{}` selects every pod). */
export function selects(budget: KubeObject, pod: KubeObject): boolean {
  const selector = selectorFromObject(asObject(budget.spec).selector);
  const labels = Object.fromEntries(Object.entries(asObject(meta(pod).labels)).map(([k, v]) => [k, String(v)]));
  return selector !== undefined && matchesLabels(selector, labels);
}
