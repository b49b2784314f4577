/**
 * A planned recovery's rehearsal as the Recovery view shows it beside the plan: the forecast's
 * text (the same words `kdeck recover --rehearse` prints), wrapped to the column so no figure is
 * cut off, headings bold and refusals and pauses in the warning colour. Pure.
 */
import type { RehearsalEntry } from '../../app/console/recovery.js';
import { rehearsalText } from '../../recovery/rehearsal-text.js';
import { wrapWords } from '../../views/text.js';
import type { DiffLine } from './diff-lines.js';

/** Sections whose entries an operator must read before running. */
const WARNING_SECTIONS = /^(Evictions refused \(|Batches that would stop)/;

export function rehearsalLines(rehearsal: RehearsalEntry, width: number): DiffLine[] {
  if (rehearsal.state === 'rehearsing')
    return [{ text: 'Rehearsing on an embedded copy of the clusters (reads only)…', tone: 'progress' }];
  if (rehearsal.state === 'error')
    return wrapped([`The rehearsal failed: ${rehearsal.message}`], width).map((text) => ({ text, tone: 'danger' }));
  const lines: DiffLine[] = [];
  let warn = false;
  for (const line of rehearsalText(rehearsal.report).trimEnd().split('\n')) {
    const heading = line !== '' && !line.startsWith(' ');
    if (heading) warn = WARNING_SECTIONS.test(line);
    for (const text of wrapped([line], width))
      lines.push(heading ? { text, bold: true } : warn && text.trim() ? { text, tone: 'warning' } : { text });
  }
  return lines;
}

/** Each line over as many as it needs of `width` cells, continued under its own indent. */
function wrapped(lines: readonly string[], width: number): string[] {
  return lines.flatMap((line) => {
    const indent = line.length - line.trimStart().length;
    const pad = ' '.repeat(Math.min(indent + 2, Math.max(0, width - 10)));
    const first = wrapWords(line, width)[0] ?? '';
    const rest = line.slice(first.length).trimStart();
    return rest ? [first, ...wrapWords(rest, width - pad.length).map((x) => pad + x)] : [first];
  });
}
