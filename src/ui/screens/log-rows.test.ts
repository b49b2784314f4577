import { describe, expect, it } from 'vitest';
import type { LogLine } from '../../app/pods/log-buffer.js';
import { cells } from '../../views/text.js';
import { logRows } from './log-rows.js';

const line = (seq: number, text: string): LogLine => ({
  seq,
  source: 'pod/web-1/app',
  at: '2026-03-02T09:00:00.000000000Z',
  text,
});
const LINES = [line(0, 'app: started'), line(1, 'app: GET /healthz 200'), line(2, `app: ${'x'.repeat(50)} error end`)];
const base = { width: 30, height: 10, back: 0, wrap: false, timestamps: false, prefixed: false, search: '' };

describe('logRows', () => {
  it('cuts every line to one row of the width when not wrapping', () => {
    const rows = logRows(LINES, base);
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(cells(r.text)).toBeLessThanOrEqual(30);
  });

  it('wraps a long line onto several rows, keeping all of it, and keeps the newest rows that fit', () => {
    const rows = logRows(LINES, { ...base, wrap: true });
    expect(rows.map((r) => r.text).join('')).toContain('error end');
    expect(
      logRows(LINES, { ...base, wrap: true, height: 2 })
        .map((r) => r.text)
        .join(''),
    ).toMatch(/error end$/);
  });

  it('marks where the search matches, in the row it shows', () => {
    const [, healthz] = logRows(LINES, { ...base, search: 'HEALTHZ' });
    expect(healthz!.text.slice(...healthz!.matches[0]!)).toBe('healthz');
    // a match the wrap breaks is marked on both rows
    const wrapped = logRows(LINES, { ...base, wrap: true, search: 'error' });
    expect(wrapped.flatMap((r) => r.matches.map((m) => r.text.slice(...m))).join('')).toBe('error');
  });

  it('prefixes pod and container, and the timestamp when asked, and scrolls back from the newest', () => {
    const rows = logRows(LINES, { ...base, width: 200, prefixed: true, timestamps: true, back: 1 });
    expect(rows.map((r) => r.text)).toEqual([
      '[pod/web-1/app] 2026-03-02T09:00:00.000000000Z app: started',
      '[pod/web-1/app] 2026-03-02T09:00:00.000000000Z app: GET /healthz 200',
    ]);
    expect(rows[0]!.prefix).toBe('[pod/web-1/app] 2026-03-02T09:00:00.000000000Z '.length);
  });
});
