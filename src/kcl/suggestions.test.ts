import { describe, expect, it } from 'vitest';
import { didYouMean, didYouMeanOne, jaroWinkler, suggestions } from './suggestions.js';

describe('did you mean', () => {
  it('measures similarity as strsim does, which decides what kcl offers', () => {
    // the values strsim documents for its own functions, within the 0.001 its documentation allows
    expect(Math.abs(jaroWinkler('cheeseburger', 'cheese fries') - 0.866)).toBeLessThan(0.001);
    expect(Math.abs(jaroWinkler('Friedrich Nietzsche', 'Jean-Paul Sartre') - 0.392)).toBeLessThan(0.001);
    expect(jaroWinkler('', '')).toBe(1);
    expect(jaroWinkler('a', '')).toBe(0);
    expect(jaroWinkler('name', 'name')).toBe(1);
  });

  it('offers the close names, least similar first, in kcl’s words', () => {
    expect(suggestions('key4', ['key1', 'key2', 'key3', 'other'])).toEqual(['key1', 'key2', 'key3']);
    expect(didYouMean('frist', ['first', 'last', 'age'])).toBe(`, did you mean '["first"]'?`);
    expect(didYouMean('in', ['print', 'int', 'len'])).toBe(`, did you mean '["int"]'?`);
    expect(didYouMean('err', ['name', 'age'])).toBe('');
    expect(didYouMeanOne('_naem', ['_name', 'age'])).toBe(", did you mean '_name'?");
    expect(didYouMeanOne('zzz', ['_name'])).toBe('');
  });
});
