/**
 * KCL runtime values.
 *
 * Scalars map onto JS primitives so the hot paths stay allocation-free: None is `null`, bool is
 * `boolean`, int is `bigint` (64-bit semantics are enforced by the operators), float is `number`,
 * str is `string`, list is a JS array. Dicts and schema instances are `DictValue` (an insertion-
 * ordered map, with the schema it instantiates when it is one). Undefined is a unique object. A
 * number written with a unit suffix (`100m`, `1Gi`) is a `UnitValue`, kcl's number_multiplier.
 */
import type * as A from '../ast.js';
import type { Env } from './env.js';
import type { SystemContext } from './system/common.js';

export const UNDEFINED = Object.freeze({ kind: 'undefined' as const });
export type UndefinedValue = typeof UNDEFINED;

export type Value =
  | null
  | UndefinedValue
  | boolean
  | bigint
  | number
  | string
  | Value[]
  | DictValue
  | UnitValue
  | FunctionValue
  | SchemaTypeValue
  | ModuleValue;

/** The operator an entry was written with; it decides how the entry merges into another config. */
export type EntryOp = A.ConfigOp;

export class DictValue {
  readonly kind = 'dict' as const;
  readonly entries: Map<string, Value>;
  /** Entry operators other than `:` (union), kept for later merges. */
  ops?: Map<string, EntryOp>;
  /** Set when this dict is an instance of a schema. */
  schema?: SchemaTypeValue;
  /** The arguments the instance was made with (`S(1) {...}`), to build it again after a change. */
  schemaArgs?: CallArgs;
  /** The config the instance was built from; a union rebuilds from it (see reinstantiate). */
  schemaConfig?: DictValue;
  /** Not yet validated: made inside another schema's body, or changed by a union (see schema.ts). */
  provisional?: boolean;
  /** The package whose code first made the instance: a rebuild elsewhere does not move it, and
   * `S.instances()` counts only the main package's (instances.ts). */
  madeIn?: string;
  /** Where a provisional instance was written: its check failures point there when the
   * outermost instance checks it later. */
  writtenAt?: { file: string; node: A.Loc };

  constructor(entries?: Iterable<[string, Value]>) {
    this.entries = new Map(entries);
  }

  get(key: string): Value | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: Value, op: EntryOp = ':'): void {
    this.entries.set(key, value);
    if (op !== ':') (this.ops ??= new Map()).set(key, op);
    else this.ops?.delete(key);
  }

  opOf(key: string): EntryOp {
    return this.ops?.get(key) ?? ':';
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Multipliers of the unit suffixes (kcl's units::u64_unit_value and f64_unit_value). */
const UNIT_FACTORS: Readonly<Record<string, bigint>> = {
  k: 1000n,
  K: 1000n,
  M: 1000n ** 2n,
  G: 1000n ** 3n,
  T: 1000n ** 4n,
  P: 1000n ** 5n,
  Ki: 1024n,
  Mi: 1024n ** 2n,
  Gi: 1024n ** 3n,
  Ti: 1024n ** 4n,
  Pi: 1024n ** 5n,
};
const FRACTION_FACTORS: Readonly<Record<string, number>> = { n: 1e-9, u: 1e-6, m: 1e-3 };

export const UNIT_SUFFIXES: readonly string[] = [...Object.keys(FRACTION_FACTORS), ...Object.keys(UNIT_FACTORS)];

/**
 * A number multiplier (`100m`, `4Gi`): kcl keeps the number as written with its suffix, which
 * `str()` and interpolation print (`"100m"`), and its real value, which the output carries (a
 * float) and `int()`/`float()` return. Operators do not take it, as in kcl.
 */
export class UnitValue {
  readonly kind = 'unit' as const;
  /** The real value: raw times the suffix's multiplier. */
  readonly value: number;

  constructor(
    readonly raw: bigint,
    readonly suffix: string,
  ) {
    this.value =
      suffix in FRACTION_FACTORS ? Number(raw) * FRACTION_FACTORS[suffix] : Number(raw * UNIT_FACTORS[suffix]);
  }

  /** The real value as an exact integer (fractional suffixes count as 1, as in kcl's int()). */
  get intValue(): bigint {
    return this.raw * (UNIT_FACTORS[this.suffix] ?? 1n);
  }

  get text(): string {
    return `${this.raw}${this.suffix}`;
  }
}

export interface CallArgs {
  args: Value[];
  kwargs: Map<string, Value>;
}

/** What the running program offers its builtins, system modules and plugins. */
export interface ProgramHost {
  /** Appends to the program's printed output (kcl prints before the YAML result). */
  print(text: string): void;
  /** `option(key)`: a `-D key=value` or settings file value, or undefined. */
  option(key: string): Value | undefined;
  /** Where the system modules read and write files, and where `manifests.yaml_stream` puts its output. */
  readonly system: SystemContext;
  /**
   * Called by a function whose result or effect depends on more than the program's files and
   * options: the clock, the file system, the environment, a plugin, the program's output. An
   * imported package whose evaluation calls one is evaluated again by every run instead of
   * being reused from the package cache (see package-cache.ts).
   */
  reachesOutside(): void;
}

/** What builtins may ask of the running program: the program's host, and running lambdas. */
export interface BuiltinHost extends ProgramHost {
  /**
   * Runs a lambda's body in the program calling it. That need not be the program that defined
   * it: an imported package is evaluated once and its lambdas are called by later runs.
   */
  runLambda(fn: LambdaValue, call: CallArgs): Value;
  /** `Schema.instances()`: the instances of the schema this run has made, in order. */
  /** `S.instances(full_pkg)`: those the main package made, or all with `fullPkg`. */
  instancesOf(schema: SchemaTypeValue, fullPkg?: boolean): readonly DictValue[];
}

export interface FunctionValue {
  readonly kind: 'function';
  readonly name: string;
  /** Declared parameter types, for lambdas (builtins such as reduce check them). */
  readonly paramTypes?: readonly (A.TypeNode | undefined)[];
  call(args: CallArgs, host: BuiltinHost): Value;
}

/** A lambda: its code and the scope it was written in, run by whichever program calls it. */
export interface LambdaValue extends FunctionValue {
  readonly node: A.LambdaExpr;
  readonly closure: Env;
}

/** A schema (or rule) type as a value: the evaluator owns its internals. */
export interface SchemaTypeValue {
  readonly kind: 'schemaType';
  readonly name: string;
  readonly pkgpath: string;
  readonly isRule: boolean;
}

/** An imported package or system module. */
export interface ModuleValue {
  readonly kind: 'module';
  readonly name: string;
  readonly members: Map<string, Value>;
}

// ---------------------------------------------------------------- classification

export const isUndefined = (v: Value | undefined): v is UndefinedValue => v === UNDEFINED;
export const isNoneOrUndefined = (v: Value | undefined): v is null | UndefinedValue => v === null || v === UNDEFINED;
export const isInt = (v: Value | undefined): v is bigint => typeof v === 'bigint';
export const isFloat = (v: Value | undefined): v is number => typeof v === 'number';
export const isNumber = (v: Value | undefined): v is bigint | number => typeof v === 'bigint' || typeof v === 'number';
export const isStr = (v: Value | undefined): v is string => typeof v === 'string';
export const isList = (v: Value | undefined): v is Value[] => Array.isArray(v);
export const isDict = (v: Value | undefined): v is DictValue => v instanceof DictValue;
export const isUnit = (v: Value | undefined): v is UnitValue => v instanceof UnitValue;
export const isSchemaInstance = (v: Value | undefined): v is DictValue =>
  v instanceof DictValue && v.schema !== undefined;
export const isFunction = (v: Value | undefined): v is FunctionValue =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && 'kind' in v && v.kind === 'function';
export const isSchemaType = (v: Value | undefined): v is SchemaTypeValue =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && 'kind' in v && v.kind === 'schemaType';
export const isLambda = (v: Value | undefined): v is LambdaValue => isFunction(v) && 'node' in v;
export const isModule = (v: Value | undefined): v is ModuleValue =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && 'kind' in v && v.kind === 'module';

/** The type name kcl reports for a value (`typeof`, error messages). */
export function typeName(v: Value): string {
  if (v === null) return 'NoneType';
  if (v === UNDEFINED) return 'UndefinedType';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    case 'number':
      return 'float';
    case 'string':
      return 'str';
  }
  if (Array.isArray(v)) return 'list';
  if (v instanceof DictValue) return v.schema ? v.schema.name : 'dict';
  if (v instanceof UnitValue) return `number_multiplier(${v.text})`;
  if (v.kind === 'function') return 'function';
  if (v.kind === 'schemaType') return v.name;
  return 'module';
}

export function truthy(v: Value): boolean {
  if (v === null || v === UNDEFINED) return false;
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'bigint':
      return v !== 0n;
    case 'number':
      return v !== 0;
    case 'string':
      return v.length > 0;
  }
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof DictValue) return v.size > 0;
  if (v instanceof UnitValue) return v.value !== 0;
  return true;
}

// ---------------------------------------------------------------- equality and order

export function equals(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (isNumber(a) && isNumber(b)) return typeof a === typeof b ? false : Number(a) === Number(b);
  if (typeof a === 'boolean' && isNumber(b)) return Number(a) === Number(b);
  if (typeof b === 'boolean' && isNumber(a)) return Number(a) === Number(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => equals(x, b[i]));
  }
  if (a instanceof UnitValue && b instanceof UnitValue) return a.raw === b.raw && a.suffix === b.suffix;
  if (a instanceof DictValue && b instanceof DictValue) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a.entries) {
      const w = b.entries.get(k);
      if (w === undefined || !equals(v, w)) return false;
    }
    return true;
  }
  return false;
}

// ---------------------------------------------------------------- text

/** Python's float repr, which kcl follows: `1.0`, `1e+20`, `1.5e-07`. */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return x.toFixed(1);
  const abs = Math.abs(x);
  if (abs >= 1e16 || abs < 1e-4) {
    const [mant, exp] = x.toExponential().split('e');
    const e = Number(exp);
    return `${mant}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  return String(x);
}

function quoteRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const c of s) {
    if (c === quote || c === '\\') out += '\\' + c;
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else out += c;
  }
  return out + quote;
}

/** `str(v)` for a value nested in a list or dict: strings quoted, the rest as `str`. */
export function repr(v: Value): string {
  return typeof v === 'string' ? quoteRepr(v) : toStr(v);
}

/** `str(v)` and string interpolation: Python-style text, which kcl follows. */
export function toStr(v: Value): string {
  if (v === null) return 'None';
  if (v === UNDEFINED) return 'Undefined';
  switch (typeof v) {
    case 'boolean':
      return v ? 'True' : 'False';
    case 'bigint':
      return v.toString();
    case 'number':
      return floatRepr(v);
    case 'string':
      return v;
  }
  if (Array.isArray(v)) return `[${v.map(repr).join(', ')}]`;
  if (v instanceof DictValue) {
    const parts: string[] = [];
    for (const [k, x] of v.entries) parts.push(`${quoteRepr(k)}: ${repr(x)}`);
    return `{${parts.join(', ')}}`;
  }
  if (v instanceof UnitValue) return v.text;
  if (v.kind === 'function') return `<function ${v.name}>`;
  if (v.kind === 'schemaType') return `<schema ${v.name}>`;
  return v.kind === 'module' ? `<module ${v.name}>` : 'Undefined';
}

// ---------------------------------------------------------------- copies

/** A deep copy of lists and dicts (schema instances keep their schema); scalars are shared. */
export function deepCopy(v: Value): Value {
  if (Array.isArray(v)) return v.map(deepCopy);
  if (v instanceof DictValue) {
    const d = new DictValue();
    for (const [k, x] of v.entries) d.entries.set(k, deepCopy(x));
    if (v.ops) d.ops = new Map(v.ops);
    d.schema = v.schema;
    d.schemaArgs = v.schemaArgs;
    d.provisional = v.provisional;
    d.schemaConfig = v.schemaConfig;
    d.madeIn = v.madeIn;
    d.writtenAt = v.writtenAt;
    return d;
  }
  return v;
}

export function dictOf(obj: Record<string, Value>): DictValue {
  return new DictValue(Object.entries(obj));
}
