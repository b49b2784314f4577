/**
 * Fitting text to the cells it may use: every line the console draws is cut to its width, so
 * Ink never wraps one and the frame keeps the height it was given.
 */

/** `text` cut to `width` cells (with … when cut), padded to exactly `width`. */
export function fit(text: string, width: number): string {
  return cut(text, width).padEnd(Math.max(0, width));
}

/** `text` cut to at most `width` cells, with … when cut. */
export function cut(text: string, width: number): string {
  if (width <= 0) return '';
  const chars = [...text];
  if (chars.length <= width) return text;
  return `${chars.slice(0, width - 1).join('')}…`;
}

/** `text` cut from the left, keeping its end (ids end with the name). */
export function cutStart(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  return width <= 0 ? '' : `…${chars.slice(chars.length - width + 1).join('')}`;
}

/**
 * The first row to show of `total` rows in `size` lines so that `selected` is visible, kept
 * near the middle as the selection moves.
 */
export function windowStart(total: number, selected: number, size: number): number {
  if (total <= size || selected < 0) return 0;
  return Math.max(0, Math.min(selected - Math.floor(size / 2), total - size));
}
