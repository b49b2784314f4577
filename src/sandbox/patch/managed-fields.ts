/**
 * `metadata.managedFields`: who owns which fields. An ordinary write (create, update, patch)
 * gives its manager the fields it changed and takes them from everyone else; server-side apply
 * (`./apply.ts`) gives its manager exactly the fields of its configuration.
 */
import { isMap, type JsonMap } from '../json.js';
import type { ManagedFieldsEntry } from '../api/object.js';
import { diffFields } from './field-diff.js';
import { fromFieldsV1, SEP, toFieldsV1, type FieldSet, type Scope } from './fieldset.js';

export interface Ownership {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string;
  subresource?: string;
  fields: FieldSet;
}

/** The ownership entries as field sets the caller may change. */
export function parseManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): Ownership[] {
  return (entries ?? []).map((e) => {
    const o: Ownership = {
      manager: e.manager,
      operation: e.operation,
      apiVersion: e.apiVersion,
      time: e.time,
      fields: fromFieldsV1(e.fieldsV1),
    };
    if (e.subresource) o.subresource = e.subresource;
    return o;
  });
}

export function formatManagedFields(owners: readonly Ownership[]): ManagedFieldsEntry[] {
  return owners
    .filter((o) => o.fields.size > 0)
    .map((o) => {
      const e: ManagedFieldsEntry = {
        manager: o.manager,
        operation: o.operation,
        apiVersion: o.apiVersion,
        time: o.time,
        fieldsType: 'FieldsV1',
        fieldsV1: toFieldsV1(o.fields),
      };
      if (o.subresource) e.subresource = o.subresource;
      return e;
    });
}

export function sameOwner(
  o: Ownership,
  manager: string,
  operation: 'Apply' | 'Update',
  subresource: string | undefined,
): boolean {
  return o.manager === manager && o.operation === operation && (o.subresource ?? '') === (subresource ?? '');
}

/**
 * The field sets of FieldsV1 values decoded or encoded here before. Stored objects are never
 * changed, so neither are their managedFields: an object's every write reads its owners' sets
 * again, and most writes (a status flipping) leave the writer's set as it was.
 */
const known = new WeakMap<JsonMap, FieldSet>();
/** The values encoded here: in the server's own form, so one can stand for its set again. */
const encoded = new WeakSet<JsonMap>();

/** The set a FieldsV1 value holds; the caller must not change it. */
function fieldsOf(v: unknown): FieldSet {
  if (!isMap(v)) return fromFieldsV1(v);
  let set = known.get(v);
  if (!set) known.set(v, (set = fromFieldsV1(v)));
  return set;
}

/**
 * The encodings of the sets met last, by their paths in the order a write listed them: objects
 * of one shape (a component's Events, one template's pods) own the same fields, and a stored
 * value may stand for any number of objects since none of them is ever changed.
 */
const recent = new Map<string, JsonMap>();
const RECENT = 512;

/** `set` encoded; the caller must not change it afterwards. */
function encode(set: FieldSet): JsonMap {
  // no path holds two NULs in a row, or starts or ends with one: the key names one list of paths
  const key = [...set].join(`${SEP}${SEP}`);
  let v = recent.get(key);
  if (v === undefined) {
    v = toFieldsV1(set);
    known.set(v, set);
    encoded.add(v);
    if (recent.size >= RECENT) recent.delete(recent.keys().next().value!);
    recent.set(key, v);
  }
  return v;
}

export interface UpdateRecord {
  manager: string;
  apiVersion: string;
  time: string;
  scope: Scope;
  subresource?: string;
}

/**
 * Ownership after an ordinary write by `rec.manager`: it gains the fields it touched, and every
 * other manager loses them (and the fields that are gone).
 */
export function recordUpdate(
  entries: readonly ManagedFieldsEntry[] | undefined,
  before: JsonMap | undefined,
  after: JsonMap,
  kind: string,
  rec: UpdateRecord,
): ManagedFieldsEntry[] {
  const list = entries ?? [];
  const { touched, removed } = diffFields(before, after, kind, rec.scope);
  if (touched.size === 0 && removed.size === 0) return [...list];
  const mineAt = list.findIndex(
    (e) => e.manager === rec.manager && e.operation === 'Update' && (e.subresource ?? '') === (rec.subresource ?? ''),
  );
  const out: ManagedFieldsEntry[] = [];
  const changed = [...touched, ...removed];
  list.forEach((e, i) => {
    if (i === mineAt) return;
    const owned = fieldsOf(e.fieldsV1);
    const lost = changed.filter((p) => owned.has(p));
    if (lost.length === 0) return void out.push(e);
    // another manager loses what this write changed or removed; the entry goes once empty
    const kept = new Set(owned);
    for (const p of lost) kept.delete(p);
    if (kept.size > 0) out.push({ ...e, fieldsV1: encode(kept) });
  });
  const prior = mineAt >= 0 ? list[mineAt]!.fieldsV1 : undefined;
  const had = prior === undefined ? new Set<string>() : fieldsOf(prior);
  // the writer's own set is encoded again only if the write added a field to it or took one away
  const kept =
    isMap(prior) && encoded.has(prior) && [...touched].every((p) => had.has(p)) && ![...removed].some((p) => had.has(p))
      ? prior
      : undefined;
  const mine = kept ? had : new Set(had);
  if (!kept) {
    for (const p of removed) mine.delete(p);
    for (const p of touched) mine.add(p);
  }
  if (mine.size > 0) {
    const e: ManagedFieldsEntry = {
      manager: rec.manager,
      operation: 'Update',
      apiVersion: rec.apiVersion,
      time: rec.time,
      fieldsType: 'FieldsV1',
      fieldsV1: kept ?? encode(mine),
    };
    if (rec.subresource) e.subresource = rec.subresource;
    if (mineAt >= 0) out.splice(Math.min(mineAt, out.length), 0, e);
    else out.push(e);
  }
  return out;
}
