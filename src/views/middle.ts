/**
 * Names cut in the middle: a pod's or a resource's name says most at its two ends (the
 * workload's name at the start, the generated suffix at the end), so both stay when it is too
 * long for its column.
 */
import { cells, cut, cutStart } from './text.js';

/** `text` cut to at most `width` cells by taking out its middle (with …). */
export function cutMiddle(text: string, width: number): string {
  if (cells(text) <= width) return text;
  if (width <= 2) return cut(text, width);
  const head = Math.ceil((width - 1) / 2);
  const tail = width - 1 - head;
  const start = cut(text, head + 1).replace(/…$/, '');
  const end = tail > 0 ? cutStart(text, tail + 1).replace(/^…/, '') : '';
  return `${start}…${end}`;
}
