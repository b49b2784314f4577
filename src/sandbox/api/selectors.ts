/**
 * Label and field selectors as the API server parses them from `labelSelector` and
 * `fieldSelector`, and label selectors as objects carry them (`matchLabels`, `matchExpressions`).
 * A malformed selector is a 400 BadRequest, with the server's wording.
 */
import { badRequest } from './errors.js';
import { getPath, isMap } from '../json.js';
import type { KubeObject } from './object.js';

export type Requirement = { key: string; op: 'in' | 'notin'; values: string[] } | { key: string; op: 'exists' | '!' };

export type LabelSelector = readonly Requirement[];

const KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function checkKey(key: string, text: string): string {
  if (!KEY.test(key) || key.length > 317)
    throw badRequest(
      `unable to parse requirement: invalid label key "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (in selector "${text}")`,
    );
  return key;
}

function checkValue(v: string, text: string): string {
  if (!VALUE.test(v) || v.length > 63)
    throw badRequest(
      `unable to parse requirement: invalid label value: "${v}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (in selector "${text}")`,
    );
  return v;
}

/** Splits at commas that are not inside parentheses. */
function splitTerms(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim());
}

export function parseLabelSelector(text: string | undefined): LabelSelector {
  if (text === undefined || text.trim() === '') return [];
  const reqs: Requirement[] = [];
  for (const term of splitTerms(text)) {
    if (term === '')
      throw badRequest(`unable to parse requirement: found '', expected: identifier (in selector "${text}")`);
    let m = /^!\s*(\S+)$/.exec(term);
    if (m) {
      reqs.push({ key: checkKey(m[1]!, text), op: '!' });
      continue;
    }
    m = /^(\S+?)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term);
    if (m) {
      const values = m[3]!.split(',').map((v) => checkValue(v.trim(), text));
      reqs.push({ key: checkKey(m[1]!, text), op: m[2] as 'in' | 'notin', values });
      continue;
    }
    m = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(term);
    if (m) {
      reqs.push({ key: checkKey(m[1]!, text), op: m[2] === '!=' ? 'notin' : 'in', values: [checkValue(m[3]!, text)] });
      continue;
    }
    if (/^\S+$/.test(term)) {
      reqs.push({ key: checkKey(term, text), op: 'exists' });
      continue;
    }
    throw badRequest(
      `unable to parse requirement: found '${term}', expected: in, notin, =, ==, !=, gt, lt (in selector "${text}")`,
    );
  }
  return reqs;
}

export function matchesLabels(sel: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  for (const r of sel) {
    const v = labels?.[r.key];
    switch (r.op) {
      case 'exists':
        if (v === undefined) return false;
        break;
      case '!':
        if (v !== undefined) return false;
        break;
      case 'in':
        if (v === undefined || !r.values.includes(v)) return false;
        break;
      case 'notin':
        if (v !== undefined && r.values.includes(v)) return false;
        break;
    }
  }
  return true;
}

/**
 * A metav1.LabelSelector as objects carry it (`spec.selector` of workloads). `undefined` (no
 * selector) matches nothing; `{}` matches everything.
 */
export function selectorFromObject(sel: unknown): LabelSelector | undefined {
  if (!isMap(sel)) return undefined;
  const reqs: Requirement[] = [];
  const ml = sel.matchLabels;
  if (isMap(ml)) for (const [k, v] of Object.entries(ml)) reqs.push({ key: k, op: 'in', values: [String(v)] });
  const me = sel.matchExpressions;
  if (Array.isArray(me)) {
    for (const e of me) {
      if (!isMap(e) || typeof e.key !== 'string') continue;
      const values = Array.isArray(e.values) ? e.values.map(String) : [];
      switch (e.operator) {
        case 'In':
          reqs.push({ key: e.key, op: 'in', values });
          break;
        case 'NotIn':
          reqs.push({ key: e.key, op: 'notin', values });
          break;
        case 'Exists':
          reqs.push({ key: e.key, op: 'exists' });
          break;
        case 'DoesNotExist':
          reqs.push({ key: e.key, op: '!' });
          break;
      }
    }
  }
  return reqs;
}

/** A plain map selector (Service `spec.selector`, matchLabels). */
export function selectorFromMap(m: Readonly<Record<string, string>>): LabelSelector {
  return Object.entries(m).map(([key, v]) => ({ key, op: 'in' as const, values: [v] }));
}

export interface FieldRequirement {
  field: string;
  equal: boolean;
  value: string;
}

export type FieldSelector = readonly FieldRequirement[];

/** The fields each kind may be selected on, beyond metadata.name and metadata.namespace. */
const EXTRA_FIELDS: Record<string, readonly string[]> = {
  Pod: [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  Event: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  Secret: ['type'],
  Namespace: ['status.phase'],
  Node: ['spec.unschedulable'],
  ReplicaSet: ['status.replicas'],
  Job: ['status.successful'],
};

export function parseFieldSelector(text: string | undefined, kind: string): FieldSelector {
  if (text === undefined || text.trim() === '') return [];
  const out: FieldRequirement[] = [];
  for (const term of text.split(',')) {
    const m = /^\s*([^=!\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(term);
    if (!m) throw badRequest(`invalid selector: '${text}'; can't understand '${term}'`);
    const field = m[1]!;
    if (field !== 'metadata.name' && field !== 'metadata.namespace' && !(EXTRA_FIELDS[kind] ?? []).includes(field)) {
      throw badRequest(`field label not supported: ${field}`);
    }
    out.push({ field, equal: m[2] !== '!=', value: m[3]! });
  }
  return out;
}

function fieldValue(obj: KubeObject, field: string): string {
  if (field === 'source') return String(getPath(obj, ['source', 'component']) ?? '');
  if (field === 'status.successful') return String(getPath(obj, ['status', 'succeeded']) ?? '0');
  const v = getPath(obj, field.split('.'));
  if (v === undefined || v === null)
    return field === 'spec.unschedulable' || field === 'spec.hostNetwork' ? 'false' : '';
  return String(v);
}

export function matchesFields(sel: FieldSelector, obj: KubeObject): boolean {
  for (const r of sel) if ((fieldValue(obj, r.field) === r.value) !== r.equal) return false;
  return true;
}
