/**
 * Timestamps as the API server writes them (metav1.Time: UTC, whole seconds), and ages as
 * kubectl prints them.
 */

/** The last second formatted: every write stamps a time, and most fall in the same second. */
let lastSecond = NaN;
let lastText = '';

export function rfc3339(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastText = `${new Date(second * 1000).toISOString().slice(0, 19)}Z`;
  }
  return lastText;
}

/** Milliseconds of an RFC3339 time, or undefined when it does not parse. */
export function parseTime(s: unknown): number | undefined {
  if (typeof s !== 'string') return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}

/** kubectl's HumanDuration: 45s, 3m2s, 12m, 5h3m, 3d4h, 400d, 2y30d. */
export function humanAge(fromMs: number | undefined, nowMs: number): string {
  if (fromMs === undefined) return '<unknown>';
  const secs = Math.floor((nowMs - fromMs) / 1000);
  if (secs < -1) return '<invalid>';
  if (secs < 0) return '0s';
  if (secs < 120) return `${secs}s`;
  const mins = Math.floor(secs / 60);
  if (mins < 10) return secs % 60 === 0 ? `${mins}m` : `${mins}m${secs % 60}s`;
  if (mins < 180) return `${mins}m`;
  const hours = Math.floor(mins / 60);
  if (hours < 8) return mins % 60 === 0 ? `${hours}h` : `${hours}h${mins % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8)
    return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  const years = Math.floor(hours / 24 / 365);
  if (years < 8) return `${years}y${Math.floor(hours / 24) % 365}d`;
  return `${years}y`;
}
