/**
 * A State as the bytes a Secret keeps: its JSON as it is while small, gzipped and base64-encoded
 * once large (as Helm keeps releases), with the SHA-256 of the JSON beside it so that a reader
 * knows it reassembled exactly what was written. Decoding says what is wrong in words a user
 * can act on, and tells a state from a newer kdeck apart from a damaged one.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { STATE_VERSION, type State } from './model.js';

export type Encoding = 'json' | 'gzip+base64';

/** Above this many bytes of JSON a state is gzipped: below, it stays readable with kubectl. */
const GZIP_ABOVE = 64 * 1024;

export interface EncodedState {
  payload: Buffer;
  encoding: Encoding;
  /** SHA-256 of the JSON, hex. */
  digest: string;
}

/** Why stored bytes are not a state this kdeck can use. */
export class DecodeProblem extends Error {
  constructor(
    message: string,
    /** damaged: the bytes are wrong; newer: a newer kdeck wrote them. */
    readonly kind: 'damaged' | 'newer',
  ) {
    super(message);
  }
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

export function encodeState(state: State): EncodedState {
  const json = JSON.stringify(state);
  const digest = sha256(json);
  if (Buffer.byteLength(json) <= GZIP_ABOVE) return { payload: Buffer.from(json, 'utf8'), encoding: 'json', digest };
  return { payload: Buffer.from(gzipSync(json).toString('base64'), 'ascii'), encoding: 'gzip+base64', digest };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function jsonText(payload: Buffer, encoding: string | undefined): Buffer {
  switch (encoding) {
    case 'json':
      return payload;
    case 'gzip+base64': {
      // Buffer.from(…, 'base64') skips what is not base64; a damaged payload must not pass as a shorter one
      const text = payload.toString('latin1');
      const bad = text.search(/[^A-Za-z0-9+/=]/);
      if (bad >= 0 || text.length % 4 !== 0 || !BASE64.test(text)) {
        throw new DecodeProblem(
          `its data is not valid base64${bad >= 0 ? ` (an unexpected character at byte ${bad})` : ''}`,
          'damaged',
        );
      }
      try {
        return gunzipSync(Buffer.from(text, 'base64'));
      } catch (e) {
        throw new DecodeProblem(`its data is base64 but not gzip (${(e as Error).message})`, 'damaged');
      }
    }
    default:
      throw new DecodeProblem(
        `its encoding ${encoding === undefined ? 'is not recorded' : `"${encoding}" is unknown to this kdeck`}`,
        encoding === undefined ? 'damaged' : 'newer',
      );
  }
}

/** The State in `payload`, checked against its digest and the schema this kdeck reads. */
export function decodeState(payload: Buffer, encoding: string | undefined, digest: string | undefined): State {
  const json = jsonText(payload, encoding);
  if (digest !== undefined && sha256(json) !== digest)
    throw new DecodeProblem(
      'its content does not match the digest recorded with it (a part was changed, lost or mixed up)',
      'damaged',
    );
  let value: unknown;
  try {
    value = JSON.parse(json.toString('utf8'));
  } catch {
    throw new DecodeProblem('its data is not JSON', 'damaged');
  }
  const s = value as Partial<State> | null;
  if (typeof s !== 'object' || s === null || Array.isArray(s))
    throw new DecodeProblem('its data is not a kdeck state', 'damaged');
  if (typeof s.version === 'number' && s.version > STATE_VERSION)
    throw new DecodeProblem(
      `it is in state schema version ${s.version}, and this kdeck reads version ${STATE_VERSION}`,
      'newer',
    );
  if (s.version !== STATE_VERSION)
    throw new DecodeProblem(`its schema version is ${JSON.stringify(s.version)}, not ${STATE_VERSION}`, 'damaged');
  const strings = ['project', 'stack', 'cluster'] as const;
  if (
    strings.some((k) => typeof s[k] !== 'string') ||
    typeof s.serial !== 'number' ||
    !Array.isArray(s.resources) ||
    !Array.isArray(s.history)
  ) {
    throw new DecodeProblem(
      'its data lacks fields every kdeck state has (project, stack, cluster, serial, resources, history)',
      'damaged',
    );
  }
  return s as State;
}
