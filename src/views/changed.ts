/**
 * The part of a value that changed, and a window onto a long value that keeps it in sight. The
 * characters that differ come from jsdiff's character diff; a table cell shows one stretch, so
 * the changed part runs from the first difference to the last, widened to whole words:
 * `…nginx-unprivileged:1.25` against `…:1.27` changes `1.25`, which must stay visible however
 * narrow the column.
 */
import { diffChars } from 'diff';
import { cells, graphemesOf } from './text.js';

/** Graphemes `from`..`to` (end excluded) of a value. */
export interface Span {
  from: number;
  to: number;
}

/** Characters that end a word in a value: paths, image references, key=value lists. */
const BOUNDARY = /[\s:/@=,;"'()[\]{}]/;

/** Where `a` differs from `b`, in graphemes of `a`, widened to whole words; undefined when equal. */
export function changedIn(a: string, b: string): Span | undefined {
  if (a === b) return undefined;
  const x = graphemesOf(a);
  // the grapheme of `a` each UTF-16 offset falls in (jsdiff counts code units)
  const at: number[] = [];
  x.forEach((g, i) => at.push(...Array<number>(g.length).fill(i)));
  at.push(x.length);
  let from = Infinity;
  let to = -Infinity;
  let offset = 0;
  for (const part of diffChars(b, a)) {
    if (part.removed) {
      // what `b` has and `a` lacks changes `a` where it would have been
      from = Math.min(from, at[offset]);
      to = Math.max(to, at[offset]);
      continue;
    }
    const end = offset + part.value.length;
    if (part.added) {
      from = Math.min(from, at[offset]);
      to = Math.max(to, at[end - 1] + 1);
    }
    offset = end;
  }
  while (from > 0 && !BOUNDARY.test(x[from - 1])) from--;
  while (to < x.length && !BOUNDARY.test(x[to])) to++;
  return { from, to };
}

/** Where `value` differs from any of `others`: one span covering every difference. */
export function changedAgainst(value: string, others: readonly string[]): Span | undefined {
  const spans = others.map((o) => changedIn(value, o)).filter((s): s is Span => s !== undefined);
  if (spans.length === 0) return undefined;
  return { from: Math.min(...spans.map((s) => s.from)), to: Math.max(...spans.map((s) => s.to)) };
}

/** A piece of a shown value; `changed` when it is (part of) what changed. */
export interface Piece {
  text: string;
  changed: boolean;
}

/**
 * `value` in at most `width` cells, as pieces marking the changed span. A value that fits shows
 * whole. A longer one shows from grapheme `offset` when the user scrolled it sideways, else the
 * window that keeps the change in sight with some of what comes before it; … marks what is cut.
 */
export function windowed(value: string, width: number, span?: Span, offset = 0): Piece[] {
  const parts = graphemesOf(value);
  const widthOf = (from: number, to: number) => cells(parts.slice(from, to).join(''));
  let first = 0;
  if (widthOf(0, parts.length) > width) {
    if (offset > 0) first = Math.min(offset, parts.length - 1);
    else if (span) {
      // as much as fits before the change, a third of the room at most, then more when the end is near
      const room = width - 2 - widthOf(span.from, span.to);
      first = span.from;
      while (first > 0 && widthOf(first - 1, span.from) <= Math.max(0, Math.floor(room / 3))) first--;
      while (first > 0 && widthOf(first - 1, parts.length) <= width - 1) first--;
    }
  }
  const lead = first > 0 ? 1 : 0;
  let last = first;
  while (last < parts.length && widthOf(first, last + 1) <= width - lead) last++;
  if (last < parts.length) {
    // room for the closing …
    while (last > first && widthOf(first, last) > width - lead - 1) last--;
  }
  const pieces: Piece[] = [];
  const push = (text: string, changed: boolean) => {
    if (!text) return;
    const prev = pieces[pieces.length - 1];
    if (prev && prev.changed === changed) prev.text += text;
    else pieces.push({ text, changed });
  };
  if (lead) push('…', false);
  for (let i = first; i < last; i++) push(parts[i], span !== undefined && i >= span.from && i < span.to);
  if (last < parts.length) push('…', false);
  return pieces;
}

/** `value` over as many lines of `width` cells as it needs, the changed span marked on each. */
export function wrapped(value: string, width: number, span?: Span): Piece[][] {
  const parts = graphemesOf(value);
  const lines: Piece[][] = [];
  let line: Piece[] = [];
  let used = 0;
  parts.forEach((p, i) => {
    const w = cells(p);
    if (used + w > width && used > 0) {
      lines.push(line);
      line = [];
      used = 0;
    }
    const changed = span !== undefined && i >= span.from && i < span.to;
    const prev = line[line.length - 1];
    if (prev && prev.changed === changed) prev.text += p;
    else line.push({ text: p, changed });
    used += w;
  });
  lines.push(line);
  return lines;
}
