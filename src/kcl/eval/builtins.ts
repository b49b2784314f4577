/**
 * KCL's builtin functions (crates/runtime/src/stdlib/builtin*.rs in kcl). `option` is not here:
 * it needs the evaluator's command line state, so the evaluator defines it.
 *
 * Where kcl's runtime silently returns Undefined for an argument of the wrong type (abs("x"),
 * hex(1.5), range(1.5)) these functions raise a TypeError instead, as kcl's resolver would have
 * rejected such a call before it ran.
 */
import { checkListSize } from './allocation.js';
import type { TypeNode } from '../ast.js';
import { typeText } from './types.js';
import { kclError } from '../../diagnostics/diagnostics.js';
import {
  argAt,
  defineFunction,
  expectInt,
  expectList,
  iterate,
  optionalArg,
  requiredArg,
  type Impl,
  type Signature,
} from './args.js';
import { binary, checkInt, order } from './operators.js';
import {
  DictValue,
  equals,
  isDict,
  isFloat,
  isFunction,
  isInt,
  isList,
  isNoneOrUndefined,
  isSchemaInstance,
  isSchemaType,
  isStr,
  isUnit,
  toStr,
  truthy,
  typeName,
  type BuiltinHost,
  type CallArgs,
  type FunctionValue,
  type Value,
} from './values.js';

function evalError(message: string): never {
  throw kclError('EvaluationError', message);
}

function overflow(value: string): never {
  throw kclError('IntOverflow', `${value}: A 64 bit integer overflow`);
}

// ---------------------------------------------------------------- output and inspection

/** kcl's print takes only `end`; `sep` is accepted too, with Python's meaning. */
function print(call: CallArgs, host: BuiltinHost): Value {
  const sep = call.kwargs.get('sep');
  const end = call.kwargs.get('end');
  const text = call.args.map(toStr).join(sep === undefined ? ' ' : toStr(sep));
  host.print(text + (end === undefined ? '\n' : toStr(end)));
  return null;
}

/** kcl measures a str in UTF-8 bytes (Rust's str::len), not in characters. */
function len(call: CallArgs): Value {
  const v = requiredArg(call, 0, 'inval');
  if (isStr(v)) return BigInt(Buffer.byteLength(v, 'utf8'));
  if (isList(v)) return BigInt(v.length);
  if (isDict(v)) return BigInt(v.size);
  throw kclError('TypeError', `object of type '${typeName(v)}' has no len()`);
}

const MAIN_PKG = '__main__';

function typeOf(call: CallArgs): Value {
  const x = requiredArg(call, 0, 'x');
  if (x === null) return 'None';
  if (isSchemaInstance(x) && x.schema && truthy(argAt(call, 1, 'full_name') ?? false)) {
    const pkg = x.schema.pkgpath.replace(/^@/, '');
    return pkg === '' || pkg === MAIN_PKG ? x.schema.name : `${pkg}.${x.schema.name}`;
  }
  // a schema used as a value is a type object in kcl, not a schema instance
  if (isSchemaType(x)) return 'type';
  return typeName(x);
}

// ---------------------------------------------------------------- conversions

function toBool(call: CallArgs): Value {
  const x = argAt(call, 0, 'x');
  if (x === undefined) evalError('bool() takes exactly one argument (0 given)');
  return truthy(x);
}

function toString(call: CallArgs): Value {
  const x = argAt(call, 0, 'x');
  return x === undefined ? '' : toStr(x);
}

function floatToInt(x: number): bigint {
  if (Number.isNaN(x)) evalError('cannot convert float NaN to integer');
  if (!Number.isFinite(x)) evalError('cannot convert float infinity to integer');
  const n = BigInt(Math.trunc(x));
  return checkInt(n);
}

function invalidIntLiteral(s: string, base: number): never {
  return evalError(`invalid literal for int() with base ${base}: '${s}'`);
}

/** Quantity suffixes int() accepts on decimal strings: SI powers of 1000, or of 1024 with `i`. */
const UNIT_EXPONENTS: ReadonlyMap<string, number> = new Map([
  ['n', -3],
  ['u', -2],
  ['m', -1],
  ['k', 1],
  ['K', 1],
  ['M', 2],
  ['G', 3],
  ['T', 4],
  ['P', 5],
]);

function splitQuantity(s: string): { digits: string; unit: string } {
  if (s.length >= 2 && s.endsWith('i') && UNIT_EXPONENTS.has(s[s.length - 2])) {
    return { digits: s.slice(0, -2), unit: s.slice(-2) };
  }
  if (s.length >= 1 && UNIT_EXPONENTS.has(s[s.length - 1])) return { digits: s.slice(0, -1), unit: s.slice(-1) };
  return { digits: s, unit: '' };
}

/** `int("10")`, `int("1Ki")` (1024), `int("2k")` (2000): kcl's to_quantity. */
function parseQuantity(s: string): bigint {
  const { digits, unit } = splitQuantity(s);
  if (digits === '') evalError("number can't be empty");
  if (!/^[+-]?\d+$/.test(digits)) invalidIntLiteral(s, 10);
  const n = BigInt(digits);
  if (unit === '') return checkInt(n);
  // fractional units (n, u, m) cannot make an int; kcl fails on them too
  const exponent = UNIT_EXPONENTS.get(unit[0]) ?? 0;
  if (exponent < 0) invalidIntLiteral(s, 10);
  const base = unit.endsWith('i') ? 1024n : 1000n;
  return checkInt(n * base ** BigInt(exponent));
}

function digitValue(c: string): number {
  const code = c.toLowerCase().charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 122) return code - 87;
  return Infinity;
}

/** A non-decimal int string; kcl strips a 0x/0o/0b prefix whatever the base is. */
function parseRadix(s: string, base: number): bigint {
  if (base < 2 || base > 36) evalError('int() base must be >= 2 and <= 36');
  const negative = s.startsWith('-');
  let body = negative ? s.slice(1) : s;
  body = body.replace(/^0[xXoObB]/, '');
  if (!negative && body.startsWith('+')) body = body.slice(1);
  if (body === '' || [...body].some((c) => digitValue(c) >= base)) invalidIntLiteral(s, base);
  let n = 0n;
  for (const c of body) n = n * BigInt(base) + BigInt(digitValue(c));
  return checkInt(negative ? -n : n);
}

function toInt(call: CallArgs): Value {
  const x = requiredArg(call, 0, 'number');
  if (isInt(x)) return x;
  if (typeof x === 'boolean') return x ? 1n : 0n;
  if (isFloat(x)) return floatToInt(x);
  if (isUnit(x)) {
    // kcl checks the exact product for overflow, then truncates the real value (int(1500m) is 1)
    checkInt(x.intValue);
    return floatToInt(x.value);
  }
  if (!isStr(x)) throw kclError('TypeError', `int() argument must be a string or a number, not '${typeName(x)}'`);
  const baseArg = optionalArg(call, 1, 'base');
  const base = baseArg === undefined ? 10 : Number(expectInt(baseArg, 'int', 'base'));
  return base === 10 ? parseQuantity(x) : parseRadix(x, base);
}

/** Rust's f64 grammar: no surrounding spaces or underscores, but `inf`, `nan`, `1.` and `.5`. */
const FLOAT_LITERAL = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity|nan)$/i;

function checkFloat(x: number): number {
  if (!Number.isNaN(x) && !Number.isFinite(x)) {
    throw kclError('FloatOverflow', 'inf: A 64-bit floating point number overflow');
  }
  return x;
}

function parseFloatLiteral(s: string): number {
  if (!FLOAT_LITERAL.test(s)) evalError(`invalid literal for float() with base 10: '${s}'`);
  const word = s.replace(/^[+-]/, '').toLowerCase();
  if (word === 'nan') return NaN;
  if (word.startsWith('inf')) return s.startsWith('-') ? -Infinity : Infinity;
  return Number(s);
}

function toFloat(call: CallArgs): Value {
  const x = requiredArg(call, 0, 'number');
  if (isFloat(x)) return checkFloat(x);
  if (isInt(x)) return Number(x);
  if (isUnit(x)) return x.value;
  if (typeof x === 'boolean') return x ? 1 : 0;
  if (isStr(x)) return checkFloat(parseFloatLiteral(x));
  return evalError(`invalid literal for float() with base 10: '${toStr(x)}'`);
}

function toList(call: CallArgs): Value {
  const x = argAt(call, 0, 'x');
  return x === undefined ? [] : [...iterate(x)];
}

/** Entries from a dict, or from an iterable of key/value pairs; keyword arguments come last. */
function toDict(call: CallArgs): Value {
  const out = new DictValue();
  const x = argAt(call, 0, 'x');
  if (x !== undefined && isDict(x)) {
    for (const [k, v] of x.entries) out.set(k, v);
  } else if (x !== undefined) {
    iterate(x).forEach((item, i) => {
      const pair = iterate(item);
      if (pair.length !== 2) {
        evalError(`dictionary update sequence element #${i} has length ${pair.length}; 2 is required`);
      }
      out.set(toStr(pair[0]), pair[1]);
    });
  }
  for (const [k, v] of call.kwargs) out.set(k, v);
  return out;
}

// ---------------------------------------------------------------- sequences

function range(call: CallArgs): Value {
  const a = optionalArg(call, 0, 'start');
  const b = optionalArg(call, 1, 'stop');
  const c = optionalArg(call, 2, 'step');
  if (a === undefined) return evalError('range expected at least 1 argument, got 0');
  const first = expectInt(a, 'range', 'start');
  const [start, stop] = b === undefined ? [0n, first] : [first, expectInt(b, 'range', 'stop')];
  const step = c === undefined ? 1n : expectInt(c, 'range', 'step');
  if (step === 0n) evalError('range() step argument must not be zero');
  const span = step > 0n ? stop - start : start - stop;
  const abs = step > 0n ? step : -step;
  if (span > 0n)
    checkListSize((span + abs - 1n) / abs, `range(${[a, b, c].filter((x) => x !== undefined).join(', ')})`);
  const out: Value[] = [];
  for (let i = start; step > 0n ? i < stop : i > stop; i += step) out.push(i);
  return out;
}

/** Compares by code point, as Rust compares UTF-8 bytes (JS `<` compares UTF-16 units). */
function compareStr(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i].codePointAt(0) ?? 0) - (y[i].codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** The order sorted() uses: numbers with numbers and strs with strs, nothing else (not even bools). */
function sortOrder(a: Value, b: Value): number {
  if ((isInt(a) || isFloat(a)) && (isInt(b) || isFloat(b))) {
    if (isInt(a) && isInt(b)) return a < b ? -1 : a > b ? 1 : 0;
    const [x, y] = [Number(a), Number(b)];
    if (x < y) return -1;
    if (x > y) return 1;
    if (x === y) return 0;
  } else if (isStr(a) && isStr(b)) {
    return compareStr(a, b);
  }
  return evalError(`cannot compare ${typeName(a)} and ${typeName(b)}`);
}

function sorted(call: CallArgs): Value {
  const inval = requiredArg(call, 0, 'inval');
  if (!isStr(inval) && !isList(inval) && !isDict(inval)) evalError('sorted only for str|list|dict type');
  const reverse = truthy(argAt(call, 1, 'reverse') ?? false);
  // Array#sort is stable, so equal items keep their order in both directions, as in kcl
  return [...iterate(inval)].sort(reverse ? (a, b) => sortOrder(b, a) : sortOrder);
}

/** max() and min(): over the arguments when there are several, else over the one iterable. */
function extreme(fn: 'max' | 'min'): Impl {
  const better =
    fn === 'max'
      ? (x: Value, best: Value) => order(x, best, '>') > 0
      : (x: Value, best: Value) => order(x, best, '<') < 0;
  return (call) => {
    if (call.args.length === 0) evalError(`${fn}() takes exactly one argument (0 given)`);
    let items = call.args;
    if (items.length === 1) {
      const only = items[0];
      if (!isStr(only) && !isList(only) && !isDict(only)) evalError(`${typeName(only)} object is not iterable`);
      items = iterate(only);
      if (items.length === 0) evalError(`arg is an empty ${isDict(only) ? 'dict' : typeName(only)}`);
    }
    // the first of equal items wins, as in kcl
    return items.reduce((best, x) => (better(x, best) ? x : best));
  };
}

function sum(call: CallArgs): Value {
  const items = expectList(requiredArg(call, 0, 'iterable'), 'sum', 'iterable');
  const start = argAt(call, 1, 'start') ?? 0n;
  if (isStr(start)) evalError("sum() can't sum strings");
  return items.reduce((acc, x) => binary('+', acc, x), start);
}

/** Lists the i-th items of every argument together, as long as the shortest argument lasts. */
function zip(call: CallArgs): Value {
  const columns = call.args.map(iterate);
  if (columns.length === 0) return [];
  const rows = Math.min(...columns.map((c) => c.length));
  return Array.from({ length: rows }, (_, i) => columns.map((c) => c[i]));
}

/** all_true and any_true look at a list's items and a dict's values; anything else is false. */
function members(v: Value | undefined): Value[] | undefined {
  if (v !== undefined && isList(v)) return v;
  if (v !== undefined && isDict(v)) return [...v.entries.values()];
  return undefined;
}

function allTrue(call: CallArgs): Value {
  return members(argAt(call, 0, 'inval'))?.every(truthy) ?? false;
}

function anyTrue(call: CallArgs): Value {
  return members(argAt(call, 0, 'inval'))?.some(truthy) ?? false;
}

function isUnique(call: CallArgs): Value {
  const v = argAt(call, 0, 'inval');
  if (v === undefined || !isList(v)) return false;
  return v.every((x, i) => v.findIndex((y) => equals(x, y)) === i);
}

/** kcl's reduce: an empty list with no initial value gives None, which the accumulator's
 * declared type must admit. */
function reduce(call: CallArgs, host: BuiltinHost): Value {
  const reducer = requiredArg(call, 0, 'reducer');
  if (!isFunction(reducer)) evalError("reduce() argument 'reducer' must be a function");
  const items = expectList(requiredArg(call, 1, 'list'), 'reduce', 'list');
  const initial = argAt(call, 2, 'initial');
  if (initial === undefined && items.length === 0) {
    const accType = reducer.paramTypes?.[0];
    if (accType && !admitsNone(accType)) {
      evalError(`reduce() empty list with no initial value and non-nullable accumulator type '${typeText(accType)}'`);
    }
    return null;
  }
  const [acc, rest] = initial === undefined ? [items[0], items.slice(1)] : [initial, items];
  return rest.reduce<Value>((a, item) => reducer.call({ args: [a, item], kwargs: new Map() }, host), acc);
}

// ---------------------------------------------------------------- numbers

function admitsNone(t: TypeNode): boolean {
  if (t.type === 'AnyType') return true;
  if (t.type === 'LiteralType') return t.value === null;
  if (t.type === 'UnionType') return t.members.some(admitsNone);
  return false;
}

function abs(call: CallArgs): Value {
  const v = requiredArg(call, 0, 'inval');
  if (isInt(v)) return checkInt(v < 0n ? -v : v);
  if (isFloat(v)) return Math.abs(v);
  throw kclError('TypeError', `bad operand type for abs(): '${typeName(v)}'`);
}

function multiplyOf(call: CallArgs): Value {
  const a = expectInt(requiredArg(call, 0, 'a'), 'multiplyof', 'a');
  const b = expectInt(requiredArg(call, 1, 'b'), 'multiplyof', 'b');
  if (b === 0n) throw kclError('ZeroDivisionError', 'integer division or modulo by zero');
  return a % b === 0n;
}

/** Exact integer power; exponents past 64 overflow for any base but -1, 0 and 1. */
function intPow(x: bigint, y: bigint): bigint {
  if (x === 0n || x === 1n) return y === 0n ? 1n : x;
  if (x === -1n) return y % 2n === 0n ? 1n : -1n;
  if (y > 64n) overflow(`${x}**${y}`);
  return checkInt(x ** y);
}

function modPow(x: bigint, y: bigint, m: bigint): bigint {
  const mod = (a: bigint) => ((a % m) + m) % m;
  let result = mod(1n);
  let base = mod(x);
  for (let e = y; e > 0n; e >>= 1n) {
    if (e & 1n) result = mod(result * base);
    base = mod(base * base);
  }
  // Python gives the result the sign of the modulus
  return m < 0n && result !== 0n ? result + m : result;
}

function pow(call: CallArgs): Value {
  const x = requiredArg(call, 0, 'x');
  const y = requiredArg(call, 1, 'y');
  const z = optionalArg(call, 2, 'z');
  if (z !== undefined) {
    if (!isInt(x) || !isInt(y) || !isInt(z)) {
      evalError('pow() 3rd argument not allowed unless all arguments are integers');
    }
    if (z === 0n) evalError('pow() 3rd argument cannot be 0');
    if (y < 0n) evalError('pow() 2nd argument cannot be negative when 3rd argument specified');
    return modPow(x, y, z);
  }
  if (isInt(x) && isInt(y)) return y < 0n ? Math.pow(Number(x), Number(y)) : intPow(x, y);
  if ((isInt(x) || isFloat(x)) && (isInt(y) || isFloat(y))) return Math.pow(Number(x), Number(y));
  throw kclError('TypeError', `unsupported operand type(s) for pow(): '${typeName(x)}' and '${typeName(y)}'`);
}

/** Rust's f64::round: halves go away from zero (Python's round() goes to even instead). */
function roundHalfAway(v: number): number {
  const t = Math.trunc(v);
  return Math.abs(v - t) >= 0.5 ? t + Math.sign(v) : t;
}

/** Rounds to `ndigits` decimals, halves to even, scaling in two steps so 10**ndigits cannot overflow. */
function roundDigits(x: number, ndigits: number): number {
  if (ndigits === 0) return roundHalfAway(x);
  let y: number;
  let pow1: number;
  let pow2 = 1;
  if (ndigits > 0) {
    [pow1, pow2] = ndigits > 22 ? [10 ** (ndigits - 22), 1e22] : [10 ** ndigits, 1];
    y = x * pow1 * pow2;
    if (!Number.isFinite(y)) return x;
  } else {
    pow1 = 10 ** -ndigits;
    if (!Number.isFinite(pow1)) return x < 0 ? -0 : 0;
    y = x / pow1;
  }
  let z = roundHalfAway(y);
  if (Math.abs(y - z) === 0.5) z = 2 * roundHalfAway(y / 2);
  const result = ndigits > 0 ? z / pow2 / pow1 : z * pow1;
  return Number.isFinite(result) ? result : x;
}

/** round(x) gives an int; round(x, n) a float, even for an int x (where kcl differs from Python). */
function round(call: CallArgs): Value {
  const x = requiredArg(call, 0, 'number');
  const nd = optionalArg(call, 1, 'ndigits');
  if (!isInt(x) && !isFloat(x)) throw kclError('TypeError', `type ${typeName(x)} doesn't define __round__ method`);
  if (nd === undefined) return isInt(x) ? x : floatToInt(roundHalfAway(x));
  const ndigits = Number(expectInt(nd, 'round', 'ndigits'));
  return isInt(x) ? Number(x) : roundDigits(x, ndigits);
}

function radixString(prefix: string, radix: number, param: string): Impl {
  return (call) => {
    const v = requiredArg(call, 0, param);
    if (!isInt(v)) throw kclError('TypeError', `'${typeName(v)}' object cannot be interpreted as an integer`);
    return (v < 0n ? '-' : '') + prefix + (v < 0n ? -v : v).toString(radix);
  };
}

function ord(call: CallArgs): Value {
  const c = requiredArg(call, 0, 'c');
  if (!isStr(c)) throw kclError('TypeError', `ord() expected string of length 1, but ${typeName(c)} found`);
  const chars = Array.from(c);
  if (chars.length !== 1) evalError(`ord() expected string of length 1, but string of length ${chars.length} found`);
  return BigInt(chars[0].codePointAt(0) ?? 0);
}

// ---------------------------------------------------------------- the table

function sig(name: string, params: string[], required: number, variadic = false): Signature {
  return { name, params, required, variadic };
}

const one = (name: string, param: string) => sig(name, [param], 1);

const DEFINITIONS: Array<[Signature, Impl]> = [
  [sig('print', [], 0, true), print],
  [sig('multiplyof', ['a', 'b'], 2), multiplyOf],
  [one('isunique', 'inval'), isUnique],
  [one('isnullish', 'inval'), (call) => isNoneOrUndefined(requiredArg(call, 0, 'inval'))],
  [one('len', 'inval'), len],
  [one('abs', 'inval'), abs],
  [one('all_true', 'inval'), allTrue],
  [one('any_true', 'inval'), anyTrue],
  [one('hex', 'number'), radixString('0x', 16, 'number')],
  [one('bin', 'number'), radixString('0b', 2, 'number')],
  [one('oct', 'number'), radixString('0o', 8, 'number')],
  [one('ord', 'c'), ord],
  [sig('sorted', ['inval', 'reverse'], 1), sorted],
  [sig('range', ['start', 'stop', 'step'], 0), range],
  [sig('max', [], 0, true), extreme('max')],
  [sig('min', [], 0, true), extreme('min')],
  [sig('sum', ['iterable', 'start'], 1), sum],
  [sig('pow', ['x', 'y', 'z'], 2), pow],
  [sig('round', ['number', 'ndigits'], 1), round],
  [sig('zip', [], 0, true), zip],
  [sig('int', ['number', 'base'], 1), toInt],
  [sig('float', ['number'], 1), toFloat],
  [sig('bool', ['x'], 0), toBool],
  [sig('str', ['x'], 0), toString],
  [sig('list', ['x'], 0), toList],
  [sig('dict', ['x'], 0, true), toDict],
  [sig('typeof', ['x', 'full_name'], 1), typeOf],
  [sig('reduce', ['reducer', 'list', 'initial'], 2), reduce],
];

/** Every kcl builtin function but `option`, by name. */
export const BUILTINS: ReadonlyMap<string, FunctionValue> = new Map(
  DEFINITIONS.map(([signature, impl]) => [signature.name, defineFunction(signature, impl)]),
);
