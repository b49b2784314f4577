/**
 * JSON values as the sandbox handles them: objects decoded from requests, stored, patched and
 * encoded again. Everything here is pure.
 */

export type JsonMap = Record<string, unknown>;

export function isMap(v: unknown): v is JsonMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A deep copy of a JSON value (stored objects are never mutated, so writers copy first). */
export function clone<T>(v: T): T {
  if (Array.isArray(v)) return v.map(clone) as T;
  if (isMap(v)) {
    const out: JsonMap = {};
    for (const k in v) if (v[k] !== undefined) out[k] = clone(v[k]);
    return out as T;
  }
  return v;
}

/**
 * Sets `key` to `value`, or removes it when `value` is undefined. Not set to undefined first and
 * deleted after: V8 turns a map that loses a property it has just been given into a slow
 * dictionary, and a stored object is read by every write, watch event and list after.
 */
export function assignOrRemove<T extends object, K extends keyof T>(map: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) map[key] = value;
  else if (key in map) delete map[key];
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  return isMap(a) && isMap(b) && deepEqualExcept(a, b, NO_KEYS);
}

const NO_KEYS: ReadonlySet<string> = new Set();

/** Whether two maps are deep-equal in every key but the `ignored` ones. */
export function deepEqualExcept(a: JsonMap, b: JsonMap, ignored: ReadonlySet<string>): boolean {
  // counted rather than listed: this runs on every write, and allocates nothing
  let na = 0;
  for (const k in a) {
    if (a[k] === undefined || ignored.has(k)) continue;
    na++;
    if (!deepEqual(a[k], b[k])) return false;
  }
  let nb = 0;
  for (const k in b) if (b[k] !== undefined && !ignored.has(k)) nb++;
  return na === nb;
}

/** The value at a dotted path of map keys, or undefined. */
export function getPath(v: unknown, path: readonly string[]): unknown {
  let cur = v;
  for (const k of path) {
    if (!isMap(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** The map at `path`, created (as empty maps) where missing. */
export function ensureMap(v: JsonMap, path: readonly string[]): JsonMap {
  let cur = v;
  for (const k of path) {
    const next = cur[k];
    if (isMap(next)) cur = next;
    else {
      const made: JsonMap = {};
      cur[k] = made;
      cur = made;
    }
  }
  return cur;
}

/** JSON text with keys sorted, so equal values give equal text (for hashing templates). */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (isMap(v)) {
    const keys = Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** A copy without the named fields that are 0, as the API omits empty counters (`omitempty`). */
export function omitZeros<T extends object>(v: T, keys: readonly (keyof T)[]): T {
  const out = { ...v };
  for (const k of keys) if (out[k] === 0) delete out[k];
  return out;
}

/**
 * The value with every null dropped from its maps, as the API server's typed decoding leaves a
 * null field unset (Go writes `creationTimestamp: null` into templates it sends back).
 */
export function dropNulls<T>(v: T): T {
  if (Array.isArray(v)) return v.map(dropNulls) as T;
  if (!isMap(v)) return v;
  const out: JsonMap = {};
  for (const k in v) if (v[k] !== null && v[k] !== undefined) out[k] = dropNulls(v[k]);
  return out as T;
}
