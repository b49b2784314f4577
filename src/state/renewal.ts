/**
 * Keeping an operation's locks while it runs: each is renewed at a third of its duration, so two
 * renewals can fail (a slow API server, a dropped connection) before it runs out. A lock that
 * someone else now holds, or that was removed, is lost: the operation is told once and that lock
 * is no longer renewed; any other failure is tried again at the next tick.
 */
import { LockLostError, type Lock } from './backend.js';

export interface Renewal {
  stop(): void;
}

export function keepRenewed(locks: readonly Lock[], onLost: (e: LockLostError) => void): Renewal {
  const live = new Set(locks);
  let told = false;
  const timers = locks.map((lock) => {
    const timer = setInterval(
      () => {
        if (!live.has(lock)) return;
        lock.renew().catch((e: unknown) => {
          if (!(e instanceof LockLostError)) return;
          live.delete(lock);
          clearInterval(timer);
          if (!told) {
            told = true;
            onLost(e);
          }
        });
      },
      (lock.durationSeconds * 1000) / 3,
    );
    // the operation keeps the process alive, not its locks
    timer.unref();
    return timer;
  });
  return {
    stop: () => {
      live.clear();
      for (const t of timers) clearInterval(t);
    },
  };
}
