/**
 * Fitting text to the cells it may use: every line the console draws is cut to its width, so
 * Ink never wraps one and the frame keeps the height it was given. Widths are terminal cells
 * (string-width): a CJK character or an emoji takes two, a combining mark none.
 */
import stringWidth from 'string-width';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Printable ASCII: one cell a character, by far the most common text on screen. */
const PLAIN = /^[\x20-\x7e]*$/;

/**
 * The widths of the other texts measured lately: string-width reads them grapheme by grapheme,
 * some microseconds a character, and a frame measures the same few (a row with ▸, a title with
 * ·) at every key. Bounded; the oldest goes first.
 */
const measured = new Map<string, number>();
const MEASURED_MAX = 2000;

/** The cells `text` takes on a terminal. */
export function cells(text: string): number {
  if (PLAIN.test(text)) return text.length;
  let width = measured.get(text);
  if (width === undefined) {
    width = stringWidth(text);
    if (measured.size >= MEASURED_MAX) measured.delete(measured.keys().next().value!);
    measured.set(text, width);
  }
  return width;
}

/** `text` cut to `width` cells (with … when cut), padded to exactly `width`. */
export function fit(text: string, width: number): string {
  const out = cut(text, width);
  return out + ' '.repeat(Math.max(0, width - cells(out)));
}

/** The longest start of `parts` that fits in `room` cells. */
function within(parts: readonly string[], room: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const p of parts) {
    const w = cells(p);
    if (used + w > room) break;
    kept.push(p);
    used += w;
  }
  return kept;
}

/** `text` as the pieces a terminal draws: a letter with its marks, an emoji with its modifier. */
export const graphemesOf = (text: string): string[] => [...graphemes.segment(text)].map((s) => s.segment);

/** `text` cut to at most `width` cells, with … when cut. */
export function cut(text: string, width: number): string {
  if (width <= 0) return '';
  if (cells(text) <= width) return text;
  return `${within(graphemesOf(text), width - 1).join('')}…`;
}

/** `text` cut from the left, keeping its end (ids end with the name). */
export function cutStart(text: string, width: number): string {
  if (cells(text) <= width) return text;
  if (width <= 0) return '';
  return `…${within(graphemesOf(text).reverse(), width - 1)
    .reverse()
    .join('')}`;
}

/**
 * `text` cut in the middle, keeping its start and its end (a name's prefix says what it is,
 * its suffix which one: `guestbook/redis-leader` → `guestb…leader`).
 */
export function cutMiddle(text: string, width: number): string {
  if (cells(text) <= width) return text;
  if (width <= 1) return cut(text, width);
  const parts = graphemesOf(text);
  const tail = Math.floor((width - 1) / 2);
  const end = within([...parts].reverse(), tail).reverse();
  const start = within(parts, width - 1 - cells(end.join('')));
  return `${start.join('')}…${end.join('')}`;
}

/** `text` over lines of at most `width` cells, broken after spaces where it can be, else inside a word. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let rest = text;
  while (cells(rest) > width && width > 0) {
    const head = within(graphemesOf(rest), width).join('');
    const space = head.lastIndexOf(' ');
    const take = space > 0 ? space + 1 : head.length;
    lines.push(rest.slice(0, take).trimEnd());
    rest = rest.slice(take);
  }
  lines.push(rest);
  return lines;
}

/** How a column shortens a value that does not fit. */
export type Cut = 'end' | 'middle' | 'start';

const CUTS: Record<Cut, (text: string, width: number) => string> = { end: cut, middle: cutMiddle, start: cutStart };

/** `text` shortened the column's way to `width` cells and padded to exactly `width`. */
export function fitAs(text: string, width: number, how: Cut = 'end'): string {
  const out = CUTS[how](text, width);
  return out + ' '.repeat(Math.max(0, width - cells(out)));
}

/** A column of a table: at least `min` cells, at most `max`, sharing spare room by `grow`. */
export interface Column {
  min: number;
  max?: number;
  /** Weight of the spare room it takes; 0 (the default) keeps it at `min`. */
  grow?: number;
}

/**
 * The widths of `columns` in a row of exactly `total` cells (when there is room for one cell a
 * column): spare room goes to the growing columns by weight up to their `max`; when the minimums
 * do not fit, the widest columns give way first, so a row never wraps.
 */
export function columnWidths(total: number, columns: readonly Column[]): number[] {
  const widths = columns.map((c) => c.min);
  let over = widths.reduce((a, b) => a + b, 0) - total;
  while (over > 0) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest] <= 1) break;
    widths[widest]--;
    over--;
  }
  let spare = -over;
  for (;;) {
    const open = columns
      .map((_, i) => i)
      .filter((i) => (columns[i].grow ?? 0) > 0 && widths[i] < (columns[i].max ?? Infinity));
    if (spare <= 0 || open.length === 0) break;
    const weight = open.reduce((a, i) => a + columns[i].grow!, 0);
    let given = 0;
    for (const i of open) {
      const share = Math.min(Math.floor((spare * columns[i].grow!) / weight), (columns[i].max ?? Infinity) - widths[i]);
      widths[i] += share;
      given += share;
    }
    if (given === 0) {
      // rounding left less than a cell a column: a cell each, the heaviest first
      const heaviest = [...open].sort((a, b) => columns[b].grow! - columns[a].grow!);
      for (const i of heaviest.slice(0, spare)) widths[i]++;
      given = Math.min(spare, open.length);
    }
    spare -= given;
  }
  return widths;
}

/**
 * The first row to show of `total` rows in `size` lines so that `selected` is visible, kept
 * near the middle as the selection moves.
 */
export function windowStart(total: number, selected: number, size: number): number {
  if (total <= size || selected < 0) return 0;
  return Math.max(0, Math.min(selected - Math.floor(size / 2), total - size));
}
