/**
 * `metadata.managedFields`: who owns which fields. An ordinary write (create, update, patch)
 * gives its manager the fields it changed and takes them from everyone else; server-side apply
 * (`./apply.ts`) gives its manager exactly the fields of its configuration.
 */
import { deepEqual, type JsonMap } from '../json.js';
import type { ManagedFieldsEntry } from '../api/object.js';
import { fieldPaths, fromFieldsV1, isLeaf, toFieldsV1, valueAt, type FieldSet, type Scope } from './fieldset.js';

export interface Ownership {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string;
  subresource?: string;
  fields: FieldSet;
}

export function parseManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): Ownership[] {
  return (entries ?? []).map((e) => {
    const o: Ownership = { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion, time: e.time, fields: fromFieldsV1(e.fieldsV1) };
    if (e.subresource) o.subresource = e.subresource;
    return o;
  });
}

export function formatManagedFields(owners: readonly Ownership[]): ManagedFieldsEntry[] {
  return owners
    .filter((o) => o.fields.size > 0)
    .map((o) => {
      const e: ManagedFieldsEntry = { manager: o.manager, operation: o.operation, apiVersion: o.apiVersion, time: o.time, fieldsType: 'FieldsV1', fieldsV1: toFieldsV1(o.fields) };
      if (o.subresource) e.subresource = o.subresource;
      return e;
    });
}

export function sameOwner(o: Ownership, manager: string, operation: 'Apply' | 'Update', subresource: string | undefined): boolean {
  return o.manager === manager && o.operation === operation && (o.subresource ?? '') === (subresource ?? '');
}

/** The paths whose value differs between two states of an object (added, changed or removed). */
export function changedPaths(before: JsonMap | undefined, after: JsonMap, kind: string, scope: Scope): { touched: FieldSet; removed: FieldSet } {
  const oldPaths = before ? fieldPaths(before, kind, scope) : new Set<string>();
  const newPaths = fieldPaths(after, kind, scope);
  const touched: FieldSet = new Set();
  const removed: FieldSet = new Set();
  for (const p of newPaths) {
    if (!oldPaths.has(p)) touched.add(p);
    else if (isLeaf(p) && !deepEqual(valueAt(before, p), valueAt(after, p))) touched.add(p);
  }
  for (const p of oldPaths) if (!newPaths.has(p)) removed.add(p);
  return { touched, removed };
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
export function recordUpdate(entries: readonly ManagedFieldsEntry[] | undefined, before: JsonMap | undefined, after: JsonMap, kind: string, rec: UpdateRecord): ManagedFieldsEntry[] {
  const { touched, removed } = changedPaths(before, after, kind, rec.scope);
  const owners = parseManagedFields(entries);
  if (touched.size === 0 && removed.size === 0) return formatManagedFields(owners);
  let mine = owners.find((o) => sameOwner(o, rec.manager, 'Update', rec.subresource));
  if (!mine) {
    mine = { manager: rec.manager, operation: 'Update', apiVersion: rec.apiVersion, time: rec.time, fields: new Set() };
    if (rec.subresource) mine.subresource = rec.subresource;
    owners.push(mine);
  }
  for (const o of owners) {
    for (const p of removed) o.fields.delete(p);
    if (o === mine) continue;
    for (const p of touched) o.fields.delete(p);
  }
  for (const p of touched) mine.fields.add(p);
  mine.time = rec.time;
  mine.apiVersion = rec.apiVersion;
  return formatManagedFields(owners);
}
