/**
 * The Diff view's text for one resource: what it will do and why, a table of every field that
 * differs with its value in the three places (the state kdeck last applied, the plan, the live
 * cluster), then the field-level diff and the drift. Secret values are masked in all of it.
 * Long values keep what changed in sight: a cell shows the window around the changed part,
 * marked; with wrapping on, every value shows whole over several lines; scrolled sideways, the
 * values and long lines show from the scrolled place. Pure: lines of pieces with a tone each,
 * which the view windows to its height.
 */
import type { ResourceChange } from '../../diff/change-set.js';
import { maskSecret, type FieldChange } from '../../diff/fields.js';
import { normalize } from '../../diff/normalize.js';
import { renderFieldChanges } from '../../diff/render.js';
import { valueAt } from '../../diff/value-at.js';
import type { Attributes } from '../../model/resource.js';
import { changedAgainst, changedIn, windowed, wrapped, type Piece } from '../../views/changed.js';
import { cells, columnWidths, cutMiddle, fitAs, graphemesOf, wrapWords } from '../../views/text.js';
import type { Tone } from '../../views/theme.js';

export interface Segment {
  text: string;
  tone?: Tone;
  /** The part of a value that changed. */
  changed?: boolean;
}

export interface DiffLine {
  text: string;
  tone?: Tone;
  bold?: boolean;
  /** When set, the line as coloured pieces (`text` is their concatenation). */
  segments?: Segment[];
}

/** How long values show: wrapped whole, or one line each from `shift` graphemes in (0: around the change). */
export interface Layout {
  wrap: boolean;
  shift: number;
}

const shown = (v: unknown) => (v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));
const prepared = (o: Attributes | undefined) => (o ? maskSecret(normalize(o)) : undefined);

/** A line of text too long for `width`: wrapped, or shown from the scrolled place (the view cuts the rest). */
function textLines(line: DiffLine, width: number, layout: Layout): DiffLine[] {
  if (cells(line.text) <= width) return [line];
  if (layout.wrap) return wrapWords(line.text, width).map((text) => ({ ...line, text }));
  if (layout.shift === 0) return [line];
  const parts = graphemesOf(line.text);
  return [{ ...line, text: `…${parts.slice(Math.min(layout.shift, parts.length - 1)).join('')}` }];
}

/** The table of fields: FIELD, STATE (applied), PLAN, LIVE; each value marks where it differs from the others. */
function fieldTable(paths: string[], sides: (unknown | undefined)[][], width: number, layout: Layout): DiffLine[] {
  // the field as long as the longest path, up to two fifths of the row; the values share the rest
  const longest = Math.max(5, ...paths.map(cells));
  const [field, , state, , plan, , live] = columnWidths(width, [
    { min: Math.min(longest, Math.max(12, Math.floor(width * 0.4))) },
    { min: 1 },
    { min: 8, grow: 1 },
    { min: 1 },
    { min: 8, grow: 1 },
    { min: 1 },
    { min: 8, grow: 1 },
  ]);
  const valueWidths = [state, plan, live];
  const lines: DiffLine[] = [
    {
      text: [fitAs('FIELD', field), fitAs('STATE (applied)', state), fitAs('PLAN', plan), fitAs('LIVE', live)].join(
        ' ',
      ),
      tone: 'muted',
    },
  ];
  paths.forEach((path, i) => {
    const values = sides[i].map(shown);
    const cellsOf = values.map((v, k) => {
      const span = changedAgainst(
        v,
        values.filter((o) => o !== v),
      );
      return layout.wrap ? wrapped(v, valueWidths[k], span) : [windowed(v, valueWidths[k], span, layout.shift)];
    });
    const fieldLines = layout.wrap
      ? wrapped(path, field).map((p) => p.map((x) => x.text).join(''))
      : [cutMiddle(path, field)];
    const height = Math.max(fieldLines.length, ...cellsOf.map((c) => c.length));
    for (let row = 0; row < height; row++) {
      const segments: Segment[] = [{ text: fitAs(fieldLines[row] ?? '', field) }];
      cellsOf.forEach((c, k) => {
        const pieces: Piece[] = c[row] ?? [];
        segments.push({ text: ' ' });
        // the plan's changed part in the colour of what is coming, the others' in the colour of what goes
        const tone: Tone = k === 1 ? 'ok' : 'danger';
        for (const p of pieces) segments.push(p.changed ? { text: p.text, tone, changed: true } : { text: p.text });
        const used = pieces.reduce((n, p) => n + cells(p.text), 0);
        if (k < 2) segments.push({ text: ' '.repeat(Math.max(0, valueWidths[k] - used)) });
      });
      lines.push({ text: segments.map((s) => s.text).join(''), segments });
    }
  });
  return lines;
}

/**
 * One changed scalar as `~ path: "old" → "new"` in one line of `width` cells: when it is too
 * long, the path is cut in its middle and each value shows around its changed part, marked.
 * Undefined when the line fits as renderFieldChanges writes it, or the values are not scalars.
 */
function changeLine(f: FieldChange, width: number, tone: Tone): DiffLine | undefined {
  if (f.kind !== 'change') return undefined;
  const scalar = (v: unknown) =>
    v === null || typeof v !== 'object' ? (typeof v === 'string' ? JSON.stringify(v) : String(v)) : undefined;
  const from = scalar(f.from);
  const to = scalar(f.to);
  if (from === undefined || to === undefined) return undefined;
  const head = `  ~ ${f.path}: `;
  if (cells(`${head}${from} → ${to}`) <= width) return undefined;
  const [path, , before, , after] = columnWidths(width - 4, [
    { min: Math.min(cells(f.path), 12), max: cells(f.path), grow: 1 },
    { min: 2 },
    { min: 8, max: cells(from), grow: 2 },
    { min: 3 },
    { min: 8, max: cells(to), grow: 2 },
  ]);
  const segments: Segment[] = [{ text: `  ~ ${cutMiddle(f.path, path)}: `, tone }];
  const value = (v: string, other: string, room: number, changedTone: Tone) => {
    for (const p of windowed(v, room, changedIn(v, other)))
      segments.push(p.changed ? { text: p.text, tone: changedTone, changed: true } : { text: p.text, tone });
  };
  value(from, to, before, 'danger');
  segments.push({ text: ' → ', tone });
  value(to, from, after, 'ok');
  return { text: segments.map((x) => x.text).join(''), tone, segments };
}

/** The field changes as lines: renderFieldChanges' text, a long changed scalar kept in sight (changeLine). */
function fieldChangeLines(fields: FieldChange[], width: number, layout: Layout, tone?: Tone): DiffLine[] {
  return fields.flatMap((f) => {
    const kept = !layout.wrap && layout.shift === 0 ? changeLine(f, width, tone ?? 'warning') : undefined;
    if (kept) return [kept];
    return renderFieldChanges([f], '  ')
      .split('\n')
      .flatMap((l) =>
        textLines(
          {
            text: l,
            tone: tone ?? (l.trimStart().startsWith('-') ? 'danger' : l.trimStart().startsWith('+') ? 'ok' : 'warning'),
          },
          width,
          layout,
        ),
      );
  });
}

export function diffLines(c: ResourceChange, width: number, layout: Layout = { wrap: false, shift: 0 }): DiffLine[] {
  const lines: DiffLine[] = [];
  const text = (line: DiffLine) => lines.push(...textLines(line, width, layout));
  // the heading wraps always: the cluster at its end says where the change goes
  lines.push(
    ...textLines(
      { text: `${c.action}${c.decision.drift ? ' (drift)' : ''} ${c.id} on ${c.cluster}`, bold: true },
      width,
      { wrap: true, shift: 0 },
    ),
  );
  if (c.sharedWith) text({ text: `Kept: also applied by ${c.sharedWith.join(', ')}`, tone: 'muted' });
  if (c.decision.note) text({ text: `Note: ${c.decision.note}`, tone: 'muted' });
  for (const r of c.unresolved)
    text({ text: `Known after apply: ${r.at} (from ${r.target}#${r.pointer})`, tone: 'muted' });

  const state = prepared(c.prior?.attributes);
  const plan = prepared(c.resource?.attributes);
  const live = prepared(c.live);
  const paths = [...new Set([...c.decision.fields, ...c.decision.driftFields].map((f) => f.path))];
  lines.push({ text: '' });
  if (paths.length === 0) {
    text({
      text:
        c.action === 'Delete'
          ? 'The whole object is deleted.'
          : 'No field differs: the plan, the state and the cluster agree.',
      tone: 'ok',
    });
  } else {
    const sides = paths.map((p) => [valueAt(state, p), valueAt(plan, p), valueAt(live, p)]);
    lines.push(...fieldTable(paths, sides, width, layout));
  }
  if (c.decision.fields.length) {
    lines.push({ text: '' }, { text: 'Diff (live → plan):', bold: true });
    lines.push(...fieldChangeLines(c.decision.fields, width, layout));
  }
  if (c.decision.driftFields.length) {
    lines.push({ text: '' }, { text: 'Drift (applied → live, changed outside kdeck):', bold: true });
    lines.push(...fieldChangeLines(c.decision.driftFields, width, layout, 'warning'));
  }
  return lines;
}
