/**
 * Sandbox time. Controllers read the time and wait through a Clock so that tests can run them on
 * a manual clock (time moves only when the test says so) and demos can run them faster or slower
 * than the wall clock (`timeScale`).
 */

export interface Clock {
  /** Milliseconds since the epoch, in sandbox time. */
  now(): number;
  /** Runs `fn` once `delayMs` of sandbox time have passed; returns a cancel function. */
  after(delayMs: number, fn: () => void): () => void;
}

/**
 * The wall clock, optionally scaled: with timeScale 0.1 a 10 s delay passes in 1 s of real time,
 * and the clock's `now()` runs ten times as fast from the moment it was made.
 */
export class RealClock implements Clock {
  private readonly origin = Date.now();

  constructor(readonly timeScale = 1) {
    if (!(timeScale > 0)) throw new Error('timeScale must be a positive number');
  }

  now(): number {
    return this.origin + (Date.now() - this.origin) / this.timeScale;
  }

  after(delayMs: number, fn: () => void): () => void {
    const t = setTimeout(fn, Math.max(0, delayMs * this.timeScale));
    // a pending controller timer must not keep a finished process alive
    t.unref();
    return () => clearTimeout(t);
  }
}

interface Timer {
  due: number;
  seq: number;
  fn: () => void;
}

/** A clock that stands still until `advance()`; timers fire in due order, ties by creation order. */
export class ManualClock implements Clock {
  private time: number;
  private seq = 0;
  private timers: Timer[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  after(delayMs: number, fn: () => void): () => void {
    const t: Timer = { due: this.time + Math.max(0, delayMs), seq: this.seq++, fn };
    this.timers.push(t);
    return () => {
      this.timers = this.timers.filter((x) => x !== t);
    };
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way, in order. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      let next: Timer | undefined;
      for (const t of this.timers)
        if (t.due <= target && (!next || t.due < next.due || (t.due === next.due && t.seq < next.seq))) next = t;
      if (!next) break;
      this.timers = this.timers.filter((x) => x !== next);
      this.time = Math.max(this.time, next.due);
      next.fn();
    }
    this.time = target;
  }

  get pendingTimers(): number {
    return this.timers.length;
  }
}
