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

/**
 * `next` with every part deep-equal to the same part of `old` replaced by old's own (and `old`
 * itself when they are equal throughout). Stored objects are never changed, so sharing is safe;
 * a controller's status write rebuilds its status whole, and with the parts that did not change
 * shared, the comparisons and field diffs of the write skip them at a glance.
 */
export function shareUnchanged<T>(next: T, old: unknown): T {
  if (next === old) return next;
  if (Array.isArray(next)) {
    if (!Array.isArray(old)) return next;
    let same = next.length === old.length;
    const out = next.map((x: unknown, i) => {
      const shared = i < old.length ? shareUnchanged(x, old[i]) : x;
      if (shared !== old[i]) same = false;
      return shared;
    });
    return (same ? old : out) as T;
  }
  if (!isMap(next) || !isMap(old)) return next;
  let same = true;
  let kept = 0;
  const out: JsonMap = {};
  for (const k in next) {
    const v = next[k];
    if (v === undefined) continue;
    const shared = shareUnchanged(v, old[k]);
    out[k] = shared;
    if (shared !== old[k]) same = false;
    else kept++;
  }
  if (!same) return out as T;
  // every key of `next` holds old's value: the same only if old has no other
  let oldKeys = 0;
  for (const k in old) if (old[k] !== undefined) oldKeys++;
  return (oldKeys === kept ? old : out) as T;
}

/**
 * `{ ...base, ...fields }`, copied key by key. In Node 20's V8 an object made by spreading
 * another takes a key its source lacks on a slow path (about 3 µs, against 0.3 µs for this
 * copy), and the controllers set status fields an object may not have yet at every write.
 */
export function withFields<T extends object>(base: T | undefined, fields: Partial<T>): T {
  const out = {} as T;
  for (const k in base) out[k] = base[k];
  for (const k in fields) (out as Partial<T>)[k] = fields[k];
  return out;
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
