/**
 * The `base32` system module (kcl's crates/runtime/src/base32): RFC 4648 alphabet with padding,
 * over the UTF-8 bytes of a str. Like kcl, decoding to bytes that are not UTF-8 gives None.
 */
import { expectStr, requiredArg, type Impl, type Signature } from '../args.js';
import type { CallArgs, ModuleValue, Value } from '../values.js';
import { evalError, makeModule, sig } from './common.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

function encode(call: CallArgs): Value {
  const bytes = Buffer.from(expectStr(requiredArg(call, 0, 'value'), 'encode', 'value'), 'utf8');
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out + '='.repeat((8 - (out.length % 8)) % 8);
}

function decode(call: CallArgs): Value {
  const value = expectStr(requiredArg(call, 0, 'value'), 'decode', 'value');
  const body = value.replace(/=+$/, '');
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const c of body) {
    const digit = ALPHABET.indexOf(c);
    if (digit < 0) evalError(`decode() invalid base32 string '${value}'`);
    buffer = ((buffer << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((buffer >> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  try {
    return fatalUtf8.decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
}

const DEFINITIONS: ReadonlyArray<readonly [Signature, Impl]> = [
  [sig('encode', ['value'], 1), encode],
  [sig('decode', ['value'], 1), decode],
];

export function base32Module(): ModuleValue {
  return makeModule('base32', DEFINITIONS);
}
