import { describe, expect, it } from 'vitest';
import { goYamlKeyLess, withGoKeyOrder } from '../scripts/go-yaml-order.js';

const sorted = (keys: string[]) => [
  ...(withGoKeyOrder(new Map(keys.map((k) => [k, 1]))) as Map<string, number>).keys(),
];

describe("Go's YAML key order (kusion v0.8 spec goldens)", () => {
  it('sorts letters by code point and puts a non-letter first', () => {
    expect(sorted(['name', 'app.kubernetes.io/name', 'app', 'Kind', 'app-x'])).toEqual([
      'Kind',
      'app',
      'app-x',
      'app.kubernetes.io/name',
      'name',
    ]);
  });

  it('compares runs of digits as numbers', () => {
    expect(sorted(['a10', 'a2', 'a1'])).toEqual(['a1', 'a2', 'a10']);
    expect(goYamlKeyLess('v1beta1', 'v10')).toBe(true);
  });

  it('orders the mappings inside lists too, and keeps list order', () => {
    const doc = new Map<string, unknown>([
      [
        'items',
        [
          new Map([
            ['z', 1],
            ['a', 2],
          ]),
          3,
        ],
      ],
    ]);
    expect(withGoKeyOrder(doc)).toEqual(
      new Map([
        [
          'items',
          [
            new Map([
              ['a', 2],
              ['z', 1],
            ]),
            3,
          ],
        ],
      ]),
    );
  });
});
