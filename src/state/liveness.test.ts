import { describe, expect, it } from 'vitest';
import type { LockHolder } from './backend.js';
import { settledHistory, type Liveness } from './liveness.js';
import type { OperationRecord } from './model.js';

const op = (startTime: string, result: OperationRecord['result']): OperationRecord => ({
  kind: 'apply',
  operator: 'sre@laptop',
  startTime,
  result,
  created: 0,
  updated: 0,
  deleted: 0,
});
const holder = (pid: number, since: string, extra: Partial<LockHolder> = {}): LockHolder => ({
  id: `sre@laptop:${pid}`,
  user: 'sre',
  host: 'laptop',
  pid,
  operation: 'apply',
  since,
  expires: '2026-01-01T12:01:00.000Z',
  ...extra,
});
/** At noon on the laptop, where only process 100 runs. */
const here: Liveness = { now: new Date('2026-01-01T12:00:00.000Z'), host: 'laptop', isAlive: (pid) => pid === 100 };
const results = (h: OperationRecord[]) => h.map((o) => o.result);

describe('operations whose process died', () => {
  const history = [op('2026-01-01T10:00:00.000Z', 'running'), op('2026-01-01T11:59:00.000Z', 'running')];

  it('stay running while their holder holds the lock and lives', () => {
    expect(results(settledHistory(history, holder(100, '2026-01-01T11:58:59.000Z'), here))).toEqual([
      'interrupted',
      'running',
    ]);
  });

  it('are interrupted once the holder process on this machine is gone, the lock ran out, or nobody holds it', () => {
    expect(results(settledHistory(history, holder(200, '2026-01-01T11:58:59.000Z'), here))).toEqual([
      'interrupted',
      'interrupted',
    ]);
    const expired = holder(100, '2026-01-01T11:58:59.000Z', { expires: '2026-01-01T11:59:30.000Z' });
    expect(results(settledHistory(history, expired, here))).toEqual(['interrupted', 'interrupted']);
    expect(results(settledHistory(history, undefined, here))).toEqual(['interrupted', 'interrupted']);
  });

  it('judge a holder on another machine by its lock alone', () => {
    const remote = holder(200, '2026-01-01T11:58:59.000Z', { id: 'sre@laptop:200', host: 'build-7' });
    expect(results(settledHistory(history, remote, here))).toEqual(['interrupted', 'running']);
  });

  it('are interrupted when the lock belongs to a later operation that has not recorded itself yet', () => {
    expect(results(settledHistory(history, holder(100, '2026-01-01T11:59:30.000Z'), here))).toEqual([
      'interrupted',
      'interrupted',
    ]);
  });

  it('leave finished operations as they were recorded', () => {
    const done = [op('2026-01-01T10:00:00.000Z', 'succeeded'), op('2026-01-01T11:00:00.000Z', 'failed')];
    expect(settledHistory(done, undefined, here)).toEqual(done);
  });
});
