import { describe, expect, it } from 'vitest';
import { lastFiring, nextFiring, parseSchedule } from './cron.js';

const at = (iso: string) => Date.parse(iso);
const iso = (t: number | undefined) => (t === undefined ? undefined : new Date(t).toISOString());

describe('cron schedules', () => {
  it('find the next firing for steps, ranges, lists, names and macros', () => {
    expect(iso(nextFiring(parseSchedule('*/15 * * * *'), at('2026-01-01T10:07:30Z')))).toBe('2026-01-01T10:15:00.000Z');
    expect(iso(nextFiring(parseSchedule('30 9-17/4 * * mon-fri'), at('2026-01-02T17:45:00Z')))).toBe(
      '2026-01-05T09:30:00.000Z',
    );
    expect(iso(nextFiring(parseSchedule('0 0 1,15 feb *'), at('2026-01-20T00:00:00Z')))).toBe(
      '2026-02-01T00:00:00.000Z',
    );
    expect(iso(nextFiring(parseSchedule('@hourly'), at('2026-01-01T10:00:00Z')))).toBe('2026-01-01T11:00:00.000Z');
    // day of month and day of week both given: either one will do
    expect(iso(nextFiring(parseSchedule('0 12 13 * 5'), at('2026-01-01T00:00:00Z')))).toBe('2026-01-02T12:00:00.000Z');
    expect(nextFiring(parseSchedule('0 0 30 2 *'), at('2026-01-01T00:00:00Z'))).toBeUndefined();
  });

  it('find the latest firing in a window, if any', () => {
    const every5 = parseSchedule('*/5 * * * *');
    expect(iso(lastFiring(every5, at('2026-01-01T10:00:00Z'), at('2026-01-01T10:12:00Z')))).toBe(
      '2026-01-01T10:10:00.000Z',
    );
    expect(lastFiring(every5, at('2026-01-01T10:10:00Z'), at('2026-01-01T10:14:59Z'))).toBeUndefined();
  });

  it('refuse what is not a schedule', () => {
    for (const bad of ['* * * *', '61 * * * *', '*/0 * * * *', 'x * * * *', '5-1 * * * *'])
      expect(() => parseSchedule(bad)).toThrow();
  });
});
