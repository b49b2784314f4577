/**
 * KCL's operators over runtime values: arithmetic with 64-bit int semantics, Python-style
 * division and modulo, comparison and membership, and the type errors kcl reports.
 */
import { checkListSize, checkStringSize } from './allocation.js';
import type { BinaryOp, UnaryOp } from '../ast.js';
import { kclError } from '../../diagnostics/diagnostics.js';
import { union } from './config.js';
import {
  equals,
  isDict,
  isFloat,
  isInt,
  isList,
  isNumber,
  isStr,
  repr,
  truthy,
  typeName,
  UNDEFINED,
  type Value,
} from './values.js';

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

export function checkInt(v: bigint): bigint {
  if (v < I64_MIN || v > I64_MAX) throw kclError('IntOverflow', `${v}: A 64 bit integer overflow`);
  return v;
}

function unsupported(op: string, a: Value, b: Value): never {
  throw kclError('TypeError', `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

function toFloat(v: bigint | number | boolean): number {
  return typeof v === 'number' ? v : Number(v);
}

/** Only ints and floats take part in arithmetic; kcl refuses `1 + True`. */
function asNumber(v: Value): bigint | number | undefined {
  return isNumber(v) ? v : undefined;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

function pyMod(a: bigint, b: bigint): bigint {
  const r = a % b;
  return r !== 0n && r < 0n !== b < 0n ? r + b : r;
}

function zeroDivision(): never {
  throw kclError('ZeroDivisionError', 'integer division or modulo by zero');
}

function arith(op: BinaryOp, a: bigint | number, b: bigint | number): Value {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    switch (op) {
      case '+':
        return checkInt(a + b);
      case '-':
        return checkInt(a - b);
      case '*':
        return checkInt(a * b);
      case '/':
        if (b === 0n) throw kclError('ZeroDivisionError', 'float division by zero');
        return Number(a) / Number(b);
      case '//':
        return b === 0n ? zeroDivision() : floorDiv(a, b);
      case '%':
        return b === 0n ? zeroDivision() : pyMod(a, b);
      case '**':
        if (b < 0n) return Math.pow(Number(a), Number(b));
        // any base other than 0 and ±1 leaves the 64-bit range long before such an exponent
        if (b > 64n && a !== 0n && a !== 1n && a !== -1n)
          throw kclError('IntOverflow', `${a} ** ${b}: A 64 bit integer overflow`);
        return checkInt(a ** b);
      case '<<':
        if (b > 64n) throw kclError('IntOverflow', `${a} << ${b}: A 64 bit integer overflow`);
        return checkInt(a << b);
      case '>>':
        return a >> b;
      case '&':
        return a & b;
      case '|':
        return a | b;
      case '^':
        return a ^ b;
    }
  }
  const x = toFloat(a);
  const y = toFloat(b);
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      if (y === 0) throw kclError('ZeroDivisionError', 'float division by zero');
      return x / y;
    case '//':
      if (y === 0) throw kclError('ZeroDivisionError', 'float divmod()');
      return Math.floor(x / y);
    case '%': {
      if (y === 0) throw kclError('ZeroDivisionError', 'float modulo');
      const r = x % y;
      return r !== 0 && r < 0 !== y < 0 ? r + y : r;
    }
    case '**':
      return Math.pow(x, y);
  }
  throw kclError('TypeError', `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

function repeat<T>(items: T[] | string, n: bigint): T[] | string {
  const count = n < 0n ? 0 : Number(n);
  const size = BigInt(items.length) * (n < 0n ? 0n : n);
  if (typeof items === 'string') checkStringSize(size, `repeating a string ${n} times`);
  else checkListSize(size, `repeating a list ${n} times`);
  if (typeof items === 'string') return items.repeat(count);
  const out: T[] = [];
  for (let i = 0; i < count; i++) out.push(...items);
  return out;
}

export function binary(op: BinaryOp, a: Value, b: Value): Value {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined && y !== undefined) return arith(op, x, y);
  switch (op) {
    case '+':
      if (isStr(a) && isStr(b)) return a + b;
      if (isList(a) && isList(b)) return [...a, ...b];
      break;
    case '*':
      if ((isStr(a) || isList(a)) && isInt(b)) return repeat(a, b);
      if (isInt(a) && (isStr(b) || isList(b))) return repeat(b, a);
      break;
    case '|':
      if (a === null || a === UNDEFINED) return b;
      if (b === null || b === UNDEFINED) return a;
      if ((isDict(a) && isDict(b)) || (isList(a) && isList(b))) return union(a, b, { override: true });
      break;
  }
  return unsupported(op, a, b);
}

export function compare(op: BinaryOp, a: Value, b: Value): boolean {
  switch (op) {
    case '==':
      return equals(a, b);
    case '!=':
      return !equals(a, b);
    case 'is':
      return identical(a, b);
    case 'is not':
      return !identical(a, b);
    case 'in':
      return contains(b, a);
    case 'not in':
      return !contains(b, a);
  }
  if (isList(a) || isList(b))
    throw kclError('TypeError', `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
  const c = order(boolAsInt(a, b), boolAsInt(b, a), op);
  switch (op) {
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    default:
      return c >= 0;
  }
}

/** kcl's `<` and kin read a bool beside a number or bool as the int it stands for (`1 > False`). */
function boolAsInt(v: Value, other: Value): Value {
  return typeof v === 'boolean' && (isNumber(other) || typeof other === 'boolean') ? BigInt(v) : v;
}

function identical(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (isNumber(a) && isNumber(b)) return typeof a === typeof b && a === b;
  return false;
}

/** Total order for sorting (and `<` on scalars): numbers, strings, and lists element-wise. */
export function order(a: Value, b: Value, op: string = '<'): number {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined && y !== undefined) {
    if (typeof x === 'bigint' && typeof y === 'bigint') return x < y ? -1 : x > y ? 1 : 0;
    const fx = toFloat(x);
    const fy = toFloat(y);
    return fx < fy ? -1 : fx > fy ? 1 : 0;
  }
  if (isStr(a) && isStr(b)) return a < b ? -1 : a > b ? 1 : 0;
  if (isList(a) && isList(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = order(a[i], b[i], op);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  throw kclError('TypeError', `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

export function contains(container: Value, item: Value): boolean {
  if (isStr(container)) {
    if (!isStr(item))
      throw kclError('TypeError', `'in <string>' requires string as left operand, not ${typeName(item)}`);
    return container.includes(item);
  }
  if (isList(container)) return container.some((x) => equals(x, item));
  if (isDict(container)) return isStr(item) && container.entries.has(item);
  if (container === null || container === UNDEFINED) return false;
  throw kclError('TypeError', `argument of type '${typeName(container)}' is not iterable`);
}

export function unary(op: UnaryOp, v: Value): Value {
  switch (op) {
    case 'not':
      return !truthy(v);
    case '-':
      if (isInt(v)) return checkInt(-v);
      if (isFloat(v)) return -v;
      if (typeof v === 'boolean') return v ? -1n : 0n;
      break;
    case '+':
      if (isNumber(v)) return v;
      if (typeof v === 'boolean') return v ? 1n : 0n;
      break;
    case '~':
      if (isInt(v)) return ~v;
      if (typeof v === 'boolean') return v ? -2n : -1n;
      break;
  }
  throw kclError('TypeError', `bad operand type for unary ${op}: '${typeName(v)}'`);
}

export function describe(v: Value): string {
  return `${typeName(v)}(${repr(v)})`;
}
