/**
 * A recovery run's updates as lines, for logs and CI (no terminal): one line per audit entry
 * (who did what where, and how it came out) and per health reading.
 */
import type { RunUpdate } from './runner.js';

export function updateLine(u: RunUpdate): string {
  if (u.type === 'health') {
    const h = u.note.health;
    return `${u.cluster}  ${u.note.subject}: ${h.state}${h.reason ? ` (${h.reason})` : ''}: ${h.message}`;
  }
  const e = u.entry;
  const where = [e.cluster, e.target].filter(Boolean).join('  ');
  // a target's or batch's entry is said by its outcome ("deleted", "verified"); the run's by both
  const what = where ? e.outcome : `${e.action} ${e.outcome}`;
  return `${where ? `${where}: ` : ''}${what}${e.detail ? ` (${e.detail})` : ''}`;
}
