/**
 * The `base64` system module (kcl's crates/runtime/src/base64): standard alphabet with padding,
 * over the UTF-8 bytes of a str. Decoding must give UTF-8 text, as a kcl str holds nothing else.
 */
import { expectStr, requiredArg, type Impl, type Signature } from '../args.js';
import type { CallArgs, ModuleValue, Value } from '../values.js';
import { evalError, makeModule, sig } from './common.js';

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

function encode(call: CallArgs): Value {
  // kcl declares an `encoding` parameter but always encodes UTF-8
  return Buffer.from(expectStr(requiredArg(call, 0, 'value'), 'encode', 'value'), 'utf8').toString('base64');
}

/** Buffer.from(.., 'base64') skips characters it does not know; kcl's decoder refuses them. */
function decode(call: CallArgs): Value {
  const value = expectStr(requiredArg(call, 0, 'value'), 'decode', 'value');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.replace(/=+$/, '').length % 4 === 1) {
    evalError(`decode() invalid base64 string '${value}'`);
  }
  try {
    return fatalUtf8.decode(Buffer.from(value, 'base64'));
  } catch {
    return evalError(`decode() the base64 string '${value}' does not decode to UTF-8 text`);
  }
}

const DEFINITIONS: ReadonlyArray<readonly [Signature, Impl]> = [
  [sig('encode', ['value', 'encoding'], 1), encode],
  [sig('decode', ['value'], 1), decode],
];

export function base64Module(): ModuleValue {
  return makeModule('base64', DEFINITIONS);
}
