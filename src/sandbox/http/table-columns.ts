/**
 * The columns of `kubectl get` for each kind, as the API server's printers define them (names,
 * priorities — 1 shows only with `-o wide` — and how each cell is worked out).
 */
import { getPath, isMap, type JsonMap } from '../json.js';
import type { KubeObject } from '../api/object.js';
import { humanAge, parseTime } from '../time.js';
import { selectorString } from '../api/scale.js';
import { CLUSTER_COLUMNS } from './table-columns-cluster.js';
import { AGE, containerColumns, list, NAME, num, str, type Column } from './table-cells.js';

export type { Column };

function templateColumns(path: string[]): Column[] {
  return [
    ...containerColumns(path),
    { name: 'Selector', priority: 1, cell: (o) => selectorString(getPath(o, ['spec', 'selector'])) },
  ];
}

/** The STATUS column of a pod, following kubectl's rules. */
function podStatusReason(o: KubeObject): string {
  let reason = str(getPath(o, ['status', 'reason']), str(getPath(o, ['status', 'phase']), 'Unknown'));
  let running = false;
  for (const [i, s] of list(o, ['status', 'initContainerStatuses']).entries()) {
    const waiting = getPath(s, ['state', 'waiting', 'reason']);
    const exit = getPath(s, ['state', 'terminated', 'exitCode']);
    if (exit === 0) continue;
    if (typeof waiting === 'string' && waiting !== 'PodInitializing') reason = `Init:${waiting}`;
    else reason = `Init:${i}/${list(o, ['spec', 'initContainers']).length}`;
    return o.metadata.deletionTimestamp ? 'Terminating' : reason;
  }
  for (const s of [...list(o, ['status', 'containerStatuses'])].reverse()) {
    const waiting = getPath(s, ['state', 'waiting', 'reason']);
    const term = getPath(s, ['state', 'terminated']);
    if (typeof waiting === 'string' && waiting !== '') reason = waiting;
    else if (isMap(term)) reason = str(term.reason, `ExitCode:${String(term.exitCode)}`);
    else if (isMap(getPath(s, ['state', 'running'])) && s.ready === true) running = true;
  }
  if (reason === 'Completed' && running) reason = 'Running';
  if (o.metadata.deletionTimestamp) reason = 'Terminating';
  return reason;
}

function restarts(o: KubeObject, now: number): string | number {
  let count = 0;
  let last: number | undefined;
  for (const s of list(o, ['status', 'containerStatuses'])) {
    count += typeof s.restartCount === 'number' ? s.restartCount : 0;
    const t = parseTime(getPath(s, ['lastState', 'terminated', 'finishedAt']));
    if (t !== undefined && (last === undefined || t > last)) last = t;
  }
  if (last === undefined) return count;
  const secs = Math.max(0, Math.floor((now - last) / 1000));
  return `${count} (${secs < 120 ? `${secs}s` : `${Math.floor(secs / 60)}m`} ago)`;
}

const POD: Column[] = [
  NAME,
  {
    name: 'Ready',
    cell: (o) =>
      `${list(o, ['status', 'containerStatuses']).filter((s) => s.ready === true).length}/${list(o, ['spec', 'containers']).length}`,
  },
  { name: 'Status', cell: podStatusReason },
  { name: 'Restarts', cell: restarts },
  AGE,
  { name: 'IP', priority: 1, cell: (o) => str(getPath(o, ['status', 'podIP'])) },
  { name: 'Node', priority: 1, cell: (o) => str(getPath(o, ['spec', 'nodeName'])) },
  { name: 'Nominated Node', priority: 1, cell: (o) => str(getPath(o, ['status', 'nominatedNodeName'])) },
  { name: 'Readiness Gates', priority: 1, cell: () => '<none>' },
];

function nodeStatus(o: KubeObject): string {
  const ready = list(o, ['status', 'conditions']).find((c) => c.type === 'Ready');
  const parts = [ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown'];
  if (getPath(o, ['spec', 'unschedulable']) === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

function servicePorts(o: KubeObject): string {
  const ports = list(o, ['spec', 'ports']).map(
    (p) => `${String(p.port)}${typeof p.nodePort === 'number' ? `:${p.nodePort}` : ''}/${String(p.protocol ?? 'TCP')}`,
  );
  return ports.length === 0 ? '<none>' : ports.join(',');
}

function jobStatus(o: KubeObject): string {
  const conds = list(o, ['status', 'conditions']);
  const has = (t: string) => conds.some((c) => c.type === t && c.status === 'True');
  if (has('Complete')) return 'Complete';
  if (has('Failed')) return 'Failed';
  if (has('FailureTarget')) return 'FailureTarget';
  if (has('SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  if (getPath(o, ['spec', 'suspend']) === true) return 'Suspended';
  return 'Running';
}

function jobDuration(o: KubeObject, now: number): string {
  const start = parseTime(getPath(o, ['status', 'startTime']));
  if (start === undefined) return '';
  const end = parseTime(getPath(o, ['status', 'completionTime'])) ?? now;
  const secs = Math.max(0, Math.floor((end - start) / 1000));
  return secs < 120 ? `${secs}s` : `${Math.floor(secs / 60)}m`;
}

const COLUMNS: Record<string, Column[]> = {
  Pod: POD,
  Deployment: [
    NAME,
    { name: 'Ready', cell: (o) => `${num(o, ['status', 'readyReplicas'])}/${num(o, ['spec', 'replicas'])}` },
    { name: 'Up-to-date', type: 'integer', cell: (o) => num(o, ['status', 'updatedReplicas']) },
    { name: 'Available', type: 'integer', cell: (o) => num(o, ['status', 'availableReplicas']) },
    AGE,
    ...templateColumns(['spec', 'template', 'spec']),
  ],
  ReplicaSet: [
    NAME,
    { name: 'Desired', type: 'integer', cell: (o) => num(o, ['spec', 'replicas']) },
    { name: 'Current', type: 'integer', cell: (o) => num(o, ['status', 'replicas']) },
    { name: 'Ready', type: 'integer', cell: (o) => num(o, ['status', 'readyReplicas']) },
    AGE,
    ...templateColumns(['spec', 'template', 'spec']),
  ],
  StatefulSet: [
    NAME,
    { name: 'Ready', cell: (o) => `${num(o, ['status', 'readyReplicas'])}/${num(o, ['spec', 'replicas'])}` },
    AGE,
    ...templateColumns(['spec', 'template', 'spec']).slice(0, 2),
  ],
  DaemonSet: [
    NAME,
    { name: 'Desired', type: 'integer', cell: (o) => num(o, ['status', 'desiredNumberScheduled']) },
    { name: 'Current', type: 'integer', cell: (o) => num(o, ['status', 'currentNumberScheduled']) },
    { name: 'Ready', type: 'integer', cell: (o) => num(o, ['status', 'numberReady']) },
    { name: 'Up-to-date', type: 'integer', cell: (o) => num(o, ['status', 'updatedNumberScheduled']) },
    { name: 'Available', type: 'integer', cell: (o) => num(o, ['status', 'numberAvailable']) },
    {
      name: 'Node Selector',
      cell: (o) =>
        Object.entries((getPath(o, ['spec', 'template', 'spec', 'nodeSelector']) as JsonMap | undefined) ?? {})
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(',') || '<none>',
    },
    AGE,
  ],
  Job: [
    NAME,
    { name: 'Status', cell: jobStatus },
    { name: 'Completions', cell: (o) => `${num(o, ['status', 'succeeded'])}/${num(o, ['spec', 'completions']) || 1}` },
    { name: 'Duration', cell: jobDuration },
    AGE,
  ],
  CronJob: [
    NAME,
    { name: 'Schedule', cell: (o) => str(getPath(o, ['spec', 'schedule']), '') },
    { name: 'Timezone', cell: (o) => str(getPath(o, ['spec', 'timeZone'])) },
    { name: 'Suspend', cell: (o) => String(getPath(o, ['spec', 'suspend']) === true) },
    { name: 'Active', type: 'integer', cell: (o) => list(o, ['status', 'active']).length },
    {
      name: 'Last Schedule',
      cell: (o, now) =>
        getPath(o, ['status', 'lastScheduleTime'])
          ? humanAge(parseTime(getPath(o, ['status', 'lastScheduleTime'])), now)
          : '<none>',
    },
    AGE,
  ],
  Service: [
    NAME,
    { name: 'Type', cell: (o) => str(getPath(o, ['spec', 'type'])) },
    { name: 'Cluster-IP', cell: (o) => str(getPath(o, ['spec', 'clusterIP'])) },
    { name: 'External-IP', cell: (o) => (getPath(o, ['spec', 'type']) === 'LoadBalancer' ? '<pending>' : '<none>') },
    { name: 'Port(s)', cell: servicePorts },
    AGE,
    {
      name: 'Selector',
      priority: 1,
      cell: (o) =>
        Object.entries((getPath(o, ['spec', 'selector']) as JsonMap | undefined) ?? {})
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(',') || '<none>',
    },
  ],
  Node: [
    NAME,
    { name: 'Status', cell: nodeStatus },
    {
      name: 'Roles',
      cell: (o) =>
        Object.keys(o.metadata.labels ?? {})
          .filter((k) => k.startsWith('node-role.kubernetes.io/'))
          .map((k) => k.slice(24))
          .join(',') || '<none>',
    },
    AGE,
    { name: 'Version', cell: (o) => str(getPath(o, ['status', 'nodeInfo', 'kubeletVersion']), '') },
    {
      name: 'Internal-IP',
      priority: 1,
      cell: (o) => str(list(o, ['status', 'addresses']).find((a) => a.type === 'InternalIP')?.address),
    },
    {
      name: 'External-IP',
      priority: 1,
      cell: (o) => str(list(o, ['status', 'addresses']).find((a) => a.type === 'ExternalIP')?.address),
    },
    { name: 'OS-Image', priority: 1, cell: (o) => str(getPath(o, ['status', 'nodeInfo', 'osImage']), '<unknown>') },
    {
      name: 'Kernel-Version',
      priority: 1,
      cell: (o) => str(getPath(o, ['status', 'nodeInfo', 'kernelVersion']), '<unknown>'),
    },
    {
      name: 'Container-Runtime',
      priority: 1,
      cell: (o) => str(getPath(o, ['status', 'nodeInfo', 'containerRuntimeVersion']), '<unknown>'),
    },
  ],
  Namespace: [NAME, { name: 'Status', cell: (o) => str(getPath(o, ['status', 'phase']), '') }, AGE],
  ConfigMap: [
    NAME,
    {
      name: 'Data',
      type: 'integer',
      cell: (o) =>
        Object.keys((getPath(o, ['data']) as JsonMap | undefined) ?? {}).length +
        Object.keys((getPath(o, ['binaryData']) as JsonMap | undefined) ?? {}).length,
    },
    AGE,
  ],
  Secret: [
    NAME,
    { name: 'Type', cell: (o) => str(o.type, '') },
    {
      name: 'Data',
      type: 'integer',
      cell: (o) => Object.keys((getPath(o, ['data']) as JsonMap | undefined) ?? {}).length,
    },
    AGE,
  ],
  Endpoints: [
    NAME,
    {
      name: 'Endpoints',
      cell: (o) =>
        list(o, ['subsets'])
          .flatMap((s) => {
            const ports = Array.isArray(s.ports) ? s.ports.filter(isMap) : [];
            const addrs = Array.isArray(s.addresses) ? s.addresses.filter(isMap) : [];
            return addrs.flatMap((a) =>
              ports.length === 0 ? [String(a.ip)] : ports.map((p) => `${String(a.ip)}:${String(p.port)}`),
            );
          })
          .join(',') || '<none>',
    },
    AGE,
  ],
  EndpointSlice: [
    NAME,
    { name: 'AddressType', cell: (o) => str(o.addressType, '') },
    {
      name: 'Ports',
      cell: (o) =>
        list(o, ['ports'])
          .map((p) => String(p.port))
          .join(',') || '<unset>',
    },
    {
      name: 'Endpoints',
      cell: (o) =>
        list(o, ['endpoints'])
          .flatMap((e) => (Array.isArray(e.addresses) ? e.addresses.map(String) : []))
          .join(',') || '<unset>',
    },
    AGE,
  ],
  Ingress: [
    NAME,
    { name: 'Class', cell: (o) => str(getPath(o, ['spec', 'ingressClassName'])) },
    {
      name: 'Hosts',
      cell: (o) =>
        list(o, ['spec', 'rules'])
          .map((r) => str(r.host, '*'))
          .join(',') || '*',
    },
    { name: 'Address', cell: () => '' },
    { name: 'Ports', cell: (o) => (list(o, ['spec', 'tls']).length > 0 ? '80, 443' : '80') },
    AGE,
  ],
  Lease: [NAME, { name: 'Holder', cell: (o) => str(getPath(o, ['spec', 'holderIdentity']), '') }, AGE],
  ControllerRevision: [
    NAME,
    {
      name: 'Controller',
      cell: (o) => {
        const ref = o.metadata.ownerReferences?.find((r) => r.controller === true);
        return ref ? `${ref.kind.toLowerCase()}.apps/${ref.name}` : '<none>';
      },
    },
    { name: 'Revision', type: 'integer', cell: (o) => (typeof o.revision === 'number' ? o.revision : 0) },
    AGE,
  ],
  PodDisruptionBudget: [
    NAME,
    { name: 'Min Available', cell: (o) => String(getPath(o, ['spec', 'minAvailable']) ?? 'N/A') },
    { name: 'Max Unavailable', cell: (o) => String(getPath(o, ['spec', 'maxUnavailable']) ?? 'N/A') },
    { name: 'Allowed Disruptions', type: 'integer', cell: (o) => num(o, ['status', 'disruptionsAllowed']) },
    AGE,
  ],
  Event: [
    {
      name: 'Last Seen',
      cell: (o, now) => humanAge(parseTime(o.lastTimestamp ?? o.eventTime ?? o.metadata.creationTimestamp), now),
    },
    { name: 'Type', cell: (o) => str(o.type, '') },
    { name: 'Reason', cell: (o) => str(o.reason, '') },
    {
      name: 'Object',
      cell: (o) =>
        `${String(getPath(o, ['involvedObject', 'kind']) ?? '').toLowerCase()}/${String(getPath(o, ['involvedObject', 'name']) ?? '')}`,
    },
    { name: 'Message', cell: (o) => str(o.message, '') },
  ],
};

export function columnsFor(kind: string): Column[] {
  return COLUMNS[kind] ?? CLUSTER_COLUMNS[kind] ?? [NAME, AGE];
}
