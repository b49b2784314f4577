/**
 * The field-level difference of two objects, with paths people read: lists of named items are
 * addressed by name (`containers[name=web].image`) as dyff and kusion do, other lists by index.
 * Secret data is masked unless asked for.
 */
import microdiff from 'microdiff';
import { isObject, type Attributes } from '../model/resource.js';
import { namedList } from './normalize.js';

export interface FieldChange {
  kind: 'add' | 'remove' | 'change';
  /** `spec.template.spec.containers[name=web].image` */
  path: string;
  from?: unknown;
  to?: unknown;
}

const NAMED = /^\[name=.*\]$/;

/** Lists of named items become maps keyed `[name=<name>]`, so an insertion does not shift the rest. */
function keyed(x: unknown): unknown {
  if (Array.isArray(x)) {
    if (namedList(x))
      return Object.fromEntries(x.map((item) => [`[name=${String((item as Attributes).name)}]`, keyed(item)]));
    return x.map(keyed);
  }
  if (isObject(x)) return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, keyed(v)]));
  return x;
}

/** Undoes `keyed` on a value shown to the user. */
function unkeyed(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(unkeyed);
  if (isObject(x)) {
    const entries = Object.entries(x);
    if (entries.length > 0 && entries.every(([k]) => NAMED.test(k))) return entries.map(([, v]) => unkeyed(v));
    return Object.fromEntries(entries.map(([k, v]) => [k, unkeyed(v)]));
  }
  return x;
}

function pathText(path: (string | number)[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (NAMED.test(p)) out += p;
    else if (/^[A-Za-z_][\w-]*$/.test(p)) out += out ? `.${p}` : p;
    else out += `[${JSON.stringify(p)}]`;
  }
  return out;
}

export const MASK = '***';

/** Whether a path of a Secret holds secret material. */
function secretPath(path: (string | number)[]): boolean {
  return path[0] === 'data' || path[0] === 'stringData';
}

function masked(value: unknown): unknown {
  if (isObject(value)) return Object.fromEntries(Object.keys(value).map((k) => [k, MASK]));
  return value === undefined ? undefined : MASK;
}

/** A copy of a Secret with its values masked; other kinds unchanged. */
export function maskSecret(o: Attributes): Attributes {
  if (o.kind !== 'Secret') return o;
  const copy = { ...o };
  for (const k of ['data', 'stringData']) if (isObject(copy[k])) copy[k] = masked(copy[k]);
  const annotations =
    isObject(copy.metadata) && isObject(copy.metadata.annotations) ? copy.metadata.annotations : undefined;
  // kubectl keeps the whole object, data included, in this annotation
  if (annotations?.['kubectl.kubernetes.io/last-applied-configuration'] !== undefined) {
    copy.metadata = {
      ...(copy.metadata as Attributes),
      annotations: { ...annotations, 'kubectl.kubernetes.io/last-applied-configuration': MASK },
    };
  }
  return copy;
}

/** What changes from `before` to `after`, in document order of the paths. */
export function fieldChanges(
  before: Attributes,
  after: Attributes,
  options: { showSecrets?: boolean } = {},
): FieldChange[] {
  const secret = (before.kind ?? after.kind) === 'Secret' && !options.showSecrets;
  // a create (every plan of a new stack): each field of the object is added whole, which is what
  // the diff from nothing says, without keying and unkeying every value of the object for it
  if (Object.keys(before).length === 0)
    return Object.entries(after).map(([k, v]) => ({
      kind: 'add',
      path: pathText([k]),
      to: secret && secretPath([k]) ? masked(v) : v,
    }));
  return microdiff(keyed(before) as Attributes, keyed(after) as Attributes).map((d) => {
    const hide = secret && secretPath(d.path);
    const show = (v: unknown) => (hide ? masked(v) : unkeyed(v));
    const path = pathText(d.path);
    if (d.type === 'CREATE') return { kind: 'add', path, to: show(d.value) };
    if (d.type === 'REMOVE') return { kind: 'remove', path, from: show(d.oldValue) };
    return { kind: 'change', path, from: show(d.oldValue), to: show(d.value) };
  });
}
