/**
 * A limit on work in flight: at most `limit` holders at once. The executor holds a slot only
 * while it talks to the API server, never while it waits for a resource to become healthy, so
 * slow readiness does not queue the rest behind it. Those waiting for a slot get it by their
 * priority (lowest first), and in the order they asked when it is the same: a dependent whose
 * dependencies just became healthy can go before resources that were queued earlier but come
 * later in the stack's order.
 */
interface Waiter {
  priority: number;
  resolve: () => void;
}

export class Slots {
  private held = 0;
  /** Sorted by priority, each priority in the order asked. */
  private readonly waiting: Waiter[] = [];

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new Error(`a limit of ${limit} slots lets nothing run; give at least 1`);
  }

  /** Slots held now. */
  get inUse(): number {
    return this.held;
  }

  /** Resolves once a slot is free, with the function that gives it back (call it once). */
  async acquire(priority = 0): Promise<() => void> {
    if (this.held < this.limit) this.held++;
    // a slot given back is handed straight to the first in line, so a newcomer cannot jump the queue
    else
      await new Promise<void>((resolve) => {
        // after everyone of the same or a lower priority
        let lo = 0;
        let hi = this.waiting.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (this.waiting[mid].priority <= priority) lo = mid + 1;
          else hi = mid;
        }
        this.waiting.splice(lo, 0, { priority, resolve });
      });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next.resolve();
      else this.held--;
    };
  }

  /** Runs `task` holding a slot. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await task();
    } finally {
      release();
    }
  }
}
