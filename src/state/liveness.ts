/**
 * Whether an operation a state records as `running` still runs. A process killed mid-operation
 * (SIGKILL, a crash, a closed laptop) never writes its end, so its record would say `running`
 * forever; the lock it held tells the truth: the operation runs only while its holder's lock is
 * held and alive (not run out, and, on this machine, its process still there).
 */
import os from 'node:os';
import { isExpired, type LockHolder } from './backend.js';
import { isAlive } from './durable-file.js';
import type { OperationRecord } from './model.js';

/** What judging liveness needs: injected, so tests decide the time and which processes live. */
export interface Liveness {
  now: Date;
  /** This machine's name, as lock holders record it. */
  host: string;
  isAlive(pid: number): boolean;
}

export const thisMachine = (): Liveness => ({ now: new Date(), host: os.hostname(), isAlive });

/** True when the lock's holder can no longer be running: its lock ran out, or its process here is gone. */
export function holderGone(holder: LockHolder, l: Liveness): boolean {
  return isExpired(holder, l.now) || (holder.host === l.host && !l.isAlive(holder.pid));
}

/**
 * `history` (oldest first, as the state keeps it) with every `running` record whose operation
 * no longer runs shown as `interrupted`. Only the newest record can still run, and only while the
 * stack's lock is held, by the same operator, since before that record began, and not gone.
 */
export function settledHistory(
  history: readonly OperationRecord[],
  holder: LockHolder | undefined,
  l: Liveness,
): OperationRecord[] {
  const last = history.length - 1;
  return history.map((op, i) => {
    if (op.result !== 'running') return op;
    const stillRunning =
      i === last &&
      holder !== undefined &&
      holder.id.startsWith(`${op.operator}:`) &&
      Date.parse(holder.since) <= Date.parse(op.startTime) &&
      !holderGone(holder, l);
    return stillRunning ? op : { ...op, result: 'interrupted' };
  });
}
