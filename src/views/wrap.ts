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

/** `text` in rows of at most `width` cells, broken at spaces where it can be (a word too long for a row is broken too). */
export function wrapWords(text: string, width: number): string[] {
  const rows: string[] = [];
  let row = '';
  for (const word of text.split(' ')) {
    const next = row ? `${row} ${word}` : word;
    if (cells(next) <= width) {
      row = next;
      continue;
    }
    if (row) rows.push(row);
    const pieces = wrapCells(word, width);
    row = pieces.pop() ?? '';
    rows.push(...pieces);
  }
  rows.push(row);
  return rows;
}
