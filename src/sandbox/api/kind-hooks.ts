/**
 * What the API server does to particular kinds as they are written, beyond defaults: Jobs get a
 * selector of their own uid, Services get cluster IPs and node ports (kept across updates that
 * leave them out), CRDs are accepted at once.
 */
import { ensureMap, getPath, isMap, type JsonMap } from '../json.js';
import type { AddressAllocator } from './context.js';
import type { KubeObject } from './object.js';

function jobSelector(o: KubeObject): void {
  const spec = ensureMap(o, ['spec']);
  if (spec.manualSelector === true) return;
  const uid = o.metadata.uid ?? '';
  const name = o.metadata.name ?? '';
  spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
  const meta = ensureMap(spec, ['template', 'metadata']);
  meta.labels = {
    ...(isMap(meta.labels) ? meta.labels : {}),
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': name,
    'controller-uid': uid,
    'job-name': name,
  };
}

function servicePorts(spec: JsonMap): JsonMap[] {
  return Array.isArray(spec.ports) ? spec.ports.filter(isMap) : [];
}

export function serviceAddresses(o: KubeObject): { ip: string | undefined; ports: number[] } {
  const spec = isMap(o.spec) ? o.spec : {};
  const ip = typeof spec.clusterIP === 'string' && spec.clusterIP !== 'None' ? spec.clusterIP : undefined;
  const ports = servicePorts(spec).flatMap((p) => (typeof p.nodePort === 'number' ? [p.nodePort] : []));
  return { ip, ports };
}

function allocateService(o: KubeObject, addresses: AddressAllocator, old: KubeObject | undefined): void {
  const spec = ensureMap(o, ['spec']);
  const oldSpec = old && isMap(old.spec) ? old.spec : undefined;
  if (spec.type === 'ExternalName') return;
  if ((spec.clusterIP === undefined || spec.clusterIP === '') && oldSpec && typeof oldSpec.clusterIP === 'string')
    spec.clusterIP = oldSpec.clusterIP;
  if (spec.clusterIP === undefined || spec.clusterIP === '') spec.clusterIP = addresses.clusterIp();
  else if (!old) addresses.reserve(String(spec.clusterIP), []);
  spec.clusterIPs = [spec.clusterIP];
  if (spec.type !== 'NodePort' && spec.type !== 'LoadBalancer') return;
  const oldPorts = oldSpec ? servicePorts(oldSpec) : [];
  for (const p of servicePorts(spec)) {
    if (typeof p.nodePort === 'number') continue;
    const prev = oldPorts.find((q) => q.port === p.port && typeof q.nodePort === 'number');
    p.nodePort = prev ? prev.nodePort : addresses.nodePort();
  }
}

function acceptCrd(o: KubeObject, now: string): void {
  const spec = isMap(o.spec) ? o.spec : {};
  const versions = Array.isArray(spec.versions) ? spec.versions.filter(isMap) : [];
  const storage = versions.find((v) => v.storage === true)?.name;
  const cond = (type: string, reason: string, message: string) => ({
    type,
    status: 'True',
    reason,
    message,
    lastTransitionTime: now,
  });
  o.status = {
    conditions: [
      cond('NamesAccepted', 'NoConflicts', 'no conflicts found'),
      cond('Established', 'InitialNamesAccepted', 'the initial names have been accepted'),
    ],
    acceptedNames: getPath(o, ['spec', 'names']) ?? {},
    storedVersions: storage === undefined ? [] : [storage],
  };
}

/** Fills what the server fills on create; `now` is the creation time. */
export function prepareCreate(o: KubeObject, addresses: AddressAllocator, now: string): void {
  switch (o.kind) {
    case 'Job':
      jobSelector(o);
      break;
    case 'Service':
      allocateService(o, addresses, undefined);
      break;
    case 'CustomResourceDefinition':
      acceptCrd(o, now);
      break;
  }
}

/** Carries over what an update may leave out (a Service's addresses). */
export function prepareUpdate(o: KubeObject, old: KubeObject, addresses: AddressAllocator): void {
  if (o.kind === 'Service') allocateService(o, addresses, old);
  if (o.kind === 'Job') {
    const spec = ensureMap(o, ['spec']);
    if (spec.selector === undefined) spec.selector = getPath(old, ['spec', 'selector']);
  }
}
