/**
 * The `math` system module (kcl's crates/runtime/src/math). Results have the types kcl declares:
 * ceil, floor, factorial and gcd give ints, everything else a float, whatever the argument was.
 *
 * Two places follow kcl's documentation rather than its runtime: `log1p(x)` is ln(1+x) (the
 * runtime computes ln(2+x)), and `log` of an int is not truncated to an int.
 */
import { argTypeError, expectInt, optionalArg, requiredArg, type Impl, type Signature } from '../args.js';
import { checkInt } from '../operators.js';
import { isFloat, isInt, type CallArgs, type ModuleValue, type Value } from '../values.js';
import { evalError, expectNumber, makeModule, sig } from './common.js';

function numberArg(call: CallArgs, fn: string): number | bigint {
  const x = requiredArg(call, 0, 'x');
  if (isInt(x) || isFloat(x)) return x;
  return argTypeError(fn, 'x', 'int or float', x);
}

/** A float made integral (by ceil or floor) as a kcl int, which must fit 64 bits. */
function integral(x: number, fn: string): bigint {
  if (Number.isNaN(x)) evalError(`${fn}() cannot convert float NaN to integer`);
  if (!Number.isFinite(x)) evalError(`${fn}() cannot convert float infinity to integer`);
  return checkInt(BigInt(x));
}

function rounding(fn: 'ceil' | 'floor', op: (x: number) => number): Impl {
  return (call) => {
    const x = numberArg(call, fn);
    return isInt(x) ? x : integral(op(x), fn);
  };
}

/** 20! is the largest factorial a 64-bit int holds. */
function factorial(call: CallArgs): Value {
  const x = numberArg(call, 'factorial');
  const n = isInt(x) ? x : Number.isInteger(x) ? BigInt(x) : undefined;
  if (n === undefined || n < 0n) evalError('factorial() only accepts integral values');
  if (n >= 21n) evalError('factorial() result overflow');
  let out = 1n;
  for (let i = 2n; i <= n; i++) out *= i;
  return out;
}

function gcd(call: CallArgs): Value {
  let a = expectInt(requiredArg(call, 0, 'a'), 'gcd', 'a');
  let b = expectInt(requiredArg(call, 1, 'b'), 'gcd', 'b');
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b !== 0n) [a, b] = [b, a % b];
  return checkInt(a);
}

function predicate(fn: string, onInt: boolean, onFloat: (x: number) => boolean): Impl {
  return (call) => {
    const x = numberArg(call, fn);
    return isInt(x) ? onInt : onFloat(x);
  };
}

/** The fractional and integral parts, both floats carrying the sign of x. */
function modf(call: CallArgs): Value {
  const x = numberArg(call, 'modf');
  if (isInt(x)) return [0, Number(x)];
  if (Number.isNaN(x)) return [x, x];
  if (!Number.isFinite(x)) return [x > 0 ? 0 : -0, x];
  const whole = Math.trunc(x);
  return [x - whole, whole];
}

function unary(fn: string, op: (x: number) => number): Impl {
  return (call) => op(Number(numberArg(call, fn)));
}

function log(call: CallArgs): Value {
  const x = Number(numberArg(call, 'log'));
  const base = optionalArg(call, 1, 'e');
  if (base === undefined) return Math.log(x);
  return Math.log(x) / Math.log(expectNumber(base, 'log', 'e'));
}

function pow(call: CallArgs): Value {
  const x = expectNumber(requiredArg(call, 0, 'x'), 'pow', 'x');
  const y = expectNumber(requiredArg(call, 1, 'y'), 'pow', 'y');
  return Math.pow(x, y);
}

const one = (name: string): Signature => sig(name, ['x'], 1);

const DEFINITIONS: ReadonlyArray<readonly [Signature, Impl]> = [
  [one('ceil'), rounding('ceil', Math.ceil)],
  [one('floor'), rounding('floor', Math.floor)],
  [one('factorial'), factorial],
  [sig('gcd', ['a', 'b'], 2), gcd],
  [one('isfinite'), predicate('isfinite', true, Number.isFinite)],
  [one('isinf'), predicate('isinf', false, (x) => !Number.isNaN(x) && !Number.isFinite(x))],
  [one('isnan'), predicate('isnan', false, Number.isNaN)],
  [one('modf'), modf],
  [one('exp'), unary('exp', Math.exp)],
  [one('expm1'), unary('expm1', Math.expm1)],
  [sig('log', ['x', 'e'], 1), log],
  [one('log1p'), unary('log1p', Math.log1p)],
  [one('log2'), unary('log2', Math.log2)],
  [one('log10'), unary('log10', Math.log10)],
  [sig('pow', ['x', 'y'], 2), pow],
  [one('sqrt'), unary('sqrt', Math.sqrt)],
];

export function mathModule(): ModuleValue {
  return makeModule('math', DEFINITIONS);
}
