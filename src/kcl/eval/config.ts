/**
 * Config merging, the heart of KCL: entries written with `:` unify (dicts merge key by key, equal
 * scalars agree, different scalars conflict), `=` overrides, `+=` appends to a list.
 */
import { kclError } from '../../diagnostics/diagnostics.js';
import { DictValue, deepCopy, equals, isDict, isList, repr, UNDEFINED, type EntryOp, type Value } from './values.js';

export interface UnionOptions {
  /** The `|` operator and schema defaults: a different scalar replaces instead of conflicting. */
  override?: boolean;
}

function conflict(key: string | undefined, a: Value, b: Value): never {
  const where = key === undefined ? '' : ` on the attribute '${key}'`;
  throw kclError('EvaluationError', `conflicting values${where} between ${repr(b)} and ${repr(a)}`);
}

/** Unifies two values into a new one; `a` and `b` are left untouched. */
export function union(a: Value, b: Value, options: UnionOptions = {}, key?: string): Value {
  if (b === UNDEFINED) return a;
  if (a === UNDEFINED || a === null) return deepCopy(b);
  if (isDict(a) && isDict(b)) {
    const out = deepCopy(a) as DictValue;
    for (const [k, v] of b.entries) mergeEntry(out, k, v, b.opOf(k), options);
    if (a.schema) {
      // The values read right, but attributes derived from others may be stale, so the
      // instance is rebuilt before it is used as a finished value: from the merged configs
      // when a config is merged in, from the merged values (the right one's derived values
      // winning) when two instances are, as kcl does.
      out.schemaConfig = b.schema ? plainCopy(out) : (union(configOf(a), configOf(b), options) as DictValue);
      out.provisional = true;
    }
    return out;
  }
  if (isList(a) && isList(b)) {
    const out: Value[] = [];
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      if (i >= a.length) out.push(deepCopy(b[i]));
      else if (i >= b.length) out.push(deepCopy(a[i]));
      else out.push(union(a[i], b[i], options));
    }
    return out;
  }
  if (options.override || equals(a, b) || b === null) return b === null && !options.override ? a : deepCopy(b);
  return conflict(key, a, b);
}

/** A dict's entries and their operators, without the schema it may be an instance of. */
function plainCopy(d: DictValue): DictValue {
  const plain = new DictValue(d.entries);
  plain.ops = d.ops;
  return plain;
}

/** What a dict contributes to a schema's config: an instance the config it was built from
 * (not its derived values), a plain dict itself. */
export function configOf(d: DictValue): DictValue {
  return d.schemaConfig ?? plainCopy(d);
}

/** Writes one entry into a config under construction, combining it with what is there. */
export function mergeEntry(
  target: DictValue,
  key: string,
  value: Value,
  op: EntryOp,
  options: UnionOptions = {},
): void {
  const existing = target.get(key);
  if (existing === undefined) {
    target.set(key, value, op);
    return;
  }
  switch (op) {
    case '=':
      target.set(key, value, '=');
      return;
    case '+=':
      target.set(key, append(key, existing, value), target.opOf(key));
      return;
    case ':':
      target.set(key, union(existing, value, options, key), target.opOf(key));
  }
}

function append(key: string, existing: Value, value: Value): Value {
  if (existing === null || existing === UNDEFINED) return value;
  if (isList(existing) && isList(value)) return [...existing, ...value];
  throw kclError('TypeError', `can only concatenate list to the attribute '${key}', got ${repr(value)}`);
}
