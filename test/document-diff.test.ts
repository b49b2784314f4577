import { describe, expect, it } from 'vitest';
import { firstDifference, loadDocuments } from '../scripts/document-diff.js';

const compare = (golden: string, output: string) => firstDifference(loadDocuments(golden), loadDocuments(output));

describe('document streams compared as compile goldens are', () => {
  it('accepts equal streams, whatever the layout and quoting', () => {
    expect(
      compare('a: 1\nb: [x, "y"]\n---\nc: {d: 2}\n', "a: 1\nb:\n- x\n- 'y'\n---\nc:\n  d: 2\n---\n"),
    ).toBeUndefined();
  });

  it('names the path of the first differing value', () => {
    expect(
      compare('id: a\nattributes:\n  spec:\n    replicas: 1\n', 'id: a\nattributes:\n  spec:\n    replicas: 2\n'),
    ).toEqual({
      path: '[0].attributes.spec.replicas',
      message: 'expected 1 (int), got 2 (int)',
      keyOrderOnly: false,
    });
    expect(compare('labels:\n  app.kubernetes.io/name: web\n', 'labels: {}\n')?.path).toBe(
      '[0].labels["app.kubernetes.io/name"]',
    );
  });

  it('keeps ints and floats apart', () => {
    expect(compare('cpu: 1\n', 'cpu: 1.0\n')?.message).toBe('expected 1 (int), got 1.0 (float)');
  });

  it('counts key order, and says when it is the only difference', () => {
    expect(compare('a: 1\nb: 2\n', 'b: 2\na: 1\n')).toEqual({
      path: '[0]',
      message: 'key order: expected [a, b], got [b, a]',
      keyOrderOnly: true,
    });
  });

  it('reports missing and extra documents', () => {
    expect(compare('a: 1\n---\nb: 2\n', 'a: 1\n')).toMatchObject({
      path: '.',
      message: 'expected a list of 2 items, got a list of 1 items',
    });
  });
});
