/**
 * What the server owns, taken out before two objects are compared: status, the bookkeeping in
 * metadata, annotations controllers write, and any fields the user asked to ignore. Pure.
 */
import { isObject, type Attributes } from '../model/resource.js';

const SERVER_METADATA = [
  'managedFields',
  'resourceVersion',
  'uid',
  'generation',
  'creationTimestamp',
  'selfLink',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
];
const SERVER_ANNOTATIONS = ['deployment.kubernetes.io/revision', 'kubectl.kubernetes.io/last-applied-configuration'];

/** Removes a dotted path (`metadata.labels`, `spec.template.spec.containers.image`), across lists too. */
function removePath(x: unknown, path: string[]): void {
  if (path.length === 0) return;
  if (Array.isArray(x)) {
    for (const item of x) removePath(item, path);
    return;
  }
  if (!isObject(x)) return;
  const [head, ...rest] = path;
  if (rest.length === 0) delete x[head];
  else removePath(x[head], rest);
}

/** A copy of `o` without what the server owns and without the `ignore` paths. */
export function normalize(o: Attributes, ignore: string[] = []): Attributes {
  const copy = structuredClone(o);
  delete copy.status;
  const metadata = copy.metadata;
  if (isObject(metadata)) {
    for (const k of SERVER_METADATA) delete metadata[k];
    if (isObject(metadata.annotations)) {
      for (const k of SERVER_ANNOTATIONS) delete metadata.annotations[k];
      if (Object.keys(metadata.annotations).length === 0) delete metadata.annotations;
    }
  }
  for (const p of ignore) removePath(copy, p.split('.').filter(Boolean));
  return copy;
}

/**
 * The part of `live` that `shape` sets: the fields a manifest manages, without the defaults
 * the server added. Lists of named items are matched by name, other lists by position.
 */
export function projectOnto(live: unknown, shape: unknown): unknown {
  if (isObject(shape)) {
    if (!isObject(live)) return live;
    const out: Attributes = {};
    for (const k of Object.keys(shape)) if (k in live) out[k] = projectOnto(live[k], shape[k]);
    return out;
  }
  if (Array.isArray(shape)) {
    if (!Array.isArray(live)) return live;
    if (namedList(shape) && namedList(live)) {
      const byName = new Map(live.map((item) => [(item as Attributes).name, item]));
      return shape.map((s) => projectOnto(byName.get((s as Attributes).name), s)).filter((x) => x !== undefined);
    }
    return live.map((item, i) => (i < shape.length ? projectOnto(item, shape[i]) : item));
  }
  return live;
}

/** A list whose items are objects with distinct string names (containers, ports, env, volumes). */
export function namedList(xs: unknown[]): boolean {
  if (xs.length === 0 || !xs.every((x) => isObject(x) && typeof x.name === 'string')) return false;
  return new Set(xs.map((x) => (x as Attributes).name)).size === xs.length;
}
