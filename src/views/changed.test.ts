import { describe, expect, it } from 'vitest';
import { changedAgainst, changedIn, windowed, wrapped, type Piece } from './changed.js';
import { cells } from './text.js';

const OLD = 'docker.io/nginxinc/nginx-unprivileged:1.25';
const NEW = 'docker.io/nginxinc/nginx-unprivileged:1.27';
const text = (pieces: Piece[]) => pieces.map((p) => p.text).join('');
const changed = (pieces: Piece[]) => pieces.filter((p) => p.changed).map((p) => p.text);

describe('the changed part of a value', () => {
  it('is the word that differs, not only the characters', () => {
    expect(changedIn(OLD, NEW)).toEqual({ from: 38, to: 42 });
    expect(changedIn('replicas=3', 'replicas=5')).toEqual({ from: 9, to: 10 });
    expect(changedIn('same', 'same')).toBeUndefined();
    expect(changedIn('app=web tier=front', 'app=api tier=front')).toEqual({ from: 4, to: 7 });
    // a removal marks the word it was taken from
    expect(changedIn('a:bc d', 'a:bxc d')).toEqual({ from: 2, to: 4 });
    expect(changedAgainst('a:1 b:2', ['a:9 b:2', 'a:1 b:7'])).toEqual({ from: 2, to: 7 });
  });

  it('stays in sight in a narrow cell, with … where the value is cut', () => {
    for (const width of [8, 12, 20, 30]) {
      const before = windowed(OLD, width, changedIn(OLD, NEW));
      const after = windowed(NEW, width, changedIn(NEW, OLD));
      expect(changed(before)).toEqual(['1.25']);
      expect(changed(after)).toEqual(['1.27']);
      expect(cells(text(after))).toBeLessThanOrEqual(width);
      expect(text(after).startsWith('…')).toBe(true);
    }
    expect(text(windowed(NEW, 20, changedIn(NEW, OLD)))).toBe('…x-unprivileged:1.27');
  });

  it('shows a value that fits whole, and from the scrolled place when scrolled sideways', () => {
    expect(text(windowed('redis:7.2', 20, changedIn('redis:7.2', 'redis:7.4')))).toBe('redis:7.2');
    expect(text(windowed(NEW, 12, undefined, 10))).toBe('…nginxinc/n…');
    expect(text(windowed(NEW, 12))).toBe('docker.io/n…');
  });
});

describe('a value wrapped over lines', () => {
  it('keeps every character and marks the change on the line it falls on', () => {
    const lines = wrapped(NEW, 12, changedIn(NEW, OLD));
    expect(lines.map(text)).toEqual(['docker.io/ng', 'inxinc/nginx', '-unprivilege', 'd:1.27']);
    expect(lines.flatMap(changed)).toEqual(['1.27']);
    expect(wrapped('', 5).map(text)).toEqual(['']);
  });
});
