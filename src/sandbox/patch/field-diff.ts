/**
 * The field paths a write changed: walks the old and the new object together (skipping whatever
 * they share, which a status write leaves untouched) rather than listing and comparing every
 * path of both.
 */
import { deepEqual, isMap, type JsonMap } from '../json.js';
import { keyToken, OWNABLE_META, SEP, walk, walkValue, type FieldSet, type Scope } from './fieldset.js';
import { fieldCursor, itemCursor, listKind, rootCursor, type SchemaCursor } from './schema.js';

export interface FieldChanges {
  /** Paths added or given another value. */
  touched: FieldSet;
  /** Paths that are gone. */
  removed: FieldSet;
}

function replaced(a: unknown, b: unknown, cur: SchemaCursor, key: string, p: string, out: FieldChanges): void {
  walkValue(a, cur, key, p, out.removed);
  walkValue(b, cur, key, p, out.touched);
}

function diffMap(a: JsonMap, b: JsonMap, cur: SchemaCursor, prefix: string, out: FieldChanges): void {
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
    diffValue(a[k], b[k], cur, k, `${prefix}f:${k}`, out);
}

function diffList(a: unknown[], b: unknown[], cur: SchemaCursor, key: string, p: string, out: FieldChanges): void {
  const lk = listKind(cur, key);
  if (lk.type === 'atomic' || a.length === 0 || b.length === 0) {
    if (!deepEqual(a, b)) replaced(a, b, cur, key, p, out);
    return;
  }
  if (lk.type === 'set') {
    const before = new Set(a.map((x) => JSON.stringify(x)));
    const after = new Set(b.map((x) => JSON.stringify(x)));
    for (const x of after) if (!before.has(x)) out.touched.add(`${p}${SEP}v:${x}`);
    for (const x of before) if (!after.has(x)) out.removed.add(`${p}${SEP}v:${x}`);
    return;
  }
  const ic = itemCursor(fieldCursor(cur, key), lk);
  const byKey = (list: unknown[]) => new Map(list.filter(isMap).map((item) => [keyToken(item, lk.keys), item]));
  const before = byKey(a);
  const after = byKey(b);
  for (const [tok, item] of after) {
    const ip = `${p}${SEP}${tok}`;
    const old = before.get(tok);
    if (!old) {
      out.touched.add(ip);
      walk(item, ic, ip + SEP, out.touched);
    } else if (old !== item) diffMap(old, item, ic, ip + SEP, out);
  }
  for (const [tok, item] of before) {
    if (after.has(tok)) continue;
    const ip = `${p}${SEP}${tok}`;
    out.removed.add(ip);
    walk(item, ic, ip + SEP, out.removed);
  }
}

function diffValue(a: unknown, b: unknown, cur: SchemaCursor, key: string, p: string, out: FieldChanges): void {
  if (a === b) return;
  if (a === undefined) return walkValue(b, cur, key, p, out.touched);
  if (b === undefined) return walkValue(a, cur, key, p, out.removed);
  if (isMap(a) && isMap(b)) {
    const emptyA = Object.keys(a).length === 0;
    const emptyB = Object.keys(b).length === 0;
    if (emptyA && emptyB) return;
    if (emptyA || emptyB) return replaced(a, b, cur, key, p, out);
    return diffMap(a, b, fieldCursor(cur, key), p + SEP, out);
  }
  if (Array.isArray(a) && Array.isArray(b)) return diffList(a, b, cur, key, p, out);
  if (isMap(a) || isMap(b) || Array.isArray(a) || Array.isArray(b)) return replaced(a, b, cur, key, p, out);
  out.touched.add(p);
}

/** What a write from `before` to `after` changed, within a scope. */
export function diffFields(before: JsonMap | undefined, after: JsonMap, kind: string, scope: Scope): FieldChanges {
  const out: FieldChanges = { touched: new Set(), removed: new Set() };
  const root = rootCursor(kind);
  const old = before ?? {};
  for (const key of new Set([...Object.keys(old), ...Object.keys(after)])) {
    if (key === 'apiVersion' || key === 'kind' || (scope === 'status') !== (key === 'status')) continue;
    if (key !== 'metadata') {
      diffValue(old[key], after[key], root, key, `f:${key}`, out);
      continue;
    }
    const ma = isMap(old.metadata) ? old.metadata : {};
    const mb = isMap(after.metadata) ? after.metadata : {};
    const meta = fieldCursor(root, 'metadata');
    for (const mk of OWNABLE_META) {
      const va = ma[mk] === null ? undefined : ma[mk];
      const vb = mb[mk] === null ? undefined : mb[mk];
      diffValue(va, vb, meta, mk, `f:metadata${SEP}f:${mk}`, out);
    }
  }
  // a value replaced in place (an atomic list, a map emptied) is changed, not gone
  for (const p of out.touched) out.removed.delete(p);
  return out;
}
