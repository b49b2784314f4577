/**
 * The validation users commonly trip over, with the field paths and wording of the API server:
 * names, labels, containers, workload selectors (which must match the template and never
 * change), Job restart policies, Service ports, immutable ConfigMaps and Secrets, and the 1 MiB
 * limit on a Secret's data (what makes a large kdeck state spread over several Secrets).
 */
import { deepEqual, deepEqualExcept, getPath, isMap } from '../json.js';
import type { FieldError } from './errors.js';
import { keyProblems, labelValueProblems, nameProblems, type NameRule } from './names.js';
import type { KubeObject } from './object.js';
import type { ResourceType } from './resources.js';
import { matchesLabels, selectorFromObject } from './selectors.js';
import { parseSchedule } from '../cron.js';

function nameRule(kind: string): NameRule {
  if (kind === 'Namespace') return 'label';
  if (kind === 'Service') return 'dns1035';
  return 'subdomain';
}

function validateMeta(o: KubeObject, r: ResourceType, errs: FieldError[]): void {
  const name = o.metadata.name;
  if (name === undefined || name === '') {
    errs.push({ type: 'FieldValueRequired', field: 'metadata.name', detail: 'name or generateName is required' });
  } else {
    for (const p of nameProblems(name, nameRule(r.kind)))
      errs.push({ type: 'FieldValueInvalid', field: 'metadata.name', value: name, detail: p });
  }
  if (r.namespaced && !o.metadata.namespace)
    errs.push({ type: 'FieldValueRequired', field: 'metadata.namespace', detail: '' });
  validateLabels(o.metadata.labels, 'metadata.labels', errs);
  for (const k of Object.keys(o.metadata.annotations ?? {})) {
    for (const p of keyProblems(k))
      errs.push({ type: 'FieldValueInvalid', field: 'metadata.annotations', value: k, detail: p });
  }
}

function validateLabels(labels: unknown, field: string, errs: FieldError[]): void {
  if (!isMap(labels)) return;
  for (const [k, v] of Object.entries(labels)) {
    for (const p of keyProblems(k)) errs.push({ type: 'FieldValueInvalid', field, value: k, detail: p });
    for (const p of labelValueProblems(String(v))) errs.push({ type: 'FieldValueInvalid', field, value: v, detail: p });
  }
}

function validateContainers(spec: unknown, field: string, errs: FieldError[]): void {
  if (!isMap(spec)) {
    errs.push({ type: 'FieldValueRequired', field: `${field}.containers`, detail: '' });
    return;
  }
  const cs = spec.containers;
  if (!Array.isArray(cs) || cs.length === 0) {
    errs.push({ type: 'FieldValueRequired', field: `${field}.containers`, detail: '' });
    return;
  }
  const seen = new Set<string>();
  cs.forEach((c, i) => {
    const at = `${field}.containers[${i}]`;
    if (!isMap(c)) return;
    const name = typeof c.name === 'string' ? c.name : '';
    if (name === '') errs.push({ type: 'FieldValueRequired', field: `${at}.name`, detail: '' });
    else {
      for (const p of nameProblems(name, 'label'))
        errs.push({ type: 'FieldValueInvalid', field: `${at}.name`, value: name, detail: p });
      if (seen.has(name)) errs.push({ type: 'FieldValueDuplicate', field: `${at}.name`, value: name, detail: '' });
      seen.add(name);
    }
    if (typeof c.image !== 'string' || c.image.trim() === '')
      errs.push({ type: 'FieldValueRequired', field: `${at}.image`, detail: '' });
  });
}

function validateTemplated(o: KubeObject, errs: FieldError[], templatePath: string[]): void {
  const spec = isMap(o.spec) ? o.spec : {};
  const tpl = getPath(o, templatePath);
  const tplField = templatePath.join('.');
  const labels = getPath(tpl, ['metadata', 'labels']);
  validateLabels(labels, `${tplField}.metadata.labels`, errs);
  validateContainers(getPath(tpl, ['spec']), `${tplField}.spec`, errs);
  if (typeof spec.replicas === 'number' && spec.replicas < 0) {
    errs.push({
      type: 'FieldValueInvalid',
      field: 'spec.replicas',
      value: spec.replicas,
      detail: 'must be greater than or equal to 0',
    });
  }
  // Jobs get a selector from the server, and a CronJob's Jobs from the CronJob controller
  if (o.kind === 'Job' || o.kind === 'CronJob') return;
  const sel = selectorFromObject(spec.selector);
  if (!sel) {
    errs.push({ type: 'FieldValueRequired', field: 'spec.selector', detail: '' });
    return;
  }
  if (sel.length === 0) {
    errs.push({
      type: 'FieldValueInvalid',
      field: 'spec.selector',
      value: spec.selector,
      detail: 'empty selector is invalid for deployment',
    });
    return;
  }
  const tplLabels = isMap(labels) ? (labels as Record<string, string>) : {};
  if (!matchesLabels(sel, tplLabels)) {
    errs.push({
      type: 'FieldValueInvalid',
      field: `${tplField}.metadata.labels`,
      value: tplLabels,
      detail: '`selector` does not match template `labels`',
    });
  }
}

function validateService(o: KubeObject, errs: FieldError[]): void {
  const spec = isMap(o.spec) ? o.spec : {};
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  if (spec.type !== 'ExternalName' && ports.length === 0 && spec.clusterIP !== 'None') {
    errs.push({ type: 'FieldValueRequired', field: 'spec.ports', detail: '' });
  }
  ports.forEach((p, i) => {
    if (!isMap(p)) return;
    const port = p.port;
    if (typeof port !== 'number' || port < 1 || port > 65535 || !Number.isInteger(port)) {
      errs.push({
        type: 'FieldValueInvalid',
        field: `spec.ports[${i}].port`,
        value: port ?? 0,
        detail: 'must be between 1 and 65535, inclusive',
      });
    }
    if (ports.length > 1 && (typeof p.name !== 'string' || p.name === ''))
      errs.push({ type: 'FieldValueRequired', field: `spec.ports[${i}].name`, detail: '' });
  });
  const types = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'];
  if (typeof spec.type === 'string' && !types.includes(spec.type)) {
    errs.push({
      type: 'FieldValueNotSupported',
      field: 'spec.type',
      value: spec.type,
      detail: `supported values: ${types.map((t) => `"${t}"`).join(', ')}`,
    });
  }
}

function validateJob(o: KubeObject, errs: FieldError[]): void {
  const rp = getPath(o, ['spec', 'template', 'spec', 'restartPolicy']);
  if (rp !== 'Never' && rp !== 'OnFailure') {
    errs.push({
      type: 'FieldValueNotSupported',
      field: 'spec.template.spec.restartPolicy',
      value: rp ?? '',
      detail: 'supported values: "OnFailure", "Never"',
    });
  }
}

function immutableErrors(o: KubeObject, old: KubeObject | undefined, errs: FieldError[]): void {
  if (!old) return;
  const same = (path: string[]) => deepEqual(getPath(o, path), getPath(old, path));
  switch (o.kind) {
    case 'Deployment':
    case 'ReplicaSet':
    case 'StatefulSet':
    case 'DaemonSet':
      if (!same(['spec', 'selector']))
        errs.push({
          type: 'FieldValueInvalid',
          field: 'spec.selector',
          value: getPath(o, ['spec', 'selector']),
          detail: 'field is immutable',
        });
      break;
    case 'Job':
      if (!same(['spec', 'selector']))
        errs.push({
          type: 'FieldValueInvalid',
          field: 'spec.selector',
          value: getPath(o, ['spec', 'selector']),
          detail: 'field is immutable',
        });
      if (!same(['spec', 'template']))
        errs.push({ type: 'FieldValueInvalid', field: 'spec.template', value: '', detail: 'field is immutable' });
      break;
    case 'Service': {
      const ip = getPath(old, ['spec', 'clusterIP']);
      if (ip !== undefined && ip !== '' && getPath(o, ['spec', 'clusterIP']) !== ip) {
        errs.push({
          type: 'FieldValueInvalid',
          field: 'spec.clusterIP',
          value: getPath(o, ['spec', 'clusterIP']) ?? '',
          detail: 'field is immutable',
        });
      }
      break;
    }
    case 'ConfigMap':
    case 'Secret':
      if (old.immutable === true) {
        if (o.immutable !== true)
          errs.push({
            type: 'FieldValueForbidden',
            field: 'immutable',
            detail: 'field is immutable when `immutable` is set',
          });
        for (const f of ['data', 'binaryData']) {
          if (!deepEqual(o[f] ?? {}, old[f] ?? {}))
            errs.push({ type: 'FieldValueForbidden', field: f, detail: 'field is immutable when `immutable` is set' });
        }
      }
      break;
  }
}

function validateSchedule(schedule: unknown, errs: FieldError[]): void {
  if (typeof schedule !== 'string' || schedule === '') {
    errs.push({ type: 'FieldValueRequired', field: 'spec.schedule', detail: '' });
    return;
  }
  try {
    parseSchedule(schedule);
  } catch (e) {
    errs.push({
      type: 'FieldValueInvalid',
      field: 'spec.schedule',
      value: schedule,
      detail: e instanceof Error ? e.message : String(e),
    });
  }
}

/** The API server's bound on the bytes of a Secret's values, summed (core.MaxSecretSize). */
export const MAX_SECRET_BYTES = 1024 * 1024;

function validateSecretSize(o: KubeObject, errs: FieldError[]): void {
  if (!isMap(o.data)) return;
  let total = 0;
  for (const v of Object.values(o.data)) if (typeof v === 'string') total += Buffer.byteLength(v, 'base64');
  if (total > MAX_SECRET_BYTES)
    errs.push({ type: 'FieldValueTooLong', field: 'data', detail: `must have at most ${MAX_SECRET_BYTES} bytes` });
}

/** A ConfigMap's keys and values together hold at most 1 MiB; the error names the whole object. */
function validateConfigMapSize(o: KubeObject, errs: FieldError[]): void {
  let total = 0;
  if (isMap(o.data))
    for (const [k, v] of Object.entries(o.data)) total += Buffer.byteLength(k) + Buffer.byteLength(String(v));
  if (isMap(o.binaryData))
    for (const [k, v] of Object.entries(o.binaryData))
      total += Buffer.byteLength(k) + (typeof v === 'string' ? Buffer.byteLength(v, 'base64') : 0);
  if (total > MAX_SECRET_BYTES)
    errs.push({ type: 'FieldValueTooLong', field: '[]', detail: `must have at most ${MAX_SECRET_BYTES} bytes` });
}

const TEMPLATE_PATH: Record<string, string[]> = {
  Deployment: ['spec', 'template'],
  ReplicaSet: ['spec', 'template'],
  StatefulSet: ['spec', 'template'],
  DaemonSet: ['spec', 'template'],
  Job: ['spec', 'template'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template'],
};

/** Every field error of an object about to be stored; `old` is the stored object on update. */
export function validate(o: KubeObject, r: ResourceType, old?: KubeObject, binding = false): FieldError[] {
  const errs: FieldError[] = [];
  validateMeta(o, r, errs);
  const tpl = TEMPLATE_PATH[o.kind];
  if (tpl) validateTemplated(o, errs, tpl);
  if (o.kind === 'Pod') validateContainers(o.spec, 'spec', errs);
  if (o.kind === 'Service') validateService(o, errs);
  if (o.kind === 'Job') validateJob(o, errs);
  if (o.kind === 'CronJob') validateSchedule(getPath(o, ['spec', 'schedule']), errs);
  if (o.kind === 'Secret') validateSecretSize(o, errs);
  if (o.kind === 'ConfigMap' && r.group === '') validateConfigMapSize(o, errs);
  if (o.kind === 'Pod' && old && !binding) podUpdateErrors(o, old, errs);
  immutableErrors(o, old, errs);
  return errs;
}

/** The fields of a Pod's spec an update may change (beside its containers' images). */
const POD_SPEC_MUTABLE: ReadonlySet<string> = new Set([
  'activeDeadlineSeconds',
  'tolerations',
  'terminationGracePeriodSeconds',
  'containers',
  'initContainers',
]);
const IMAGE: ReadonlySet<string> = new Set(['image']);

/** Two lists of containers alike but for their images (a missing list is an empty one). */
function sameButImages(a: unknown, b: unknown): boolean {
  const as = Array.isArray(a) ? a : [];
  const bs = Array.isArray(b) ? b : [];
  return (
    as.length === bs.length &&
    as.every((c: unknown, i) => {
      const d: unknown = bs[i];
      return isMap(c) && isMap(d) ? deepEqualExcept(c, d, IMAGE) : deepEqual(c, d);
    })
  );
}

/** A Pod's spec may change only in its images (and a few fields kdeck does not model). */
function podUpdateErrors(o: KubeObject, old: KubeObject, errs: FieldError[]): void {
  const spec = isMap(o.spec) ? o.spec : {};
  const oldSpec = isMap(old.spec) ? old.spec : {};
  const same =
    deepEqualExcept(spec, oldSpec, POD_SPEC_MUTABLE) &&
    sameButImages(spec.containers, oldSpec.containers) &&
    sameButImages(spec.initContainers, oldSpec.initContainers);
  if (!same) {
    errs.push({
      type: 'FieldValueForbidden',
      field: 'spec',
      detail:
        'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    });
  }
}
