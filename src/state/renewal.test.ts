import { afterEach, describe, expect, it, vi } from 'vitest';
import { LockLostError, type Lock, type LockHolder } from './backend.js';
import { keepRenewed } from './renewal.js';

const holder: LockHolder = {
  id: 'a@h:1',
  user: 'a',
  host: 'h',
  pid: 1,
  operation: 'apply',
  since: '2026-11-22T03:00:00.000Z',
};
const key = { project: 'p', stack: 's', cluster: 'c' };

/** A lock whose renewals answer as told, counting them. */
function lock(answers: (() => Promise<void>)[]): Lock & { renewals: number } {
  const l = {
    holder,
    durationSeconds: 3,
    renewals: 0,
    renew: async () => {
      const answer = answers[Math.min(l.renewals, answers.length - 1)]!;
      l.renewals++;
      return answer();
    },
    release: async () => undefined,
  };
  return l;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('keeping locks renewed', () => {
  it('renews every third of the duration, rides out failures, and reports a lost lock once, then stops renewing it', async () => {
    vi.useFakeTimers();
    const ok = async () => undefined;
    const flaky = lock([() => Promise.reject(new Error('connection reset')), ok]);
    const lost = lock([ok, () => Promise.reject(new LockLostError(key, undefined))]);
    const onLost = vi.fn();
    const renewal = keepRenewed([flaky, lost], onLost);
    await vi.advanceTimersByTimeAsync(1000);
    expect([flaky.renewals, lost.renewals]).toEqual([1, 1]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(flaky.renewals).toBe(6);
    expect(lost.renewals).toBe(2);
    expect(onLost).toHaveBeenCalledTimes(1);
    expect(onLost.mock.calls[0]![0]).toBeInstanceOf(LockLostError);
    renewal.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(flaky.renewals).toBe(6);
  });
});
