/**
 * Structural comparison of YAML document streams, as compile goldens are checked: documents in
 * order, mapping keys in order, ints and floats kept apart. It reports the first difference with
 * the path that leads to it, so a failing golden says where to look.
 */
import { isScalar, parseAllDocuments } from 'yaml';

/** A YAML stream as ordered data: mappings as Maps (insertion order is key order), ints as bigint. */
export function loadDocuments(text: string): unknown[] {
  const docs = parseAllDocuments(text, { intAsBigInt: true });
  // parseAllDocuments returns an EmptyStream (not an array) for empty input
  if (!Array.isArray(docs)) return [];
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new Error(`invalid YAML: ${doc.errors[0].message}`);
  }
  // a stream that ends with `---` has an empty last document; no compiler output is one
  return docs
    .filter((doc) => !(isScalar(doc.contents) && doc.contents.source === ''))
    .map((doc) => doc.toJS({ mapAsMap: true }) as unknown);
}

export interface Difference {
  /** Where the documents part: `[2].attributes.spec.replicas`. */
  path: string;
  message: string;
  /** True when the two streams would be equal if key order did not count. */
  keyOrderOnly: boolean;
}

const SIMPLE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

function child(path: string, key: unknown): string {
  if (typeof key === 'string' && SIMPLE_KEY.test(key)) return `${path}.${key}`;
  return `${path}[${JSON.stringify(typeof key === 'bigint' ? Number(key) : key)}]`;
}

function show(v: unknown): string {
  if (v instanceof Map) return `a mapping of ${v.size} keys`;
  if (Array.isArray(v)) return `a list of ${v.length} items`;
  if (typeof v === 'bigint') return `${v} (int)`;
  if (typeof v === 'number') return `${Number.isInteger(v) ? v.toFixed(1) : v} (float)`;
  return JSON.stringify(v) ?? String(v);
}

function keyList(m: Map<unknown, unknown>): string {
  return `[${[...m.keys()].map(String).join(', ')}]`;
}

/** The first place where `actual` departs from `expected`; `ordered` says whether key order counts. */
function diff(
  expected: unknown,
  actual: unknown,
  path: string,
  ordered: boolean,
): Omit<Difference, 'keyOrderOnly'> | undefined {
  if (expected instanceof Map && actual instanceof Map) {
    const missing = [...expected.keys()].find((k) => !actual.has(k));
    if (missing !== undefined) return { path: child(path, missing), message: 'missing' };
    const extra = [...actual.keys()].find((k) => !expected.has(k));
    if (extra !== undefined) return { path: child(path, extra), message: `unexpected, = ${show(actual.get(extra))}` };
    // values first: a wrong value matters more than the order it is printed in
    for (const [k, v] of expected) {
      const d = diff(v, actual.get(k), child(path, k), ordered);
      if (d) return d;
    }
    const sameOrder = [...expected.keys()].every((k, i) => [...actual.keys()][i] === k);
    if (ordered && !sameOrder)
      return { path: path || '.', message: `key order: expected ${keyList(expected)}, got ${keyList(actual)}` };
    return undefined;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (let i = 0; i < Math.min(expected.length, actual.length); i++) {
      const d = diff(expected[i], actual[i], `${path}[${i}]`, ordered);
      if (d) return d;
    }
    if (expected.length !== actual.length) {
      return { path: path || '.', message: `expected ${show(expected)}, got ${show(actual)}` };
    }
    return undefined;
  }
  if (typeof expected === 'number' && typeof actual === 'number' && Number.isNaN(expected) && Number.isNaN(actual))
    return undefined;
  if (expected === actual) return undefined;
  return { path: path || '.', message: `expected ${show(expected)}, got ${show(actual)}` };
}

/** The first difference between two document streams, or undefined when they are equal. */
export function firstDifference(expected: unknown[], actual: unknown[]): Difference | undefined {
  const d = diff(expected, actual, '', true);
  if (!d) return undefined;
  return { ...d, keyOrderOnly: diff(expected, actual, '', false) === undefined };
}
