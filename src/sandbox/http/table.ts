/**
 * Server-side printing: the meta.k8s.io/v1 Table kubectl asks for (`Accept: ...;as=Table`), so
 * `kubectl get pods` shows READY, STATUS and RESTARTS as against a real cluster. The columns are
 * those of the API server's printers for the common kinds; any other kind gets NAME and AGE.
 */
import { getPath, isMap, type JsonMap } from '../json.js';
import type { KubeObject } from '../api/object.js';
import { apiVersionOf, type ResourceType } from '../api/resources.js';
import { columnsFor, type Column } from './table-columns.js';
import { crdColumns } from './table-columns-crd.js';

export function wantsTable(accept: string | undefined): boolean {
  return (
    accept !== undefined &&
    accept.split(',').some((p) => p.replace(/\s+/g, '').includes('as=Table') && p.includes('g=meta.k8s.io'))
  );
}

function partialMetadata(o: Record<string, unknown>): JsonMap {
  const meta = isMap(o.metadata) ? { ...o.metadata } : {};
  delete meta.managedFields;
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: meta };
}

/** What each row carries besides its cells (`?includeObject=`): metadata by default. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

function row(
  rt: ResourceType,
  o: Record<string, unknown>,
  columns: readonly Column[],
  now: number,
  include: IncludeObject,
): JsonMap {
  const r: JsonMap = { cells: columns.map((c) => c.cell(o as KubeObject, now)) };
  // list items come without kind and apiVersion; a row's object needs them to be decoded
  if (include === 'Object') r.object = { apiVersion: apiVersionOf(rt), kind: rt.kind, ...o };
  else if (include === 'Metadata') r.object = partialMetadata(o);
  return r;
}

export function includeObjectOf(q: URLSearchParams): IncludeObject {
  const v = q.get('includeObject');
  return v === 'None' || v === 'Object' ? v : 'Metadata';
}

function definitions(columns: readonly Column[]): JsonMap[] {
  return columns.map((c) => ({
    name: c.name,
    type: c.type ?? 'string',
    format: c.name === 'Name' ? 'name' : '',
    description: c.name,
    priority: c.priority ?? 0,
  }));
}

/** A Table for a list or a single object; undefined for anything else (a Status, a Scale). */
export function asTable(
  r: ResourceType,
  body: unknown,
  now: number,
  include: IncludeObject = 'Metadata',
): JsonMap | undefined {
  if (!isMap(body)) return undefined;
  const columns = r.printerColumns ? crdColumns(r.printerColumns) : columnsFor(r.kind);
  const isList = Array.isArray(body.items) && typeof body.kind === 'string' && body.kind.endsWith('List');
  if (!isList && body.kind !== r.kind) return undefined;
  const items = isList ? (body.items as unknown[]).filter(isMap) : [body];
  const metadata =
    isList && isMap(body.metadata)
      ? body.metadata
      : { resourceVersion: getPath(body, ['metadata', 'resourceVersion']) };
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    columnDefinitions: definitions(columns),
    rows: items.map((o) => row(r, o, columns, now, include)),
  };
}

/** A watch event's object as a Table of one row (what `kubectl get -w` asks for). */
export function tableEventLine(r: ResourceType, line: string, now: number, include: IncludeObject): string {
  const e = JSON.parse(line) as { type: string; object: unknown };
  if (e.type !== 'ADDED' && e.type !== 'MODIFIED' && e.type !== 'DELETED') return line;
  return `${JSON.stringify({ type: e.type, object: asTable(r, e.object, now, include) ?? e.object })}\n`;
}
