/**
 * Field paths, the unit of ownership in server-side apply. A path is a list of FieldsV1 tokens:
 * `f:<field>` for a map key, `k:<json>` for an item of a keyed list (its key fields as JSON),
 * `v:<json>` for an item of a set. A field set holds the leaves of an object plus the keyed-list
 * items themselves, and is stored in `metadata.managedFields[].fieldsV1` in the server's own
 * trie encoding (`{"f:spec":{"f:replicas":{}}}`, `"."` marking an owned node with children).
 */
import { deepEqual, isMap, type JsonMap } from '../json.js';
import { fieldCursor, itemCursor, listKind, rootCursor, type SchemaCursor } from './schema.js';

/** Tokens joined by NUL, which no token contains. */
export type FieldPath = string;
export type FieldSet = Set<FieldPath>;

export const SEP = '\u0000';

/** Which part of an object a write may touch: everything but status, or only status. */
export type Scope = 'main' | 'status';

/** Metadata fields a manager can own; the rest belong to the server. */
export const OWNABLE_META = new Set(['labels', 'annotations', 'ownerReferences', 'finalizers']);

export function keyToken(item: JsonMap, keys: readonly string[]): string {
  const k: JsonMap = {};
  for (const name of [...keys].sort()) if (item[name] !== undefined) k[name] = item[name];
  return `k:${JSON.stringify(k)}`;
}

export function walk(v: JsonMap, cur: SchemaCursor, prefix: string, out: FieldSet): void {
  for (const [key, value] of Object.entries(v)) {
    if (value === undefined) continue;
    const p = prefix + `f:${key}`;
    walkValue(value, cur, key, p, out);
  }
}

export function walkValue(value: unknown, cur: SchemaCursor, key: string, p: string, out: FieldSet): void {
  if (isMap(value)) {
    if (Object.keys(value).length === 0) out.add(p);
    else walk(value, fieldCursor(cur, key), p + SEP, out);
    return;
  }
  if (Array.isArray(value)) {
    const lk = listKind(cur, key);
    if (lk.type === 'atomic' || value.length === 0) {
      out.add(p);
    } else if (lk.type === 'set') {
      for (const item of value) out.add(p + SEP + `v:${JSON.stringify(item)}`);
    } else {
      const ic = itemCursor(fieldCursor(cur, key), lk);
      for (const item of value) {
        if (!isMap(item)) continue;
        const ip = p + SEP + keyToken(item, lk.keys);
        out.add(ip);
        walk(item, ic, ip + SEP, out);
      }
    }
    return;
  }
  out.add(p);
}

/** The field paths set in an object, within a scope. */
export function fieldPaths(obj: JsonMap, kind: string, scope: Scope): FieldSet {
  const out: FieldSet = new Set();
  const root = rootCursor(kind);
  for (const [key, value] of Object.entries(obj)) {
    if (value === undefined || key === 'apiVersion' || key === 'kind') continue;
    if ((scope === 'status') !== (key === 'status')) continue;
    if (key === 'metadata') {
      if (!isMap(value)) continue;
      const meta = fieldCursor(root, 'metadata');
      for (const [mk, mv] of Object.entries(value)) {
        if (OWNABLE_META.has(mk) && mv !== undefined && mv !== null)
          walkValue(mv, meta, mk, `f:metadata${SEP}f:${mk}`, out);
      }
      continue;
    }
    walkValue(value, root, key, `f:${key}`, out);
  }
  return out;
}

function tokensOf(p: FieldPath): string[] {
  return p.split(SEP);
}

/** `.spec.template.spec.containers[name="app"].image`: a path as conflict messages print it. */
export function describePath(p: FieldPath): string {
  let s = '';
  for (const t of tokensOf(p)) {
    if (t.startsWith('f:')) s += `.${t.slice(2)}`;
    else if (t.startsWith('k:')) {
      const k = JSON.parse(t.slice(2)) as JsonMap;
      s += `[${Object.entries(k)
        .map(([n, v]) => `${n}=${JSON.stringify(v)}`)
        .join(',')}]`;
    } else s += `[${t.slice(2)}]`;
  }
  return s;
}

/** Whether a path names a value (as opposed to a keyed-list item, which only groups fields). */
export function isLeaf(p: FieldPath): boolean {
  const last = p.lastIndexOf(SEP);
  return !p.startsWith('k:', last + 1);
}

function step(cur: unknown, token: string): unknown {
  if (token.startsWith('f:')) return isMap(cur) ? cur[token.slice(2)] : undefined;
  if (!Array.isArray(cur)) return undefined;
  const spec = JSON.parse(token.slice(2)) as unknown;
  if (token.startsWith('v:')) return cur.find((x) => deepEqual(x, spec));
  const key = spec as JsonMap;
  return cur.find((x) => isMap(x) && Object.entries(key).every(([k, v]) => deepEqual(x[k], v)));
}

export function valueAt(obj: unknown, p: FieldPath): unknown {
  let cur = obj;
  for (const t of tokensOf(p)) {
    cur = step(cur, t);
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Deletes the value or list item at a path from an object being built. */
export function removeAt(obj: JsonMap, p: FieldPath): void {
  const ts = tokensOf(p);
  let cur: unknown = obj;
  for (const t of ts.slice(0, -1)) {
    cur = step(cur, t);
    if (cur === undefined) return;
  }
  const last = ts[ts.length - 1]!;
  if (last.startsWith('f:')) {
    if (isMap(cur)) delete cur[last.slice(2)];
    return;
  }
  if (!Array.isArray(cur)) return;
  const item = step(cur, last);
  const at = cur.indexOf(item);
  if (at >= 0) cur.splice(at, 1);
}

/**
 * A field set in FieldsV1 encoding. Sorted, a path's descendants follow it at once (NUL sorts
 * before every other character), so whether it has any is a look at the next path, and every
 * map gets its keys in order with `"."` first, as the API server writes them.
 */
export function toFieldsV1(set: FieldSet): JsonMap {
  const root: JsonMap = {};
  const sorted = [...set].sort();
  for (let i = 0; i < sorted.length; i++) {
    const p = sorted[i]!;
    let node = root;
    for (const t of tokensOf(p)) {
      const next = node[t];
      node = isMap(next) ? next : (node[t] = {});
    }
    if (!isLeaf(p) || sorted[i + 1]?.startsWith(p + SEP)) node['.'] = {};
  }
  return root;
}

export function fromFieldsV1(v: unknown): FieldSet {
  const out: FieldSet = new Set();
  const visit = (node: JsonMap, prefix: string) => {
    for (const [t, child] of Object.entries(node)) {
      if (t === '.') continue;
      const p = prefix === '' ? t : prefix + SEP + t;
      const c = isMap(child) ? child : {};
      const keys = Object.keys(c);
      if (keys.length === 0 || keys.includes('.')) out.add(p);
      visit(c, p);
    }
  };
  if (isMap(v)) visit(v, '');
  return out;
}
