/**
 * The screen rows of a log view, pure: the newest log lines that fit in `height` rows, `back`
 * lines up from the end, each line prefixed with its pod and container (a workload's log, as
 * `kubectl logs --prefix` writes them) and its timestamp when asked, then cut to the width or
 * wrapped onto several rows. Search matches are marked as ranges of the row's text.
 */
import type { LogLine } from '../../app/pods/log-buffer.js';
import { cells, cut } from '../../views/text.js';
import { wrapCells } from '../../views/wrap.js';

export interface LogRow {
  key: string;
  text: string;
  /** Where the search matches, as [start, end) in `text`. */
  matches: [number, number][];
  /** The cells the prefix takes at the start of the line's first row (shown muted). */
  prefix: number;
}

export interface LogRowOptions {
  width: number;
  height: number;
  back: number;
  wrap: boolean;
  timestamps: boolean;
  prefixed: boolean;
  search: string;
}

export function lineText(
  l: LogLine,
  o: Pick<LogRowOptions, 'timestamps' | 'prefixed'>,
): { text: string; prefix: string } {
  const prefix = `${o.prefixed ? `[${l.source}] ` : ''}${o.timestamps && l.at ? `${l.at} ` : ''}`;
  return { text: prefix + l.text, prefix };
}

export function matchRanges(text: string, search: string): [number, number][] {
  if (!search) return [];
  const hay = text.toLowerCase();
  const needle = search.toLowerCase();
  const out: [number, number][] = [];
  for (let at = hay.indexOf(needle); at !== -1; at = hay.indexOf(needle, at + needle.length))
    out.push([at, at + needle.length]);
  return out;
}

/** Which of `lines` match the search (its text, not its prefix). */
export function matchingLines(lines: readonly LogLine[], search: string): number {
  if (!search) return 0;
  const needle = search.toLowerCase();
  return lines.filter((l) => l.text.toLowerCase().includes(needle)).length;
}

export function logRows(lines: readonly LogLine[], o: LogRowOptions): LogRow[] {
  const end = Math.max(0, lines.length - o.back);
  const rows: LogRow[] = [];
  for (let i = end - 1; i >= 0 && rows.length < o.height; i--) {
    const l = lines[i]!;
    const { text, prefix } = lineText(l, o);
    const pieces = o.wrap ? wrapCells(text, o.width) : [cells(text) > o.width ? cut(text, o.width) : text];
    let offset = pieces.reduce((n, p) => n + p.length, 0);
    const own: LogRow[] = [];
    for (let k = pieces.length - 1; k >= 0; k--) {
      const piece = pieces[k]!;
      offset -= piece.length;
      const start = offset;
      own.unshift({
        key: `${l.seq}.${k}`,
        text: piece,
        matches: matchRanges(text, o.search)
          .map(([a, b]): [number, number] => [Math.max(a, start) - start, Math.min(b, start + piece.length) - start])
          .filter(([a, b]) => b > a && a < piece.length),
        prefix: k === 0 ? Math.min(prefix.length, piece.length) : 0,
      });
    }
    rows.unshift(...own.slice(Math.max(0, own.length - (o.height - rows.length))));
  }
  return rows;
}
