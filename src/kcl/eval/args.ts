/**
 * Argument handling shared by the builtin functions and the str methods: a declared signature is
 * checked once per call, then parameters are read by keyword or position and converted to the JS
 * type the implementation wants, with kcl's messages when they do not fit.
 */
import { kclError } from '../../diagnostics/diagnostics.js';
import {
  isDict,
  isInt,
  isList,
  isNoneOrUndefined,
  isStr,
  typeName,
  type BuiltinHost,
  type CallArgs,
  type FunctionValue,
  type Value,
} from './values.js';

export interface Signature {
  /** The name kcl's resolver quotes in arity errors: `"len"`, `"split"`. */
  name: string;
  /** Parameter names in positional order. */
  params: readonly string[];
  /** How many leading parameters have no default. */
  required: number;
  /** Variadic functions (print, max, zip, format) take any positional and keyword arguments. */
  variadic?: boolean;
}

function positional(n: number): string {
  return `${n} positional argument${n === 1 ? '' : 's'}`;
}

/**
 * kcl finds arity mistakes in its resolver, before evaluation; the messages (and the CompileError
 * kind) are the resolver's so that a program fails here the way it fails there.
 */
export function checkArity(call: CallArgs, sig: Signature): void {
  if (sig.variadic) return;
  const fn = `"${sig.name}"`;
  if (call.args.length > sig.params.length) {
    throw kclError('CompileError', `${fn} takes ${positional(sig.params.length)} but ${call.args.length} were given`);
  }
  for (const key of call.kwargs.keys()) {
    if (!sig.params.includes(key)) throw kclError('CompileError', `${fn} got an unexpected keyword argument '${key}'`);
  }
  let got = call.args.length;
  for (let i = call.args.length; i < sig.required; i++) if (call.kwargs.has(sig.params[i])) got++;
  if (got < sig.required) throw kclError('CompileError', `expected ${positional(sig.required)}, found ${got}`);
}

export type Impl = (call: CallArgs, host: BuiltinHost) => Value;

/** A function value whose calls are arity-checked against `sig` before `impl` runs. */
export function defineFunction(sig: Signature, impl: Impl): FunctionValue {
  return {
    kind: 'function',
    name: sig.name,
    call(call: CallArgs, host: BuiltinHost): Value {
      checkArity(call, sig);
      return impl(call, host);
    },
  };
}

/** A parameter as kcl's get_call_arg finds it: by keyword first, then by position. */
export function argAt(call: CallArgs, index: number, name: string): Value | undefined {
  const byName = call.kwargs.get(name);
  if (byName !== undefined) return byName;
  return index < call.args.length ? call.args[index] : undefined;
}

/** An optional parameter; an explicit None or Undefined means "not given", as in kcl. */
export function optionalArg(call: CallArgs, index: number, name: string): Value | undefined {
  const v = argAt(call, index, name);
  return v === undefined || isNoneOrUndefined(v) ? undefined : v;
}

/** A parameter checkArity guarantees is present (required parameters only). */
export function requiredArg(call: CallArgs, index: number, name: string): Value {
  const v = argAt(call, index, name);
  if (v === undefined) throw kclError('CompileError', `missing required argument '${name}'`);
  return v;
}

export function argTypeError(fn: string, name: string, expected: string, got: Value): never {
  throw kclError('TypeError', `${fn}() argument '${name}' must be ${expected}, not '${typeName(got)}'`);
}

export function expectStr(v: Value, fn: string, name: string): string {
  return isStr(v) ? v : argTypeError(fn, name, 'str', v);
}

export function expectInt(v: Value, fn: string, name: string): bigint {
  return isInt(v) ? v : argTypeError(fn, name, 'int', v);
}

export function expectList(v: Value, fn: string, name: string): Value[] {
  return isList(v) ? v : argTypeError(fn, name, 'list', v);
}

/** kcl iterates strings by character, lists by item, and dicts and schema instances by key. */
export function iterate(v: Value): Value[] {
  if (isStr(v)) return Array.from(v);
  if (isList(v)) return v;
  if (isDict(v)) return [...v.entries.keys()];
  throw kclError('TypeError', `'${typeName(v)}' object is not iterable`);
}
