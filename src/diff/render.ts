/**
 * Field changes as text: one line per change, values inline when short and as indented YAML
 * when not.
 */
import YAML from 'yaml';
import type { FieldChange } from './fields.js';

const SIGN = { add: '+', remove: '-', change: '~' } as const;

function inline(v: unknown): string | undefined {
  if (v === null || typeof v !== 'object') {
    const text = typeof v === 'string' ? JSON.stringify(v) : String(v);
    return text.length <= 80 ? text : undefined;
  }
  const json = JSON.stringify(v);
  return json.length <= 60 ? json : undefined;
}

function block(v: unknown, indent: string): string {
  return YAML.stringify(v)
    .trimEnd()
    .split('\n')
    .map((l) => `${indent}${l}`)
    .join('\n');
}

function value(v: unknown, indent: string): string {
  const short = inline(v);
  return short !== undefined ? ` ${short}` : `\n${block(v, indent)}`;
}

export function renderFieldChanges(changes: FieldChange[], indent = ''): string {
  return changes
    .map((c) => {
      const head = `${indent}${SIGN[c.kind]} ${c.path}:`;
      if (c.kind === 'add') return head + value(c.to, `${indent}    `);
      if (c.kind === 'remove') return head + value(c.from, `${indent}    `);
      const from = inline(c.from);
      const to = inline(c.to);
      if (from !== undefined && to !== undefined) return `${head} ${from} → ${to}`;
      return `${head}\n${indent}  from:${value(c.from, `${indent}    `)}\n${indent}  to:${value(c.to, `${indent}    `)}`;
    })
    .join('\n');
}
