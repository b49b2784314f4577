/**
 * Server-side apply: merges a manager's configuration into the live object, refuses (409) to
 * change a value another manager owns unless forced, takes ownership of the configuration's
 * fields, and removes the fields the manager applied before but has now left out — unless
 * someone else still owns them.
 */
import { ApiError } from '../api/errors.js';
import { clone, deepEqual, getPath, isMap, type JsonMap } from '../json.js';
import type { ManagedFieldsEntry } from '../api/object.js';
import { describePath, fieldPaths, isLeaf, removeAt, valueAt, type FieldPath, type Scope } from './fieldset.js';
import { formatManagedFields, parseManagedFields, sameOwner, type Ownership } from './managed-fields.js';
import { fieldCursor, itemCursor, listKind, rootCursor, type SchemaCursor } from './schema.js';

export interface ApplyRequest {
  /** The stored object, or undefined when apply creates it. */
  live: JsonMap | undefined;
  config: JsonMap;
  kind: string;
  manager: string;
  force: boolean;
  scope: Scope;
  subresource?: string;
  apiVersion: string;
  time: string;
}

export interface ApplyResult {
  /** The merged object, before defaulting and validation. */
  object: JsonMap;
  managedFields: ManagedFieldsEntry[];
}

/**
 * The configuration as it is merged: explicit nulls dropped (they mean "not set by me") and the
 * defaulted key fields of keyed-list items filled in, so an item matches its live counterpart.
 */
function normalized(v: unknown, owner: SchemaCursor, field: string | undefined): unknown {
  if (Array.isArray(v) && field !== undefined) {
    const lk = listKind(owner, field);
    if (lk.type !== 'map') return v.map((x) => normalized(x, fieldCursor(owner, field), undefined));
    const ic = itemCursor(fieldCursor(owner, field), lk);
    return v.map((item) => {
      const n = normalized(item, ic, undefined);
      if (!isMap(n)) return n;
      for (const [k, d] of Object.entries(lk.keyDefaults ?? {})) if (n[k] === undefined) n[k] = d;
      return n;
    });
  }
  if (!isMap(v)) return v;
  const cur = field === undefined ? owner : fieldCursor(owner, field);
  const out: JsonMap = {};
  for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined) out[k] = normalized(x, cur, k);
  return out;
}

/** Merges `config` into `target` (a copy of the live object) in place. */
function mergeInto(target: JsonMap, config: JsonMap, cur: SchemaCursor): void {
  for (const [k, v] of Object.entries(config)) target[k] = mergeField(target[k], v, cur, k);
}

function mergeField(live: unknown, config: unknown, owner: SchemaCursor, field: string): unknown {
  if (isMap(config)) {
    const out = isMap(live) ? live : {};
    mergeInto(out, config, fieldCursor(owner, field));
    return out;
  }
  if (!Array.isArray(config)) return clone(config);
  const lk = listKind(owner, field);
  const liveList = Array.isArray(live) ? live : [];
  if (lk.type === 'set') return [...clone(config), ...liveList.filter((x) => !config.some((c) => deepEqual(c, x)))];
  if (lk.type === 'atomic') return clone(config);
  const sameKey = (a: unknown, b: unknown) => isMap(a) && isMap(b) && lk.keys.every((k) => deepEqual(a[k], b[k]));
  const ic = itemCursor(fieldCursor(owner, field), lk);
  const merged = config.map((c) => {
    const l = liveList.find((x) => sameKey(x, c));
    const out = isMap(l) ? l : {};
    if (isMap(c)) mergeInto(out, c, ic);
    return out;
  });
  return [...merged, ...liveList.filter((l) => !config.some((c) => sameKey(l, c)))];
}

interface Conflict {
  owner: Ownership;
  path: FieldPath;
}

function conflictError(conflicts: readonly Conflict[]): ApiError {
  const who = (o: Ownership) =>
    `"${o.manager}"${o.subresource ? ` with subresource "${o.subresource}"` : ''} using ${o.apiVersion}`;
  const byOwner = new Map<Ownership, FieldPath[]>();
  for (const c of conflicts) byOwner.set(c.owner, [...(byOwner.get(c.owner) ?? []), c.path]);
  const parts = [...byOwner].map(([o, paths]) =>
    paths.length === 1
      ? `conflict with ${who(o)}: ${describePath(paths[0]!)}`
      : `conflicts with ${who(o)}:\n${paths.map((p) => `- ${describePath(p)}`).join('\n')}`,
  );
  const n = conflicts.length;
  return new ApiError(409, 'Conflict', `Apply failed with ${n} conflict${n === 1 ? '' : 's'}: ${parts.join('\n')}`, {
    causes: conflicts.map((c) => ({
      type: 'FieldManagerConflict',
      reason: 'FieldManagerConflict',
      message: `conflict with ${who(c.owner)}`,
      field: describePath(c.path),
    })),
  });
}

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * The way from client-side to server-side apply: for the manager `kubectl`, a conflict over a
 * field that the last client-side apply set, and that still holds that value, is no conflict.
 */
function upgradableFromClientSide(live: JsonMap, kind: string): Set<FieldPath> {
  const text = getPath(live, ['metadata', 'annotations', LAST_APPLIED]);
  if (typeof text !== 'string') return new Set();
  let last: unknown;
  try {
    last = JSON.parse(text);
  } catch {
    return new Set();
  }
  if (!isMap(last)) return new Set();
  const unchanged = [...fieldPaths(last, kind, 'main')].filter((p) => deepEqual(valueAt(last, p), valueAt(live, p)));
  return new Set(unchanged);
}

export function serverSideApply(req: ApplyRequest): ApplyResult {
  const config = normalized(req.config, rootCursor(req.kind), undefined) as JsonMap;
  const applied = fieldPaths(config, req.kind, req.scope);
  const mine = (o: Ownership) => sameOwner(o, req.manager, 'Apply', req.subresource);
  const fresh = (): Ownership => {
    const o: Ownership = {
      manager: req.manager,
      operation: 'Apply',
      apiVersion: req.apiVersion,
      time: req.time,
      fields: applied,
    };
    if (req.subresource) o.subresource = req.subresource;
    return o;
  };
  if (!req.live) return { object: clone(config), managedFields: formatManagedFields([fresh()]) };

  const owners = parseManagedFields(
    req.live.metadata && isMap(req.live.metadata)
      ? (req.live.metadata.managedFields as ManagedFieldsEntry[] | undefined)
      : undefined,
  );
  const conflicts: Conflict[] = [];
  for (const o of owners) {
    if (mine(o)) continue;
    for (const p of applied) {
      if (o.fields.has(p) && isLeaf(p) && !deepEqual(valueAt(req.live, p), valueAt(config, p)))
        conflicts.push({ owner: o, path: p });
    }
  }
  if (conflicts.length > 0 && !req.force) {
    const allowed = req.manager === 'kubectl' ? upgradableFromClientSide(req.live, req.kind) : new Set<FieldPath>();
    const remaining = conflicts.filter((c) => !allowed.has(c.path));
    if (remaining.length > 0) throw conflictError(remaining);
  }
  for (const c of conflicts) c.owner.fields.delete(c.path);

  const object = clone(req.live);
  mergeInto(object, config, rootCursor(req.kind));
  const before = owners.find(mine);
  // re-applying the same fields is not news: the entry keeps its time, so a no-op stays a no-op
  const unchanged =
    before !== undefined && before.fields.size === applied.size && [...applied].every((p) => before.fields.has(p));
  if (before) {
    const stillOwned = (p: FieldPath) => owners.some((o) => !mine(o) && o.fields.has(p));
    // deepest first, so an item goes after the fields inside it
    const dropped = [...before.fields]
      .filter((p) => !applied.has(p) && !stillOwned(p))
      .sort((a, b) => b.length - a.length);
    for (const p of dropped) removeAt(object, p);
  }
  const entry = fresh();
  if (unchanged) entry.time = before.time;
  // the applier's entry keeps its place in the list, as the server keeps it
  const list = before ? owners.map((o) => (o === before ? entry : o)) : [...owners, entry];
  return { object, managedFields: formatManagedFields(list) };
}
