/**
 * A limit on work in flight: at most `limit` holders at once, the others wait in the order they
 * asked. The executor holds a slot only while it talks to the API server, never while it waits
 * for a resource to become healthy, so slow readiness does not queue the rest behind it.
 */
export class Slots {
  private held = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new Error(`a limit of ${limit} slots lets nothing run; give at least 1`);
  }

  /** Slots held now. */
  get inUse(): number {
    return this.held;
  }

  /** Resolves once a slot is free, with the function that gives it back (call it once). */
  async acquire(): Promise<() => void> {
    if (this.held < this.limit) this.held++;
    // a slot given back is handed straight to the first in line, so a newcomer cannot jump the queue
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
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
