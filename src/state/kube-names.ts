/**
 * How a state key maps onto Kubernetes objects: the name of its Secret and Lease
 * (`kdeck-state-<project>-<stack>-<cluster>`, a valid DNS-1123 subdomain), the labels that list
 * them, and the annotations that keep the exact key. A name is readable where the key allows;
 * where sanitising lost something (capitals, `_`, `@`, a long context name) a hash of the exact key
 * is appended, so two keys never share a name by sanitising. Labels only filter (their values
 * are sanitised too); the key is always read back from the annotations.
 */
import { createHash } from 'node:crypto';
import type { StateKey } from './model.js';

export const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'kdeck' } as const;
export const COMPONENT = 'app.kubernetes.io/component';
/** What a state's objects are: its head Secret, the Secrets its chunks spill into, its Lease. */
export type Part = 'state' | 'state-chunk' | 'state-lock';

export const ANNOTATION = {
  project: 'kdeck.io/project',
  stack: 'kdeck.io/stack',
  cluster: 'kdeck.io/cluster',
  serial: 'kdeck.io/serial',
  encoding: 'kdeck.io/encoding',
  digest: 'kdeck.io/sha256',
  chunks: 'kdeck.io/chunks',
  generation: 'kdeck.io/generation',
  index: 'kdeck.io/index',
  operation: 'kdeck.io/operation',
} as const;

export const LABEL = {
  project: 'kdeck.io/project',
  stack: 'kdeck.io/stack',
  cluster: 'kdeck.io/cluster',
  /** The same on a state's head, chunks and lock: a hash of the exact key. */
  stateId: 'kdeck.io/state-id',
  generation: 'kdeck.io/generation',
  serial: 'kdeck.io/serial',
} as const;

/** The longest head name: room is left for a chunk's `-<generation>-<index>`. */
const MAX_HEAD_NAME = 253 - 24;

const hashOf = (key: StateKey, length: number) =>
  createHash('sha256')
    .update(JSON.stringify([key.project, key.stack, key.cluster]))
    .digest('hex')
    .slice(0, length);

const dnsPart = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** The name of the head Secret and of the Lease of `key`. */
export function stateObjectName(key: StateKey): string {
  const parts = [key.project, key.stack, key.cluster];
  const clean = parts.map(dnsPart);
  const plain = ['kdeck-state', ...clean].join('-');
  const lossless = clean.every((c, i) => c === parts[i] && c !== '');
  if (lossless && plain.length <= MAX_HEAD_NAME) return plain;
  return `${plain.slice(0, MAX_HEAD_NAME - 9).replace(/-+$/, '')}-${hashOf(key, 8)}`;
}

/** The name of chunk `index` of a head's generation. */
export const chunkName = (head: string, generation: string, index: number) => `${head}-${generation}-${index}`;

/** A label value: at most 63 characters of `[A-Za-z0-9._-]`, alphanumeric at both ends. */
function labelValue(s: string): string {
  return s
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .slice(0, 63)
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
}

export const stateId = (key: StateKey) => hashOf(key, 16);

export function labelsOf(key: StateKey, part: Part): Record<string, string> {
  return {
    ...MANAGED_BY,
    [COMPONENT]: part,
    [LABEL.project]: labelValue(key.project),
    [LABEL.stack]: labelValue(key.stack),
    [LABEL.cluster]: labelValue(key.cluster),
    [LABEL.stateId]: stateId(key),
  };
}

export const selectorOf = (part: Part, more: Record<string, string> = {}) =>
  Object.entries({ ...MANAGED_BY, [COMPONENT]: part, ...more })
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

export const keyAnnotations = (key: StateKey): Record<string, string> => ({
  [ANNOTATION.project]: key.project,
  [ANNOTATION.stack]: key.stack,
  [ANNOTATION.cluster]: key.cluster,
});

/** The key an object's annotations name, if they name one. */
export function keyFromAnnotations(annotations: Record<string, string> | undefined): StateKey | undefined {
  const project = annotations?.[ANNOTATION.project];
  const stack = annotations?.[ANNOTATION.stack];
  const cluster = annotations?.[ANNOTATION.cluster];
  return project !== undefined && stack !== undefined && cluster !== undefined
    ? { project, stack, cluster }
    : undefined;
}

export const sameKey = (a: StateKey | undefined, b: StateKey) =>
  a?.project === b.project && a.stack === b.stack && a.cluster === b.cluster;
