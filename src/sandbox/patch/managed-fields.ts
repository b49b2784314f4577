/**
 * `metadata.managedFields`: who owns which fields. An ordinary write (create, update, patch)
 * gives its manager the fields it changed and takes them from everyone else; server-side apply
 * (`./apply.ts`) gives its manager exactly the fields of its configuration.
 */
import type { JsonMap } from '../json.js';
import type { ManagedFieldsEntry } from '../api/object.js';
import { diffFields } from './field-diff.js';
import { fromFieldsV1, holdsPath, toFieldsV1, type FieldSet, type Scope } from './fieldset.js';

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
    // looked up in the entry's trie: a status write rarely touches what another manager owns,
    // and decoding every entry on every write was most of the cost of ownership
    const lost = changed.filter((p) => holdsPath(e.fieldsV1, p));
    if (lost.length === 0) return void out.push(e);
    // another manager loses what this write changed or removed; the entry goes once empty
    const kept = fromFieldsV1(e.fieldsV1);
    for (const p of lost) kept.delete(p);
    if (kept.size > 0) out.push({ ...e, fieldsV1: toFieldsV1(kept) });
  });
  const mine = new Set(mineAt >= 0 ? fromFieldsV1(list[mineAt]!.fieldsV1) : []);
  // a manager that writes the fields it already owns (a kubelet's status, again and again)
  // keeps its entry's fields as they were: only their encoding would cost anything
  let differs = mineAt < 0;
  for (const p of removed) differs = mine.delete(p) || differs;
  for (const p of touched)
    if (!mine.has(p)) {
      mine.add(p);
      differs = true;
    }
  if (mine.size > 0) {
    const e: ManagedFieldsEntry = {
      manager: rec.manager,
      operation: 'Update',
      apiVersion: rec.apiVersion,
      time: rec.time,
      fieldsType: 'FieldsV1',
      fieldsV1: differs ? toFieldsV1(mine) : list[mineAt]!.fieldsV1,
    };
    if (rec.subresource) e.subresource = rec.subresource;
    if (mineAt >= 0) out.splice(Math.min(mineAt, out.length), 0, e);
    else out.push(e);
  }
  return out;
}
