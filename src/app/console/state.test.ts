import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Store } from './state.js';

describe('Store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells its listeners of an update at once', () => {
    const store = new Store(0);
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.get()));
    store.update((n) => n + 1);
    expect(seen).toEqual([1]);
  });

  it('tells of news of background work only once it has lasted, once for several', () => {
    const store = new Store(0);
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.get()));
    store.updateLater((n) => n + 1, 100);
    store.updateLater((n) => n + 1, 100);
    // the value is there for whoever reads it; nobody is told yet
    expect(store.get()).toBe(2);
    vi.advanceTimersByTime(99);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual([2]);
    vi.advanceTimersByTime(1_000);
    expect(seen).toEqual([2]);
  });

  it('tells news and result together when the result comes first, and the news not again', () => {
    const store = new Store({ busy: false, result: 0 });
    const seen: { busy: boolean; result: number }[] = [];
    store.subscribe(() => seen.push(store.get()));
    store.updateLater((s) => ({ ...s, busy: true }), 100);
    store.update(() => ({ busy: false, result: 7 }));
    expect(seen).toEqual([{ busy: false, result: 7 }]);
    vi.advanceTimersByTime(1_000);
    expect(seen).toHaveLength(1);
  });

  it('tells nothing for a change that changes nothing', () => {
    const store = new Store(1);
    const listener = vi.fn();
    store.subscribe(listener);
    store.updateLater((n) => n, 100);
    store.update((n) => n);
    vi.advanceTimersByTime(1_000);
    expect(listener).not.toHaveBeenCalled();
  });
});
