/**
 * The `manifests` system module (kcl's crates/runtime/src/manifests). `yaml_stream(values, opts)`
 * does not return its stream: as in kcl, it becomes the program's whole YAML output, handed to the
 * evaluator through the context, and the call's value is Undefined. A returned str would be worse
 * than useless: a module-level expression statement's value is printed as a document of its own.
 *
 * `ignore_private` defaults to True, as documented, whether or not `opts` is given (kcl's runtime
 * defaults it to False when `opts` is left out).
 */
import { kclError } from '../../../diagnostics/diagnostics.js';
import type { YamlStreamOptions } from '../../yaml.js';
import { argAt, expectList, requiredArg, type Impl, type Signature } from '../args.js';
import {
  isDict,
  isNoneOrUndefined,
  isStr,
  typeName,
  UNDEFINED,
  type DictValue,
  type ModuleValue,
  type Value,
} from '../values.js';
import { evalError, makeModule, outside, sig } from './common.js';

function flag(opts: DictValue, key: string, fallback: boolean): boolean {
  const v = opts.get(key);
  if (v === undefined || isNoneOrUndefined(v)) return fallback;
  if (typeof v !== 'boolean') evalError(`yaml_stream() option '${key}' must be a bool, not '${typeName(v)}'`);
  return v;
}

function streamOptions(opts: Value | undefined): YamlStreamOptions {
  if (opts === undefined || isNoneOrUndefined(opts)) return { ignorePrivate: true };
  if (!isDict(opts)) evalError(`Invalid options arguments in yaml_stream(): expect config, got ${typeName(opts)}`);
  const sep = opts.get('sep');
  if (sep !== undefined && !isNoneOrUndefined(sep) && !isStr(sep)) {
    evalError(`yaml_stream() option 'sep' must be a str, not '${typeName(sep)}'`);
  }
  return {
    sortKeys: flag(opts, 'sort_keys', false),
    ignorePrivate: flag(opts, 'ignore_private', true),
    ignoreNone: flag(opts, 'ignore_none', false),
    sep: isStr(sep) ? sep : '---',
  };
}

const yamlStream: Impl = outside((call, ctx) => {
  const values = expectList(requiredArg(call, 0, 'values'), 'yaml_stream', 'values');
  const options = streamOptions(argAt(call, 1, 'opts'));
  if (!ctx.setManifestsOutput) {
    throw kclError('EvaluationError', 'manifests.yaml_stream() cannot set the output of this program');
  }
  ctx.setManifestsOutput(values, options);
  return UNDEFINED;
});

export function manifestsModule(): ModuleValue {
  const definitions: ReadonlyArray<readonly [Signature, Impl]> = [
    [sig('yaml_stream', ['values', 'opts'], 1), yamlStream],
  ];
  return makeModule('manifests', definitions);
}
