import { describe, expect, it } from 'vitest';
import { Store } from '../api/store.js';
import { ManualClock } from '../clock.js';
import { ControllerManager, type Controller } from './manager.js';

describe('the controller manager', () => {
  it('runs deferred work once no reconcile is queued, and settles only after it', async () => {
    const manager = new ControllerManager(new Store(), new ManualClock());
    const done: string[] = [];
    const chain: Controller = {
      name: 'chain',
      follows: {},
      reconcile: (key) => {
        done.push(key);
        // each reconcile defers a write and queues the next link, as a controller records an Event
        manager.defer(() => done.push(`event of ${key}`));
        const n = Number(key);
        if (n < 3) manager.enqueue(chain, String(n + 1));
      },
    };
    manager.add(chain);
    manager.start();
    manager.enqueue(chain, '1');
    await manager.settle();
    expect(done).toEqual(['1', '2', '3', 'event of 1', 'event of 2', 'event of 3']);
    manager.stop();
  });

  it('reconciles a key queued again once, in the place of its last queueing, across a burst', async () => {
    const manager = new ControllerManager(new Store(), new ManualClock());
    const done: string[] = [];
    const c: Controller = { name: 'c', follows: {}, reconcile: (key) => done.push(key) };
    manager.add(c);
    manager.start();
    // more than the queue keeps before it trims what it has passed
    const keys = Array.from({ length: 3000 }, (_, i) => `k${i % 1500}`);
    for (const k of keys) manager.enqueue(c, k);
    manager.enqueue(c, 'k0');
    await manager.settle();
    expect(done).toEqual([...Array.from({ length: 1499 }, (_, i) => `k${i + 1}`), 'k0']);
    manager.stop();
  });

  it('lets what was queued just after the work (a response ending) go before the reconciles', async () => {
    const manager = new ControllerManager(new Store(), new ManualClock());
    const order: string[] = [];
    const c: Controller = { name: 'c', follows: {}, reconcile: (key) => order.push(`reconcile ${key}`) };
    manager.add(c);
    manager.start();
    manager.enqueue(c, 'a');
    setImmediate(() => order.push('response ended'));
    await manager.settle();
    expect(order).toEqual(['response ended', 'reconcile a']);
    manager.stop();
  });

  it("leaves deferred work to a pass of its own, after another cluster's reconciles", async () => {
    const store = new Store();
    const [one, other] = [
      new ControllerManager(store, new ManualClock()),
      new ControllerManager(store, new ManualClock()),
    ];
    const done: string[] = [];
    const recorder: Controller = {
      name: 'recorder',
      follows: {},
      reconcile: (key) => {
        done.push(`one ${key}`);
        one.defer(() => done.push(`event of ${key}`));
      },
    };
    const elsewhere: Controller = { name: 'elsewhere', follows: {}, reconcile: (key) => done.push(`other ${key}`) };
    one.add(recorder);
    other.add(elsewhere);
    one.start();
    other.start();
    one.enqueue(recorder, 'a');
    other.enqueue(elsewhere, 'b');
    await Promise.all([one.settle(), other.settle()]);
    expect(done).toEqual(['one a', 'other b', 'event of a']);
    one.stop();
    other.stop();
  });

  it('goes on past deferred work that fails, and keeps the failure', async () => {
    const manager = new ControllerManager(new Store(), new ManualClock());
    const done: string[] = [];
    manager.start();
    manager.defer(() => {
      throw new Error('the namespace is going');
    });
    manager.defer(() => done.push('next'));
    await manager.settle();
    expect(done).toEqual(['next']);
    expect(manager.lastError?.message).toBe('the namespace is going');
    manager.stop();
  });
});
