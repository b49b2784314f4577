import { describe, expect, it } from 'vitest';
import { cells, cut, cutStart, fit } from './text.js';

describe('fitting text to terminal cells', () => {
  it('counts wide characters as two cells and cuts and pads by cells, not by characters', () => {
    expect(cells('日本語')).toBe(6);
    expect(fit('日本語', 5)).toBe('日本…');
    expect(cells(fit('日本語', 5))).toBe(5);
    expect(cells(fit('ab', 5))).toBe(5);
    expect(cut('configmap-日本', 11)).toBe('configmap-…');
    expect(cutStart('apps/v1:Deployment:日本:web', 8)).toBe('…本:web');
    expect(cells(cutStart('apps/v1:Deployment:日本:web', 8))).toBeLessThanOrEqual(8);
  });

  it('keeps a grapheme whole: an emoji with its modifier is one piece', () => {
    expect(cut('👍🏽👍🏽👍🏽', 5)).toBe('👍🏽👍🏽…');
  });
});
