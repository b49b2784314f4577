/**
 * Fitting text to the cells it may use: every line the console draws is cut to its width, so
 * Ink never wraps one and the frame keeps the height it was given. Widths are terminal cells
 * (string-width): a CJK character or an emoji takes two, a combining mark none.
 */
import stringWidth from 'string-width';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Printable ASCII: one cell a character, by far the most common text on screen. */
const PLAIN = /^[\x20-\x7e]*$/;

/** The cells `text` takes on a terminal. */
export const cells = (text: string): number => (PLAIN.test(text) ? text.length : stringWidth(text));

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

const split = (text: string): string[] => [...graphemes.segment(text)].map((s) => s.segment);

/** `text` cut to at most `width` cells, with … when cut. */
export function cut(text: string, width: number): string {
  if (width <= 0) return '';
  if (cells(text) <= width) return text;
  return `${within(split(text), width - 1).join('')}…`;
}

/** `text` cut from the left, keeping its end (ids end with the name). */
export function cutStart(text: string, width: number): string {
  if (cells(text) <= width) return text;
  if (width <= 0) return '';
  return `…${within(split(text).reverse(), width - 1)
    .reverse()
    .join('')}`;
}

/**
 * The first row to show of `total` rows in `size` lines so that `selected` is visible, kept
 * near the middle as the selection moves.
 */
export function windowStart(total: number, selected: number, size: number): number {
  if (total <= size || selected < 0) return 0;
  return Math.max(0, Math.min(selected - Math.floor(size / 2), total - size));
}
