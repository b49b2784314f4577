import { describe, expect, it } from 'vitest';
import { cells, columnWidths, cut, cutMiddle, cutStart, fit, fitAs, wrapWords } from './text.js';

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

describe('shortening names and laying out rows', () => {
  it('cuts a name in the middle, keeping what it is and which one', () => {
    expect(cutMiddle('guestbook/redis-leader', 12)).toBe('guestb…eader');
    expect(cells(cutMiddle('guestbook/redis-leader', 12))).toBe(12);
    expect(cutMiddle('apps/v1:Deployment:guestbook:frontend', 20)).toMatch(/^apps\/v1:De.*frontend$/);
    expect(cutMiddle('日本語のなまえ', 7)).toBe('日本…え');
    expect(fitAs('guestbook/redis-leader', 14, 'middle')).toBe('guestbo…leader');
  });

  it('gives columns exactly the row: spare room by weight, and the widest give way when it is short', () => {
    const cols = [{ min: 2 }, { min: 11 }, { min: 8, grow: 2 }, { min: 10 }, { min: 13 }, { min: 7, grow: 1 }];
    for (const total of [40, 56, 76, 126]) {
      const widths = columnWidths(total, cols);
      expect(widths.reduce((a, b) => a + b, 0)).toBe(total);
    }
    expect(columnWidths(76, cols)).toEqual([2, 11, 25, 10, 13, 15]);
    expect(columnWidths(5, [{ min: 4 }, { min: 4 }])).toEqual([2, 3]);
    expect(columnWidths(30, [{ min: 4, max: 6, grow: 1 }, { min: 4 }])).toEqual([6, 4]);
  });

  it('wraps text after spaces, and inside a word only when a word is longer than the line', () => {
    expect(wrapWords('Update apps/v1:Deployment:guestbook:frontend on sandbox-a', 50)).toEqual([
      'Update apps/v1:Deployment:guestbook:frontend on',
      'sandbox-a',
    ]);
    expect(wrapWords('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
  });
});

describe('wrapWords', () => {
  it('breaks at spaces, and inside a word only when the word is longer than a row', () => {
    expect(wrapWords('kubectl --context sandbox-a logs -f pod/web-1', 20)).toEqual([
      'kubectl --context',
      'sandbox-a logs -f',
      'pod/web-1',
    ]);
    expect(wrapWords('a abcdefghijkl', 5)).toEqual(['a', 'abcde', 'fghij', 'kl']);
  });
});
