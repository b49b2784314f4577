/**
 * `fieldValidation=Strict` (what kubectl sends) for built-in kinds: a field the type does not
 * have is refused with the decoder's "strict decoding error: unknown field". The sandbox checks
 * where it knows every field of a type — object metadata, the top level of workloads, and whole
 * pod templates (containers, probes, security contexts…) — and lets everything else through.
 */
import { isMap, type JsonMap } from '../json.js';
import { MESSAGES } from '../http/protobuf-schema.js';
import type { KubeObject } from './object.js';
import type { ResourceType } from './resources.js';

const OBJECT_META = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);

/** Messages whose field tables are complete, so a key outside them is truly unknown. */
const COMPLETE = new Set([
  'PodSpec',
  'Container',
  'ContainerPort',
  'EnvVar',
  'EnvVarSource',
  'ResourceRequirements',
  'Probe',
  'ProbeHandler',
  'ExecAction',
  'HTTPGetAction',
  'HTTPHeader',
  'TCPSocketAction',
  'Lifecycle',
  'VolumeMount',
  'Toleration',
  'SecurityContext',
  'PodSecurityContext',
  'Capabilities',
]);

/** Where each kind carries a pod spec, and its top-level fields. */
const PODS: Record<string, { template: string[]; top: string[] }> = {
  Pod: { template: ['spec'], top: ['spec', 'status'] },
  Deployment: { template: ['spec', 'template', 'spec'], top: ['spec', 'status'] },
  ReplicaSet: { template: ['spec', 'template', 'spec'], top: ['spec', 'status'] },
  StatefulSet: { template: ['spec', 'template', 'spec'], top: ['spec', 'status'] },
  DaemonSet: { template: ['spec', 'template', 'spec'], top: ['spec', 'status'] },
  ReplicationController: { template: ['spec', 'template', 'spec'], top: ['spec', 'status'] },
  Job: { template: ['spec', 'template', 'spec'], top: ['spec', 'status'] },
  CronJob: { template: ['spec', 'jobTemplate', 'spec', 'template', 'spec'], top: ['spec', 'status'] },
};

function unknownInMessage(v: unknown, message: string, path: string, out: string[]): void {
  const table = MESSAGES[message];
  if (!table || !COMPLETE.has(message) || !isMap(v)) return;
  const fields = new Map<string, string>();
  for (const [json, type, flags = ''] of Object.values(table)) {
    // an inlined message's fields sit in the parent
    if (flags.includes('i') && type.startsWith('msg:'))
      for (const [j, t] of Object.values(MESSAGES[type.slice(4)] ?? {})) fields.set(j, t);
    else fields.set(json, type);
  }
  for (const [k, child] of Object.entries(v)) {
    const type = fields.get(k);
    const p = `${path}.${k}`;
    if (type === undefined) {
      out.push(p);
      continue;
    }
    if (!type.startsWith('msg:')) continue;
    if (Array.isArray(child)) child.forEach((c, i) => unknownInMessage(c, type.slice(4), `${p}[${i}]`, out));
    else unknownInMessage(child, type.slice(4), p, out);
  }
}

function unknownInMeta(meta: unknown, path: string, out: string[]): void {
  if (!isMap(meta)) return;
  for (const k of Object.keys(meta)) if (!OBJECT_META.has(k)) out.push(`${path}.${k}`);
}

function at(o: JsonMap, path: string[]): unknown {
  let cur: unknown = o;
  for (const k of path) cur = isMap(cur) ? cur[k] : undefined;
  return cur;
}

/** The paths of the fields a built-in object has that its type does not. */
export function unknownBuiltinFields(r: ResourceType, o: KubeObject): string[] {
  const out: string[] = [];
  unknownInMeta(o.metadata, 'metadata', out);
  const pods = r.crd === undefined ? PODS[r.kind] : undefined;
  if (!pods) return out;
  const allowed = new Set(['apiVersion', 'kind', 'metadata', ...pods.top]);
  for (const k of Object.keys(o)) if (!allowed.has(k)) out.push(k);
  const tplPath = pods.template;
  if (tplPath.length > 1)
    unknownInMeta(at(o, [...tplPath.slice(0, -1), 'metadata']), [...tplPath.slice(0, -1), 'metadata'].join('.'), out);
  unknownInMessage(at(o, tplPath), 'PodSpec', tplPath.join('.'), out);
  return out;
}
