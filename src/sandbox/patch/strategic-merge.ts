/**
 * Strategic merge patch (`application/strategic-merge-patch+json`), as kubectl sends it for
 * `apply`, `edit`, `rollout restart`, `cordon`, `scale` and `patch`: maps merge, null deletes,
 * lists merge by their patch merge key where the built-in types define one, and the directives
 * `$patch` (replace, delete, merge), `$retainKeys`, `$setElementOrder/<list>` and
 * `$deleteFromPrimitiveList/<list>` do what the API server does with them.
 */
import { clone, deepEqual, isMap, type JsonMap } from '../json.js';
import { fieldCursor, itemCursor, listKind, type ListKind, type SchemaCursor } from './schema.js';

const ORDER = '$setElementOrder/';
const DELETE_FROM = '$deleteFromPrimitiveList/';

function isDirective(key: string): boolean {
  return key.startsWith('$');
}

/** Applies a strategic merge patch to an object of `cursor.kind`; the result is a new value. */
export function strategicMerge(original: JsonMap, patch: JsonMap, cursor: SchemaCursor): JsonMap {
  return mergeMap(original, patch, cursor) ?? {};
}

/** The merged map, or undefined when the patch says `$patch: delete`. */
function mergeMap(original: JsonMap | undefined, patch: JsonMap, cur: SchemaCursor): JsonMap | undefined {
  const directive = patch.$patch;
  if (directive === 'delete') return undefined;
  if (directive === 'replace') return stripped(patch, cur);
  const out: JsonMap = original ? clone(original) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (isDirective(key)) continue;
    if (value === null) {
      delete out[key];
    } else if (isMap(value)) {
      const child = mergeMap(isMap(out[key]) ? out[key] : undefined, value, fieldCursor(cur, key));
      if (child === undefined) delete out[key];
      else out[key] = child;
    } else if (Array.isArray(value)) {
      out[key] = mergeList(Array.isArray(out[key]) ? out[key] : [], value, listKind(cur, key), fieldCursor(cur, key));
    } else {
      out[key] = value;
    }
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith(DELETE_FROM) && Array.isArray(value)) {
      const field = key.slice(DELETE_FROM.length);
      const list = out[field];
      if (Array.isArray(list)) out[field] = list.filter((x) => !value.some((v) => deepEqual(v, x)));
    }
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith(ORDER) && Array.isArray(value)) {
      const field = key.slice(ORDER.length);
      const list = out[field];
      if (Array.isArray(list)) out[field] = reorder(list, value, listKind(cur, field));
    }
  }
  const retain = patch.$retainKeys;
  if (Array.isArray(retain)) {
    for (const k of Object.keys(out)) if (!retain.includes(k)) delete out[k];
  }
  return out;
}

/** A patch fragment taken as a literal value: its directives removed all the way down. */
function stripped(patch: JsonMap, cur: SchemaCursor): JsonMap {
  return mergeMap(undefined, { ...patch, $patch: undefined }, cur) ?? {};
}

function sameItem(a: unknown, b: unknown, key: string): boolean {
  return isMap(a) && isMap(b) && a[key] !== undefined && deepEqual(a[key], b[key]);
}

function mergeList(original: unknown[], patch: unknown[], lk: ListKind, fieldCur: SchemaCursor): unknown[] {
  if (lk.type === 'atomic') return clone(patch);
  if (lk.type === 'set') {
    const out = clone(original);
    for (const v of patch) if (!out.some((x) => deepEqual(x, v))) out.push(clone(v));
    return out;
  }
  const itemCur = itemCursor(fieldCur, lk);
  const key = lk.mergeKey;
  if (patch.some((p) => isMap(p) && p.$patch === 'replace')) {
    return patch.filter((p) => !(isMap(p) && p.$patch === 'replace')).map((p) => (isMap(p) ? stripped(p, itemCur) : p));
  }
  const out = clone(original);
  for (const p of patch) {
    if (!isMap(p)) {
      out.push(clone(p));
      continue;
    }
    const at = out.findIndex((x) => sameItem(x, p, key));
    if (p.$patch === 'delete') {
      if (at >= 0) out.splice(at, 1);
      continue;
    }
    if (at >= 0) {
      const merged = mergeMap(out[at] as JsonMap, p, itemCur);
      if (merged === undefined) out.splice(at, 1);
      else out[at] = merged;
    } else {
      out.push(stripped(p, itemCur));
    }
  }
  return out;
}

/** Items named in `order` first, in that order; the rest after them, as they were. */
function reorder(list: unknown[], order: unknown[], lk: ListKind): unknown[] {
  const rest = [...list];
  const out: unknown[] = [];
  for (const o of order) {
    const at = rest.findIndex((x) => (lk.type === 'map' ? sameItem(x, o, lk.mergeKey) : deepEqual(x, o)));
    if (at >= 0) out.push(...rest.splice(at, 1));
  }
  return [...out, ...rest];
}
