/**
 * Randomness with a seed, so a cluster started with the same seed names its pods and injects its
 * rate-based faults the same way every run.
 */

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** A float in [0, 1) (mulberry32). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** The 5 characters the API server appends to a generateName (no vowels, no look-alikes). */
  suffix(length = 5): string {
    let s = '';
    for (let i = 0; i < length; i++) s += NAME_ALPHABET[Math.floor(this.next() * NAME_ALPHABET.length)];
    return s;
  }
}

export const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
