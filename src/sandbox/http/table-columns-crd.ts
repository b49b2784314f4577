/**
 * The `kubectl get` columns of a custom resource: NAME, then its CRD's additionalPrinterColumns,
 * each read with its JSONPath (`.spec.size`, `.status.conditions[?(@.type=="Ready")].status`,
 * `.spec.items[0]`) and shown as its type says (a `date` as an age).
 */
import { isMap } from '../json.js';
import type { PrinterColumn } from '../api/resources.js';
import { humanAge, parseTime } from '../time.js';
import type { Column } from './table-columns.js';

type Step = { key: string } | { index: number } | { filter: { key: string; value: string } };

function steps(path: string): Step[] | undefined {
  const out: Step[] = [];
  const re = /\.([A-Za-z0-9_$-]+)|\[(\d+)\]|\[\?\(@\.([A-Za-z0-9_$-]+)\s*==\s*["']([^"']*)["']\)\]/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < path.length && (m = re.exec(path)) !== null) {
    if (m[1] !== undefined) out.push({ key: m[1] });
    else if (m[2] !== undefined) out.push({ index: Number(m[2]) });
    else out.push({ filter: { key: m[3]!, value: m[4]! } });
    at = re.lastIndex;
  }
  return at === path.length ? out : undefined;
}

function read(o: unknown, path: string): unknown {
  const ss = steps(path.trim().replace(/^\{|\}$/g, ''));
  if (!ss) return undefined;
  let cur: unknown = o;
  for (const s of ss) {
    if ('key' in s) cur = isMap(cur) ? cur[s.key] : undefined;
    else if ('index' in s) cur = Array.isArray(cur) ? cur[s.index] : undefined;
    else cur = Array.isArray(cur) ? cur.find((x) => isMap(x) && String(x[s.filter.key]) === s.filter.value) : undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

function cell(c: PrinterColumn, v: unknown, now: number): string | number {
  // a missing value prints as kubectl prints a null cell
  if (v === undefined || v === null) return '<none>';
  if (c.type === 'date') return humanAge(parseTime(v), now);
  if ((c.type === 'integer' || c.type === 'number') && typeof v === 'number') return v;
  if (typeof v === 'string') return v;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

export function crdColumns(columns: readonly PrinterColumn[]): Column[] {
  const name: Column = { name: 'Name', cell: (o) => o.metadata.name ?? '' };
  return [
    name,
    ...columns.map((c): Column => ({
      name: c.name,
      type: c.type === 'integer' ? 'integer' : 'string',
      priority: c.priority,
      cell: (o, now) => cell(c, read(o, c.jsonPath), now),
    })),
  ];
}
