/**
 * The lines a log view holds: the newest `limit` of them, with a count of the older ones let
 * go, so a chatty pod followed for hours costs a bounded amount of memory and the view can say
 * what it no longer has. Pure: appending returns a new buffer.
 */

export interface LogLine {
  /** Position in the whole feed, counting dropped lines: a stable key. */
  seq: number;
  /** `pod/web-1/app`: where the line came from (kubectl --prefix writes it in brackets). */
  source: string;
  /** The kubelet's RFC3339 timestamp, when the server gave one. */
  at?: string;
  text: string;
}

export interface LogBuffer {
  lines: readonly LogLine[];
  /** Older lines let go to keep `limit`. */
  dropped: number;
}

export const LOG_LIMIT = 5_000;

export const emptyBuffer: LogBuffer = { lines: [], dropped: 0 };

const TIMESTAMP = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)) (.*)$/s;

/** A line read with `timestamps=true`: its timestamp and its text. */
export function splitTimestamp(raw: string): { at?: string; text: string } {
  const m = TIMESTAMP.exec(raw);
  return m ? { at: m[1]!, text: m[2]! } : { text: raw };
}

export function appended(
  b: LogBuffer,
  source: string,
  lines: readonly { at?: string; text: string }[],
  limit = LOG_LIMIT,
): LogBuffer {
  if (lines.length === 0) return b;
  const first = b.dropped + b.lines.length;
  const all = [...b.lines, ...lines.map((l, i) => ({ seq: first + i, source, ...l }))];
  const over = Math.max(0, all.length - limit);
  return { lines: over ? all.slice(over) : all, dropped: b.dropped + over };
}
