/**
 * The controller manager: level-triggered reconcilers fed by the store's own events. An event
 * queues keys with the controllers that care; a worker drains the queues in small batches (so
 * HTTP requests keep being served), a controller at a time in turn, each key once however often
 * it was queued. A controller that must look again later asks for a wake-up on the cluster's
 * clock. `settle()` resolves when nothing is left to do now — with readiness delay 0 a rollout
 * converges within it.
 */
import type { Clock } from '../clock.js';
import type { Store, StoreEvent } from '../api/store.js';
import { Fifo } from './fifo.js';

export interface Controller {
  readonly name: string;
  /**
   * For each resource key (`/pods`, `apps/deployments`) it follows: the keys an event concerns.
   * `*` follows every resource.
   */
  readonly follows: Readonly<Record<string, (e: StoreEvent) => readonly string[]>>;
  reconcile(key: string): void;
  /** Keys to look at when the manager starts (objects restored from a snapshot, seeds). */
  initialKeys?(): string[];
}

type Follower = readonly [Controller, (e: StoreEvent) => readonly string[]];

/**
 * The keys one controller has waiting, in the order last asked for: a key queued again moves to
 * the back and runs once (the stale item it leaves behind is skipped).
 */
class ReconcileQueue {
  private readonly items = new Fifo<{ key: string; turn: number }>();
  private turns = 0;
  /** The live turn of each queued key. */
  private readonly live = new Map<string, number>();

  constructor(readonly controller: Controller) {}

  get size(): number {
    return this.live.size;
  }

  /** Queues `key`; whether it was not queued already. */
  push(key: string): boolean {
    const turn = this.turns++;
    const added = !this.live.has(key);
    this.live.set(key, turn);
    this.items.push({ key, turn });
    return added;
  }

  /** Takes the first live key off the queue. */
  shift(): string | undefined {
    for (let item = this.items.shift(); item; item = this.items.shift()) {
      if (this.live.get(item.key) !== item.turn) continue;
      this.live.delete(item.key);
      return item.key;
    }
    return undefined;
  }

  clear(): void {
    this.items.clear();
    this.live.clear();
  }
}

const BATCH = 200;
const RETRY_MS = 1000;

export class ControllerManager {
  private readonly controllers: Controller[] = [];
  /**
   * A queue per controller, taken from in turn: the controllers of a real cluster run side by
   * side (the kubelet and the scheduler in processes of their own, each controller of the
   * controller manager with workers of its own), so a burst for one of them does not hold up
   * the others, and a pod replaced goes from controller to controller without waiting for every
   * status update the burst caused.
   */
  private readonly queues: ReconcileQueue[] = [];
  private readonly queueOf = new Map<Controller, ReconcileQueue>();
  /** The queue the next reconcile is taken from, or after. */
  private cursor = 0;
  /** Keys queued over all the queues. */
  private queued = 0;
  /** Work that waits until no reconcile is queued (see `defer`). */
  private readonly deferred = new Fifo<() => void>();
  private readonly followers = new Map<string, readonly Follower[]>();
  private running = false;
  private scheduled = false;
  private stopped = false;
  private waiters: (() => void)[] = [];
  /** One pending wake-up per controller and key: the earliest asked for. */
  private readonly timers = new Map<string, { due: number; cancel: () => void }>();
  private unsubscribe: (() => void) | undefined;
  /** The last failure of a reconcile, kept for the admin endpoint and tests. */
  lastError: { controller: string; key: string; message: string } | undefined;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  add(c: Controller): void {
    this.controllers.push(c);
    this.queueFor(c);
    this.followers.clear();
  }

  private queueFor(c: Controller): ReconcileQueue {
    let q = this.queueOf.get(c);
    if (!q) {
      q = new ReconcileQueue(c);
      this.queueOf.set(c, q);
      this.queues.push(q);
    }
    return q;
  }

  start(): void {
    this.unsubscribe = this.store.subscribe((e) => this.onEvent(e));
    for (const c of this.controllers) for (const k of c.initialKeys?.() ?? []) this.enqueue(c, k);
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
    for (const q of this.queues) q.clear();
    this.queued = 0;
    this.deferred.clear();
    this.release();
  }

  private onEvent(e: StoreEvent): void {
    for (const [c, keysOf] of this.followersOf(e.resource)) for (const k of keysOf(e)) this.enqueue(c, k);
  }

  /** Who follows a resource, in the order the controllers were added (a store event has many to ask). */
  private followersOf(resource: string): readonly Follower[] {
    let list = this.followers.get(resource);
    if (!list) {
      list = this.controllers.flatMap((c) =>
        [c.follows[resource], c.follows['*']].filter((f) => f !== undefined).map((f): Follower => [c, f]),
      );
      this.followers.set(resource, list);
    }
    return list;
  }

  enqueue(c: Controller, key: string): void {
    if (this.stopped) return;
    if (this.queueFor(c).push(key)) this.queued++;
    this.schedule();
  }

  /**
   * Runs `task` once no reconcile is queued: what a real controller hands to a goroutine of its
   * own rather than doing in its reconcile (its event broadcaster writes Events that way), so it
   * holds up neither that reconcile nor the ones queued behind it. `settle()` waits for it too.
   */
  defer(task: () => void): void {
    if (this.stopped) return;
    this.deferred.push(task);
    this.schedule();
  }

  /** Looks at `key` again once `delayMs` of cluster time have passed. */
  enqueueAfter(c: Controller, key: string, delayMs: number): void {
    if (this.stopped) return;
    if (delayMs <= 0) return this.enqueue(c, key);
    const id = `${c.name}\u0000${key}`;
    const due = this.clock.now() + delayMs;
    const pending = this.timers.get(id);
    // a reconcile runs on every change, and often asks again for the same wake-up
    if (pending && pending.due <= due) return;
    pending?.cancel();
    const cancel = this.clock.after(delayMs, () => {
      this.timers.delete(id);
      this.enqueue(c, key);
    });
    this.timers.set(id, { due, cancel });
  }

  private schedule(): void {
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    // A request's write queues reconciles before its response is sent, and Node's HTTP/2 server
    // ends a response (its trailers) in an immediate of its own, queued after this one: going
    // round once more lets the responses of the requests just served go out before the
    // controllers run, as an API server answers whatever its controllers are busy with. With one
    // round, a burst of applies waited for the whole reconcile batch it caused (p90 91 ms).
    setImmediate(() => setImmediate(() => this.drain()));
  }

  /**
   * One pass: the queued reconciles, or else the deferred work. Deferred work waits for a pass
   * of its own, so that what other clusters of the process (each has its manager) and the
   * requests in between have to do comes before it, as a real controller's event broadcaster
   * holds up nothing of another cluster, nor of its own controllers.
   */
  private drain(): void {
    this.scheduled = false;
    this.running = true;
    try {
      if (this.queued > 0) for (let n = 0; n < BATCH && this.queued > 0; n++) this.runNext();
      else for (let n = 0; n < BATCH && this.deferred.length > 0; n++) this.runNext();
    } finally {
      this.running = false;
    }
    if (this.pending > 0) this.schedule();
    else this.release();
  }

  /** Reconciles and deferred work waiting to run. */
  private get pending(): number {
    return this.queued + this.deferred.length;
  }

  /** The next controller's first queued reconcile, or deferred work once none is queued. */
  private runNext(): void {
    const next = this.takeReconcile();
    if (!next) {
      const task = this.deferred.shift()!;
      try {
        task();
      } catch (e) {
        // nothing retries deferred work: its failure is kept as a reconcile's is, and the rest goes on
        this.failed('deferred', '', e);
      }
      return;
    }
    const [controller, key] = next;
    try {
      controller.reconcile(key);
    } catch (e) {
      this.failed(controller.name, key, e);
      this.enqueueAfter(controller, key, RETRY_MS);
    }
  }

  /** A key off the first queue from the cursor on that has one; the cursor moves past that queue. */
  private takeReconcile(): [Controller, string] | undefined {
    if (this.queued === 0) return undefined;
    for (let tried = 0; tried < this.queues.length; tried++) {
      const q = this.queues[this.cursor]!;
      this.cursor = (this.cursor + 1) % this.queues.length;
      const key = q.shift();
      if (key !== undefined) {
        this.queued--;
        return [q.controller, key];
      }
    }
    return undefined;
  }

  private failed(controller: string, key: string, e: unknown): void {
    this.lastError = { controller, key, message: e instanceof Error ? e.message : String(e) };
  }

  private release(): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }

  /** Resolves once the queue is empty: every controller has done what it can do now, and what
   * they deferred is done. */
  settle(): Promise<void> {
    if (this.pending === 0 && !this.running && !this.scheduled) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
