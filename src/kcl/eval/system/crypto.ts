/**
 * The `crypto` system module (kcl's crates/runtime/src/crypto): hex digests of a str's bytes or of
 * a workspace file, and random UUIDs.
 *
 * BLAKE3 is not among node:crypto's hashes, so blake3 and fileblake3 raise an error saying so
 * instead of returning a different digest.
 */
import { createHash, getHashes, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { kclError } from '../../../diagnostics/diagnostics.js';
import { expectStr, optionalArg, requiredArg, type Impl, type Signature } from '../args.js';
import type { CallArgs, ModuleValue, Value } from '../values.js';
import { makeModule, outside, sig } from './common.js';
import { io, workspacePath } from './workspace.js';

/** The WHATWG labels of UTF-8, the only text encoding a kcl str can be hashed in here. */
const UTF8_LABELS = new Set([
  'utf-8',
  'utf8',
  'unicode-1-1-utf-8',
  'unicode11utf8',
  'unicode20utf8',
  'x-unicode20utf8',
]);

/** kcl hashes the str encoded in `encoding` (default UTF-8); its labels ignore case and spaces. */
function textBytes(call: CallArgs, fn: string): Buffer {
  const value = expectStr(requiredArg(call, 0, 'value'), fn, 'value');
  const encoding = optionalArg(call, 1, 'encoding');
  if (encoding !== undefined) {
    const label = expectStr(encoding, fn, 'encoding').trim().toLowerCase().replace(/ /g, '-');
    if (!UTF8_LABELS.has(label)) {
      throw kclError('EvaluationError', `${fn}() encoding '${label}' is not supported: kdeck hashes UTF-8 text only`);
    }
  }
  return Buffer.from(value, 'utf8');
}

function blake3Unavailable(fn: string): never {
  throw kclError('EvaluationError', `${fn}() is not available: this Node.js runtime's crypto has no BLAKE3 hash`);
}

function hasher(algorithm: string): Impl {
  return (call) => {
    const bytes = textBytes(call, algorithm);
    if (algorithm === 'blake3' && !getHashes().includes('blake3')) return blake3Unavailable('blake3');
    return createHash(algorithm).update(bytes).digest('hex');
  };
}

function fileHasher(fn: string, algorithm: string): Impl {
  return outside((call, ctx) => {
    const filepath = expectStr(requiredArg(call, 0, 'filepath'), fn, 'filepath');
    if (algorithm === 'blake3' && !getHashes().includes('blake3')) return blake3Unavailable(fn);
    const abs = workspacePath(ctx, fn, filepath);
    const bytes = io(`failed to access file '${filepath}'`, () => fs.readFileSync(abs));
    return createHash(algorithm).update(bytes).digest('hex');
  });
}

const ALGORITHMS = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'blake3'];

export function cryptoModule(): ModuleValue {
  const definitions: Array<readonly [Signature, Impl]> = ALGORITHMS.map(
    (algorithm) => [sig(algorithm, ['value', 'encoding'], 1), hasher(algorithm)] as const,
  );
  definitions.push(
    [sig('uuid', [], 0), outside((): Value => randomUUID())],
    [sig('filesha256', ['filepath'], 1), fileHasher('filesha256', 'sha256')],
    [sig('filesha512', ['filepath'], 1), fileHasher('filesha512', 'sha512')],
    [sig('fileblake3', ['filepath'], 1), fileHasher('fileblake3', 'blake3')],
  );
  return makeModule('crypto', definitions);
}
