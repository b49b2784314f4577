/**
 * The `yaml` system module (kcl's crates/runtime/src/yaml). Encoding is src/kcl/yaml.ts's toYaml;
 * decoding uses the `yaml` package with the YAML 1.2 core schema, which resolves scalars as kcl's
 * serde_yaml does (`yes` stays a string, `0x10` is an int). Ints stay ints while they fit 64 bits,
 * floats are floats, and mappings become dicts in their written order, scalar keys as written.
 */
import * as fs from 'node:fs';
import { isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments, type Document, type Node } from 'yaml';
import { kclError } from '../../../diagnostics/diagnostics.js';
import { toYaml, viaJsonText, type EncodeOptions } from '../../yaml.js';
import { expectList, expectStr, requiredArg, type Impl, type Signature } from '../args.js';
import { DictValue, UNDEFINED, type CallArgs, type ModuleValue, type Value } from '../values.js';
import { boolOption, makeModule, outside, sig } from './common.js';
import { io, workspacePath } from './workspace.js';

/** What kcl puts between the documents of encode_all and dump_all_to_file. */
const STREAM_SEP = '\n---\n';

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

function decodeError(message: string): never {
  throw kclError('EvaluationError', message.split('\n')[0]);
}

function scalarValue(v: unknown): Value {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'boolean':
    case 'string':
      return v;
    case 'number':
      return Number.isFinite(v) ? viaJsonText(v) : v;
    case 'bigint':
      return v >= I64_MIN && v <= I64_MAX ? v : Number(v);
  }
  return String(v);
}

function nodeValue(doc: Document, node: unknown): Value {
  if (node === null || node === undefined) return null;
  if (isAlias(node)) return nodeValue(doc, node.resolve(doc));
  if (isScalar(node)) return scalarValue(node.value);
  if (isSeq(node)) return node.items.map((item) => nodeValue(doc, item));
  if (isMap(node)) {
    const out = new DictValue();
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      out.set(keyText(doc, pair.key), nodeValue(doc, pair.value));
    }
    return out;
  }
  return decodeError('unsupported YAML node');
}

/** serde_yaml reads a scalar key into a kcl str as it is written (`1`, `true`, `~`). */
function keyText(doc: Document, key: unknown): string {
  const node: unknown = isAlias(key) ? key.resolve(doc) : key;
  if (node === null || node === undefined) return '';
  if (isScalar(node)) {
    if (typeof node.value === 'string') return node.value;
    return node.source ?? String(node.value);
  }
  return decodeError('invalid type: a mapping or sequence as a mapping key, expected a string');
}

/** Every document of a stream, each checked for errors. */
export function yamlDocuments(text: string): Value[] {
  const docs = parseAllDocuments(text, { version: '1.2', schema: 'core', intAsBigInt: true, uniqueKeys: false });
  if (!Array.isArray(docs)) return [];
  return docs.map((doc) => {
    const error = doc.errors[0];
    if (error) decodeError(error.message);
    return nodeValue(doc, doc.contents as Node | null);
  });
}

function decode(call: CallArgs): Value {
  const docs = yamlDocuments(expectStr(requiredArg(call, 0, 'value'), 'decode', 'value'));
  if (docs.length > 1) decodeError('deserializing from YAML containing more than one document is not supported');
  return docs.length === 0 ? null : docs[0];
}

function decodeAll(call: CallArgs): Value {
  return yamlDocuments(expectStr(requiredArg(call, 0, 'value'), 'decode_all', 'value'));
}

function validate(call: CallArgs): Value {
  const text = expectStr(requiredArg(call, 0, 'value'), 'validate', 'value');
  try {
    yamlDocuments(text);
    return true;
  } catch {
    return false;
  }
}

/** sort_keys, ignore_private and ignore_none, positionally from `first` on. */
function yamlOptions(call: CallArgs, first: number, fn: string): EncodeOptions {
  return {
    sortKeys: boolOption(call, first, 'sort_keys', fn),
    ignorePrivate: boolOption(call, first + 1, 'ignore_private', fn),
    ignoreNone: boolOption(call, first + 2, 'ignore_none', fn),
  };
}

function encodeAllText(values: Value[], options: EncodeOptions): string {
  return values.map((v) => toYaml(v, options)).join(STREAM_SEP);
}

function encode(call: CallArgs): Value {
  return toYaml(requiredArg(call, 0, 'data'), yamlOptions(call, 1, 'encode'));
}

function encodeAll(call: CallArgs): Value {
  const data = expectList(requiredArg(call, 0, 'data'), 'encode_all', 'data');
  return encodeAllText(data, yamlOptions(call, 1, 'encode_all'));
}

function dumper(fn: string, all: boolean): Impl {
  return outside((call, ctx) => {
    const data = requiredArg(call, 0, 'data');
    const filename = expectStr(requiredArg(call, 1, 'filename'), fn, 'filename');
    const options = yamlOptions(call, 2, fn);
    const text = all ? encodeAllText(expectList(data, fn, 'data'), options) : toYaml(data, options);
    const abs = workspacePath(ctx, fn, filename, { modifies: true });
    io(`Unable to write file '${filename}'`, () => fs.writeFileSync(abs, text));
    return UNDEFINED;
  });
}

const OPTIONS = ['sort_keys', 'ignore_private', 'ignore_none'];

export function yamlModule(): ModuleValue {
  const definitions: ReadonlyArray<readonly [Signature, Impl]> = [
    [sig('encode', ['data', ...OPTIONS], 1), encode],
    [sig('encode_all', ['data', ...OPTIONS], 1), encodeAll],
    [sig('decode', ['value'], 1), decode],
    [sig('decode_all', ['value'], 1), decodeAll],
    [sig('validate', ['value'], 1), validate],
    [sig('dump_to_file', ['data', 'filename', ...OPTIONS], 2), dumper('dump_to_file', false)],
    [sig('dump_all_to_file', ['data', 'filename', ...OPTIONS], 2), dumper('dump_all_to_file', true)],
  ];
  return makeModule('yaml', definitions);
}
