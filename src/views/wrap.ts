/**
 * Long text broken into screen rows of at most `width` cells (string-width cells, whole
 * graphemes: a wide character that does not fit goes to the next row), for views that wrap
 * instead of cutting.
 */
import { cells } from './text.js';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export function wrapCells(text: string, width: number): string[] {
  if (width <= 0) return [''];
  if (cells(text) <= width) return [text];
  const rows: string[] = [];
  let row = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = cells(segment);
    if (used + w > width && row !== '') {
      rows.push(row);
      row = '';
      used = 0;
    }
    row += segment;
    used += w;
  }
  rows.push(row);
  return rows;
}
