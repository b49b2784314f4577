/** Durations as users write them in flags, runbooks and annotations: `500ms`, `30s`, `5m`, `1h`. */

/** Milliseconds, or undefined when `text` is not a duration; a bare number is seconds. */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!m) return undefined;
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Math.round(Number(m[1]) * unit);
}
