/**
 * The controller manager: level-triggered reconcilers fed by the store's own events. An event
 * queues keys with the controllers that care (but not the key a controller is reconciling, for
 * the writes it makes meanwhile, if it settles them itself); a worker drains the queue in small
 * batches (so HTTP requests keep being served), each key once however often it was queued. A
 * controller that must look again later asks for a wake-up on the cluster's clock. `settle()`
 * resolves when nothing is left to do now — with readiness delay 0 a rollout converges within it.
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
  /**
   * Its reconcile of a key does all that the key's objects ask for now, or asks to be woken for
   * the rest: the store events of the writes it makes meanwhile tell it nothing, and do not queue
   * that key for it again.
   */
  readonly settlesItsOwnWrites?: boolean;
  /** Keys to look at when the manager starts (objects restored from a snapshot, seeds). */
  initialKeys?(): string[];
}

type Follower = readonly [Controller, (e: StoreEvent) => readonly string[]];

interface Item {
  controller: Controller;
  key: string;
  id: string;
  /** Which enqueue of its id this is: an item whose id was queued again since is stale. */
  turn: number;
}

/**
 * The reconciles waiting, in the order last asked for: an id queued again moves to the back and
 * runs once: the stale item it leaves behind is skipped.
 */
class ReconcileQueue {
  private readonly items = new Fifo<Item>();
  private turns = 0;
  /** The live turn of each queued id. */
  private readonly live = new Map<string, number>();

  get size(): number {
    return this.live.size;
  }

  push(controller: Controller, key: string, id: string): void {
    const turn = this.turns++;
    this.live.set(id, turn);
    this.items.push({ controller, key, id, turn });
  }

  /** Takes the first live item off the queue. */
  shift(): Item | undefined {
    for (let item = this.items.shift(); item; item = this.items.shift()) {
      if (this.live.get(item.id) !== item.turn) continue;
      this.live.delete(item.id);
      return item;
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
  private readonly queue = new ReconcileQueue();
  /** Work that waits until no reconcile is queued (see `defer`). */
  private readonly deferred = new Fifo<() => void>();
  private readonly followers = new Map<string, readonly Follower[]>();
  private running = false;
  /** The reconcile under way, whose own writes may not queue it again (`settlesItsOwnWrites`). */
  private current: Item | undefined;
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
    this.followers.clear();
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
    this.queue.clear();
    this.deferred.clear();
    this.release();
  }

  private onEvent(e: StoreEvent): void {
    const own = this.current?.controller.settlesItsOwnWrites ? this.current : undefined;
    for (const [c, keysOf] of this.followersOf(e.resource))
      for (const k of keysOf(e)) if (c !== own?.controller || k !== own.key) this.enqueue(c, k);
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
    this.queue.push(c, key, `${c.name}\u0000${key}`);
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
   * of its own, so that what the other clusters of the process (each has its manager) and the
   * requests in between have to do comes before it, as a real cluster's event broadcaster holds
   * up nothing of another cluster.
   */
  private drain(): void {
    this.scheduled = false;
    this.running = true;
    try {
      const left = this.queue.size > 0 ? () => this.queue.size : () => this.deferred.length;
      for (let n = 0; n < BATCH && left() > 0; n++) this.runNext();
    } finally {
      this.running = false;
    }
    if (this.pending > 0) this.schedule();
    else this.release();
  }

  /** Reconciles and deferred work waiting to run. */
  private get pending(): number {
    return this.queue.size + this.deferred.length;
  }

  /** The first queued reconcile, or deferred work once none is queued. */
  private runNext(): void {
    const item = this.queue.shift();
    if (!item) {
      const task = this.deferred.shift()!;
      try {
        task();
      } catch (e) {
        // nothing retries deferred work: its failure is kept as a reconcile's is, and the rest goes on
        this.failed('deferred', '', e);
      }
      return;
    }
    this.current = item;
    try {
      item.controller.reconcile(item.key);
    } catch (e) {
      this.failed(item.controller.name, item.key, e);
      this.enqueueAfter(item.controller, item.key, RETRY_MS);
    } finally {
      this.current = undefined;
    }
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
