/**
 * The Diff view's text for one resource: what it will do and why, a table of every field that
 * differs with its value in the three places (the state kdeck last applied, the plan, the live
 * cluster), then the field-level diff and the drift. Secret values are masked in all of it.
 * Pure: lines with a tone each, which the view windows to its height.
 */
import type { ResourceChange } from '../../diff/change-set.js';
import { maskSecret } from '../../diff/fields.js';
import { normalize } from '../../diff/normalize.js';
import { renderFieldChanges } from '../../diff/render.js';
import { valueAt } from '../../diff/value-at.js';
import type { Attributes } from '../../model/resource.js';
import { cut, cutStart, fit } from '../../views/text.js';
import type { Tone } from '../../views/theme.js';

export interface DiffLine {
  text: string;
  tone?: Tone;
  bold?: boolean;
}

const shown = (v: unknown) => (v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));
const prepared = (o: Attributes | undefined) => (o ? maskSecret(normalize(o)) : undefined);

export function diffLines(c: ResourceChange, width: number): DiffLine[] {
  const lines: DiffLine[] = [
    { text: `${c.action}${c.decision.drift ? ' (drift)' : ''} ${c.id} on ${c.cluster}`, bold: true },
  ];
  if (c.sharedWith) lines.push({ text: `Kept: also applied by ${c.sharedWith.join(', ')}`, tone: 'muted' });
  if (c.decision.note) lines.push({ text: `Note: ${c.decision.note}`, tone: 'muted' });
  for (const r of c.unresolved)
    lines.push({ text: `Known after apply: ${r.at} (from ${r.target}#${r.pointer})`, tone: 'muted' });

  const state = prepared(c.prior?.attributes);
  const plan = prepared(c.resource?.attributes);
  const live = prepared(c.live);
  const paths = [...new Set([...c.decision.fields, ...c.decision.driftFields].map((f) => f.path))];
  lines.push({ text: '' });
  if (paths.length === 0) {
    lines.push({
      text:
        c.action === 'Delete'
          ? 'The whole object is deleted.'
          : 'No field differs: the plan, the state and the cluster agree.',
      tone: 'ok',
    });
  } else {
    const fieldWidth = Math.max(16, Math.floor(width * 0.31));
    const col = Math.max(8, Math.floor((width - fieldWidth - 3) / 3));
    const row = (a: string, b: string, c2: string, d: string) =>
      `${fit(cutStart(a, fieldWidth), fieldWidth)} ${fit(b, col)} ${fit(c2, col)} ${cut(d, col)}`;
    lines.push({ text: row('FIELD', 'STATE (applied)', 'PLAN', 'LIVE'), tone: 'muted' });
    for (const p of paths) {
      lines.push({ text: row(p, shown(valueAt(state, p)), shown(valueAt(plan, p)), shown(valueAt(live, p))) });
    }
  }
  if (c.decision.fields.length) {
    lines.push({ text: '' }, { text: 'Diff (live → plan):', bold: true });
    for (const l of renderFieldChanges(c.decision.fields, '  ').split('\n'))
      lines.push({
        text: l,
        tone: l.trimStart().startsWith('-') ? 'danger' : l.trimStart().startsWith('+') ? 'ok' : 'warning',
      });
  }
  if (c.decision.driftFields.length) {
    lines.push({ text: '' }, { text: 'Drift (applied → live, changed outside kdeck):', bold: true });
    for (const l of renderFieldChanges(c.decision.driftFields, '  ').split('\n'))
      lines.push({ text: l, tone: 'warning' });
  }
  return lines;
}
