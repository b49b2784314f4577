import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { wrapCells } from './wrap.js';

describe('wrapCells', () => {
  it('breaks text into rows of at most the width, keeping every character', () => {
    const rows = wrapCells('abcdefghij', 4);
    expect(rows).toEqual(['abcd', 'efgh', 'ij']);
  });

  it('counts wide characters as two cells and never splits one', () => {
    const rows = wrapCells('ab日本語cd', 5);
    expect(rows.join('')).toBe('ab日本語cd');
    for (const r of rows) expect(stringWidth(r)).toBeLessThanOrEqual(5);
  });
});
