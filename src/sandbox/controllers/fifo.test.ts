import { describe, expect, it } from 'vitest';
import { Fifo } from './fifo.js';

describe('Fifo', () => {
  it('gives items back in the order they came, across the trims of what it has passed', () => {
    const q = new Fifo<number>();
    const taken: number[] = [];
    let next = 0;
    // bursts larger than the trim threshold, taken in part, then drained
    for (let burst = 0; burst < 5; burst++) {
      for (let i = 0; i < 3000; i++) q.push(next++);
      for (let i = 0; i < 2000; i++) taken.push(q.shift()!);
    }
    while (q.length > 0) taken.push(q.shift()!);
    expect(taken).toEqual(Array.from({ length: next }, (_, i) => i));
    expect(q.shift()).toBeUndefined();
  });

  it('is empty after clear', () => {
    const q = new Fifo<string>();
    q.push('a');
    q.clear();
    expect(q.length).toBe(0);
    expect(q.shift()).toBeUndefined();
  });
});
