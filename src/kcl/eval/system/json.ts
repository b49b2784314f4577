/**
 * The `json` system module (kcl's crates/runtime/src/json). Encoding is src/kcl/yaml.ts's toJson,
 * byte for byte what kcl writes; decoding is the strict parser in json-parse.ts.
 */
import * as fs from 'node:fs';
import { toJson, type JsonOptions } from '../../yaml.js';
import { expectInt, expectStr, optionalArg, requiredArg, type Impl, type Signature } from '../args.js';
import {
  DictValue,
  deepCopy,
  isDict,
  isNoneOrUndefined,
  UNDEFINED,
  type CallArgs,
  type ModuleValue,
  type Value,
} from '../values.js';
import { boolOption, makeModule, outside, sig } from './common.js';
import { parseJson } from './json-parse.js';
import { io, workspacePath } from './workspace.js';

/** sort_keys, indent, ignore_private and ignore_none, positionally from `first` on. */
function jsonOptions(call: CallArgs, first: number, fn: string): JsonOptions {
  const indent = optionalArg(call, first + 1, 'indent');
  return {
    sortKeys: boolOption(call, first, 'sort_keys', fn),
    indent: indent === undefined ? 0 : Number(expectInt(indent, fn, 'indent')),
    ignorePrivate: boolOption(call, first + 2, 'ignore_private', fn),
    ignoreNone: boolOption(call, first + 3, 'ignore_none', fn),
  };
}

function encode(call: CallArgs): Value {
  return toJson(requiredArg(call, 0, 'data'), jsonOptions(call, 1, 'encode'));
}

function decode(call: CallArgs): Value {
  return parseJson(expectStr(requiredArg(call, 0, 'value'), 'decode', 'value'));
}

function validate(call: CallArgs): Value {
  const text = expectStr(requiredArg(call, 0, 'value'), 'validate', 'value');
  try {
    parseJson(text);
    return true;
  } catch {
    return false;
  }
}

/** RFC 7396: a dict patch merges key by key, None or Undefined deletes, anything else replaces. */
function mergePatch(src: Value, patch: Value): Value {
  if (!isDict(patch)) return deepCopy(patch);
  const out = isDict(src) ? (deepCopy(src) as DictValue) : new DictValue();
  for (const [key, value] of patch.entries) {
    if (isNoneOrUndefined(value)) {
      out.entries.delete(key);
      out.ops?.delete(key);
    } else {
      out.set(key, isDict(value) ? mergePatch(out.get(key) ?? new DictValue(), value) : deepCopy(value));
    }
  }
  return out;
}

function merge(call: CallArgs): Value {
  return mergePatch(requiredArg(call, 0, 'src'), requiredArg(call, 1, 'patch'));
}

const dumpToFile: Impl = outside((call, ctx) => {
  const data = requiredArg(call, 0, 'data');
  const filename = expectStr(requiredArg(call, 1, 'filename'), 'dump_to_file', 'filename');
  const text = toJson(data, jsonOptions(call, 2, 'dump_to_file'));
  const abs = workspacePath(ctx, 'dump_to_file', filename, { modifies: true });
  io(`Unable to write file '${filename}'`, () => fs.writeFileSync(abs, text));
  return UNDEFINED;
});

const OPTIONS = ['sort_keys', 'indent', 'ignore_private', 'ignore_none'];

export function jsonModule(): ModuleValue {
  const definitions: ReadonlyArray<readonly [Signature, Impl]> = [
    [sig('encode', ['data', ...OPTIONS], 1), encode],
    [sig('decode', ['value'], 1), decode],
    [sig('validate', ['value'], 1), validate],
    [sig('merge', ['src', 'patch'], 2), merge],
    [sig('dump_to_file', ['data', 'filename', ...OPTIONS], 2), dumpToFile],
  ];
  return makeModule('json', definitions);
}
