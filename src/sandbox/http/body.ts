/**
 * Request bodies: read whole, up to a limit (3 MiB, as the API server's), and decoded as JSON
 * with the API server's 400 when they do not parse.
 */
import type { IncomingMessage } from 'node:http';
import YAML from 'yaml';
import { badRequest, requestTooLarge, unsupportedMediaType } from '../api/errors.js';
import { decodeProtobuf } from './protobuf.js';

const BODY_LIMIT = 3 * 1024 * 1024;

export function readBody(req: IncomingMessage, limit = BODY_LIMIT): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(requestTooLarge(limit));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const ACCEPTED = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

/**
 * A request body in JSON, in YAML or in Kubernetes protobuf, as the Content-Type says; an empty
 * one is `undefined` (DELETE may have none). Anything else is a 415.
 */
export function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  const type = (contentType ?? 'application/json').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/vnd.kubernetes.protobuf') return raw.length === 0 ? undefined : decodeProtobuf(raw);
  const text = raw.toString('utf8');
  if (type === 'application/yaml' || type === 'application/x-yaml') {
    if (text.trim() === '') return undefined;
    try {
      return YAML.parse(text, { schema: 'core' }) as unknown;
    } catch (e) {
      throw badRequest(`error converting YAML to JSON: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
  }
  if (type !== 'application/json' && type !== '' && type !== '*/*') throw unsupportedMediaType(ACCEPTED);
  return parseJsonBody(text);
}

/** A JSON body; an empty one is `undefined` (DELETE may have none). */
function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw badRequest(`couldn't get version/kind; json parse error: ${why}`);
  }
}
