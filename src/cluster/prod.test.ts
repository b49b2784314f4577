import { describe, expect, it } from 'vitest';
import { isProdContext } from './prod.js';

describe('isProdContext', () => {
  it('takes prod or production as a word of the context or cluster name', () => {
    expect(['prod', 'eu-prod-1', 'production', 'gke_shop_prod', 'PROD'].map((name) => isProdContext({ name }))).toEqual(
      [true, true, true, true, true],
    );
    expect(isProdContext({ name: 'ctx-1', cluster: 'prod.example' })).toBe(true);
    expect(['product', 'preprod', 'sandbox-a', 'staging', 'reproduce'].map((name) => isProdContext({ name }))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
