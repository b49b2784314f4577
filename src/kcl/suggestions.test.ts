import { describe, expect, it } from 'vitest';
import { didYouMean, didYouMeanAny, jaroWinkler, suggestions } from './suggestions.js';

describe('did you mean', () => {
  it('measures similarity as strsim 0.10 does, which decides what kcl offers', () => {
    // the values strsim 0.10 documents for its own functions, within the 0.001 it allows (0.11
    // gives 0.866 for the first: it caps the prefix it boosts at four characters)
    expect(Math.abs(jaroWinkler('cheeseburger', 'cheese fries') - 0.911)).toBeLessThan(0.001);
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
    expect(didYouMeanAny('_naem', ['_name', 'age'])).toBe(", did you mean '_name'?");
    expect(didYouMeanAny('zzz', ['_name'])).toBe('');
  });

  it('counts transpositions as strsim 0.10 does: a name with a typo before it is still offered', () => {
    // kcl offers Other for ErrOther (0.808); counted as strsim 0.11 counts them, 0.742 offers nothing
    expect(didYouMean('ErrOther', ['Other', 'Base'])).toBe(`, did you mean '["Other"]'?`);
    // the `suggestions` crate's own examples, and kcl's joining of a keyword argument's candidates
    expect(suggestions('teso', ['testing', 'tempo'])).toEqual(['testing', 'tempo']);
    expect(didYouMeanAny('teso', ['testing', 'tempo'])).toBe(", did you mean 'testing or tempo'?");
  });
});
