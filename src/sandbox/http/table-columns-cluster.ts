/**
 * `kubectl get` columns of the storage, policy, quota and scaling kinds, as the API server's
 * printers define them (see table-columns.ts for the workload kinds).
 */
import { getPath, isMap, type JsonMap } from '../json.js';
import type { KubeObject } from '../api/object.js';
import { selectorString } from '../api/scale.js';
import { AGE, containerColumns, NAME, str, type Column } from './table-cells.js';

const MODES: Record<string, string> = {
  ReadWriteOnce: 'RWO',
  ReadOnlyMany: 'ROX',
  ReadWriteMany: 'RWX',
  ReadWriteOncePod: 'RWOP',
};

function accessModes(o: KubeObject, path: string[]): string {
  const v = getPath(o, path);
  return Array.isArray(v) ? v.map((m) => MODES[String(m)] ?? String(m)).join(',') : '';
}

function storage(o: KubeObject, path: string[]): string {
  const v = getPath(o, [...path, 'storage']);
  return typeof v === 'string' ? v : '';
}

/** `pods: 1/10, requests.cpu: 500m/2`, for the keys a filter picks. */
function quotaUsage(o: KubeObject, pick: (key: string) => boolean): string {
  const hard = (getPath(o, ['status', 'hard']) ?? getPath(o, ['spec', 'hard'])) as JsonMap | undefined;
  const used = (getPath(o, ['status', 'used']) ?? {}) as JsonMap;
  return Object.keys(hard ?? {})
    .filter(pick)
    .sort()
    .map((k) => `${k}: ${String(used[k] ?? '0')}/${String(hard![k])}`)
    .join(', ');
}

const isLimit = (k: string) => k.startsWith('limits.');

function hpaTargets(o: KubeObject): string {
  const v1 = getPath(o, ['spec', 'targetCPUUtilizationPercentage']);
  if (typeof v1 === 'number') {
    const cur = getPath(o, ['status', 'currentCPUUtilizationPercentage']);
    return `cpu: ${typeof cur === 'number' ? `${cur}%` : '<unknown>'}/${v1}%`;
  }
  const metrics = getPath(o, ['spec', 'metrics']);
  if (!Array.isArray(metrics) || metrics.length === 0) return '<none>';
  return metrics
    .filter(isMap)
    .map((m) => {
      const res = isMap(m.resource) ? m.resource : {};
      const target = isMap(res.target) ? res.target : {};
      const want =
        typeof target.averageUtilization === 'number'
          ? `${target.averageUtilization}%`
          : String(target.averageValue ?? target.value ?? '');
      return `${String(res.name ?? m.type)}: <unknown>/${want}`;
    })
    .join(', ');
}

export const CLUSTER_COLUMNS: Record<string, Column[]> = {
  PersistentVolume: [
    NAME,
    { name: 'Capacity', cell: (o) => storage(o, ['spec', 'capacity']) },
    { name: 'Access Modes', cell: (o) => accessModes(o, ['spec', 'accessModes']) },
    { name: 'Reclaim Policy', cell: (o) => str(getPath(o, ['spec', 'persistentVolumeReclaimPolicy']), '') },
    { name: 'Status', cell: (o) => str(getPath(o, ['status', 'phase']), '') },
    {
      name: 'Claim',
      cell: (o) => {
        const ref = getPath(o, ['spec', 'claimRef']);
        return isMap(ref) ? `${String(ref.namespace)}/${String(ref.name)}` : '';
      },
    },
    { name: 'StorageClass', cell: (o) => str(getPath(o, ['spec', 'storageClassName']), '') },
    { name: 'VolumeAttributesClass', cell: (o) => str(getPath(o, ['spec', 'volumeAttributesClassName']), '<unset>') },
    { name: 'Reason', cell: (o) => str(getPath(o, ['status', 'reason']), '') },
    AGE,
    { name: 'VolumeMode', priority: 1, cell: (o) => str(getPath(o, ['spec', 'volumeMode']), 'Filesystem') },
  ],
  PersistentVolumeClaim: [
    NAME,
    { name: 'Status', cell: (o) => str(getPath(o, ['status', 'phase']), '') },
    { name: 'Volume', cell: (o) => str(getPath(o, ['spec', 'volumeName']), '') },
    { name: 'Capacity', cell: (o) => storage(o, ['status', 'capacity']) },
    { name: 'Access Modes', cell: (o) => accessModes(o, ['status', 'accessModes']) },
    { name: 'StorageClass', cell: (o) => str(getPath(o, ['spec', 'storageClassName']), '<unset>') },
    { name: 'VolumeAttributesClass', cell: (o) => str(getPath(o, ['spec', 'volumeAttributesClassName']), '<unset>') },
    AGE,
    { name: 'VolumeMode', priority: 1, cell: (o) => str(getPath(o, ['spec', 'volumeMode']), 'Filesystem') },
  ],
  StorageClass: [
    {
      name: 'Name',
      cell: (o) =>
        o.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true'
          ? `${o.metadata.name ?? ''} (default)`
          : (o.metadata.name ?? ''),
    },
    { name: 'Provisioner', cell: (o) => str(o.provisioner, '') },
    { name: 'ReclaimPolicy', cell: (o) => str(o.reclaimPolicy, 'Delete') },
    { name: 'VolumeBindingMode', cell: (o) => str(o.volumeBindingMode, 'Immediate') },
    { name: 'AllowVolumeExpansion', cell: (o) => String(o.allowVolumeExpansion === true) },
    AGE,
  ],
  ResourceQuota: [
    NAME,
    AGE,
    { name: 'Request', cell: (o) => quotaUsage(o, (k) => !isLimit(k)) },
    { name: 'Limit', cell: (o) => quotaUsage(o, isLimit) },
  ],
  LimitRange: [NAME, { name: 'Created At', cell: (o) => o.metadata.creationTimestamp ?? '' }],
  ReplicationController: [
    NAME,
    { name: 'Desired', type: 'integer', cell: (o) => Number(getPath(o, ['spec', 'replicas']) ?? 0) },
    { name: 'Current', type: 'integer', cell: (o) => Number(getPath(o, ['status', 'replicas']) ?? 0) },
    { name: 'Ready', type: 'integer', cell: (o) => Number(getPath(o, ['status', 'readyReplicas']) ?? 0) },
    AGE,
    ...containerColumns(['spec', 'template', 'spec']),
    {
      name: 'Selector',
      priority: 1,
      cell: (o) => selectorString({ matchLabels: getPath(o, ['spec', 'selector']) ?? {} }),
    },
  ],
  NetworkPolicy: [
    NAME,
    { name: 'Pod-Selector', cell: (o) => selectorString(getPath(o, ['spec', 'podSelector'])) || '<none>' },
    AGE,
  ],
  PriorityClass: [
    NAME,
    { name: 'Value', type: 'integer', cell: (o) => (typeof o.value === 'number' ? o.value : 0) },
    { name: 'Global-Default', cell: (o) => String(o.globalDefault === true) },
    AGE,
    { name: 'PreemptionPolicy', cell: (o) => str(o.preemptionPolicy, 'PreemptLowerPriority') },
  ],
  IngressClass: [
    NAME,
    { name: 'Controller', cell: (o) => str(getPath(o, ['spec', 'controller']), '') },
    { name: 'Parameters', cell: () => '<none>' },
    AGE,
  ],
  HorizontalPodAutoscaler: [
    NAME,
    {
      name: 'Reference',
      cell: (o) =>
        `${String(getPath(o, ['spec', 'scaleTargetRef', 'kind']))}/${String(getPath(o, ['spec', 'scaleTargetRef', 'name']))}`,
    },
    { name: 'Targets', cell: hpaTargets },
    { name: 'MinPods', cell: (o) => String(getPath(o, ['spec', 'minReplicas']) ?? '<unset>') },
    { name: 'MaxPods', type: 'integer', cell: (o) => Number(getPath(o, ['spec', 'maxReplicas']) ?? 0) },
    { name: 'Replicas', type: 'integer', cell: (o) => Number(getPath(o, ['status', 'currentReplicas']) ?? 0) },
    AGE,
  ],
};
