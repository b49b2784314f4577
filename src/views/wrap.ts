/**
 * Long lines broken to a width in terminal cells, at spaces where it can and inside a word
 * only when one is longer than the width: for text that must be read whole (a command to
 * copy, a confirmation's summary) rather than cut.
 */
import { cells, cut } from './text.js';

export function wrapCells(text: string, width: number): string[] {
  if (width <= 0) return [''];
  const lines: string[] = [];
  let line = '';
  const flush = () => {
    lines.push(line);
    line = '';
  };
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (cells(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line) flush();
    let rest = word;
    while (cells(rest) > width) {
      const head = cut(rest, width + 1).replace(/…$/, '');
      const piece = cells(head) > width ? head.slice(0, width) : head;
      lines.push(piece);
      rest = rest.slice(piece.length);
    }
    line = rest;
  }
  if (line || lines.length === 0) flush();
  return lines;
}
