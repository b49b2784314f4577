/**
 * What the system modules share: the context a program gives them, the way a module value is put
 * together from signatures, and the argument readers their functions use on top of args.ts.
 */
import { kclError } from '../../../diagnostics/diagnostics.js';
import type { YamlStreamOptions } from '../../yaml.js';
import { argTypeError, defineFunction, optionalArg, type Impl, type Signature } from '../args.js';
import { isFloat, isInt, type CallArgs, type ModuleValue, type Value } from '../values.js';

/** What the system modules may know about the program that imports them. */
export interface SystemContext {
  /** Every path the file functions (and file hashes, dump_to_file) touch must resolve inside it. */
  workspaceRoot: string;
  /** The file being evaluated, for `file.current()`. */
  currentFile: () => string;
  /**
   * kcl's `--work_dir`: what `file.workdir()` returns (kcl gives '' when it is not set) and the
   * base of relative paths (the workspace root when it is not set).
   */
  workdir?: string;
  /** `file.modpath()`: the directory of the program's kcl.mod; the workspace root by default. */
  modulePath?: string;
  /** `file.read_env()`; the process environment by default. */
  readEnv?: (key: string) => string | undefined;
  /** `--read-only`: the functions that write, move or delete files refuse to. */
  readOnly?: boolean;
  /**
   * `manifests.yaml_stream` does not return its stream: like kcl, it replaces the program's YAML
   * output with it, and the evaluator decides how that output is printed.
   */
  setManifestsOutput?: (documents: Value[], options: YamlStreamOptions) => void;
}

/**
 * A function that reaches outside the program (files, the environment, the clock, randomness, the
 * program's output): it runs in the calling program's context, and tells the program so (see
 * ProgramHost.reachesOutside).
 */
export function outside(impl: (call: CallArgs, ctx: SystemContext) => Value): Impl {
  return (call, host) => {
    host.reachesOutside();
    return impl(call, host.system);
  };
}

export function sig(name: string, params: string[], required: number): Signature {
  return { name, params, required };
}

/** A module value whose functions are arity-checked; constants (units.K) sit next to them. */
export function makeModule(
  name: string,
  definitions: ReadonlyArray<readonly [Signature, Impl]>,
  constants: ReadonlyArray<readonly [string, Value]> = [],
): ModuleValue {
  const members = new Map<string, Value>(constants);
  for (const [signature, impl] of definitions) members.set(signature.name, defineFunction(signature, impl));
  return { kind: 'module', name, members };
}

export function evalError(message: string): never {
  throw kclError('EvaluationError', message);
}

/** An int or float argument as a JS number; kcl's number type admits no bools or strings. */
export function expectNumber(v: Value, fn: string, name: string): number {
  if (isInt(v)) return Number(v);
  if (isFloat(v)) return v;
  return argTypeError(fn, name, 'int or float', v);
}

export function expectBool(v: Value, fn: string, name: string): boolean {
  return typeof v === 'boolean' ? v : argTypeError(fn, name, 'bool', v);
}

/** A bool option that defaults to false when absent or None. */
export function boolOption(call: CallArgs, index: number, name: string, fn: string): boolean {
  const v = optionalArg(call, index, name);
  return v === undefined ? false : expectBool(v, fn, name);
}

/** kcl's `as i64` on a float: truncation that saturates at the int range, and NaN as 0. */
export function saturatingInt(x: number): bigint {
  if (Number.isNaN(x)) return 0n;
  const max = 2n ** 63n - 1n;
  const min = -(2n ** 63n);
  if (x >= 2 ** 63) return max;
  if (x < -(2 ** 63)) return min;
  return BigInt(Math.trunc(x));
}
