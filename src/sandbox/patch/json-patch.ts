/**
 * JSON patch (RFC 6902, `application/json-patch+json`). A body that is not a list of operations
 * is a 400; an operation that cannot apply (a missing path, a failed `test`) is a 422, as the API
 * server answers.
 */
import { badRequest, ApiError } from '../api/errors.js';
import { clone, deepEqual, isMap } from '../json.js';

interface Operation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  from?: string;
  value?: unknown;
}

const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

export function parseJsonPatch(body: unknown): Operation[] {
  if (!Array.isArray(body))
    throw badRequest('json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp');
  return body.map((o, i) => {
    if (!isMap(o) || typeof o.op !== 'string' || !OPS.has(o.op))
      throw badRequest(`invalid JSON patch: operation ${i} has an unknown op`);
    if (typeof o.path !== 'string') throw badRequest(`invalid JSON patch: operation ${i} has no path`);
    if ((o.op === 'move' || o.op === 'copy') && typeof o.from !== 'string')
      throw badRequest(`invalid JSON patch: operation ${i} has no from`);
    if ((o.op === 'add' || o.op === 'replace' || o.op === 'test') && !('value' in o))
      throw badRequest(`invalid JSON patch: operation ${i} has no value`);
    return o as unknown as Operation;
  });
}

/** What the API server answers when a patch cannot apply: a fixed message, the cause beside it. */
function unprocessable(cause: string): ApiError {
  return new ApiError(422, 'Invalid', 'the server rejected our request due to an error in our request', {
    causes: [{ reason: 'UnexpectedServerResponse', message: cause }],
  });
}

function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw unprocessable(`invalid JSON pointer "${pointer}"`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Container = Record<string, unknown> | unknown[];

/** The container holding the last token of `path`, and that token. */
function parentOf(doc: unknown, path: string): { parent: Container; key: string } {
  const ts = tokens(path);
  if (ts.length === 0) throw unprocessable('cannot patch the document root');
  let cur: unknown = doc;
  for (const t of ts.slice(0, -1)) {
    cur = child(cur, t, path);
  }
  if (!isMap(cur) && !Array.isArray(cur)) throw unprocessable(`doc is missing path: "${path}": missing value`);
  return { parent: cur, key: ts[ts.length - 1]! };
}

function index(list: unknown[], t: string, path: string, forAdd: boolean): number {
  if (forAdd && t === '-') return list.length;
  if (!/^(0|[1-9][0-9]*)$/.test(t)) throw unprocessable(`doc is missing path: "${path}": missing value`);
  const i = Number(t);
  if (i > list.length || (!forAdd && i === list.length))
    throw unprocessable(`doc is missing path: "${path}": missing value`);
  return i;
}

function child(cur: unknown, t: string, path: string): unknown {
  if (Array.isArray(cur)) return cur[index(cur, t, path, false)];
  if (isMap(cur) && t in cur) return cur[t];
  throw unprocessable(`doc is missing path: "${path}": missing value`);
}

function get(doc: unknown, path: string): unknown {
  let cur = doc;
  for (const t of tokens(path)) cur = child(cur, t, path);
  return cur;
}

function add(doc: unknown, path: string, value: unknown): void {
  const { parent, key } = parentOf(doc, path);
  if (Array.isArray(parent)) parent.splice(index(parent, key, path, true), 0, value);
  else parent[key] = value;
}

function remove(doc: unknown, path: string): unknown {
  const { parent, key } = parentOf(doc, path);
  if (Array.isArray(parent)) return parent.splice(index(parent, key, path, false), 1)[0];
  if (!(key in parent)) throw unprocessable(`doc is missing path: "${path}": missing value`);
  const v = parent[key];
  delete parent[key];
  return v;
}

export function applyJsonPatch(target: unknown, ops: readonly Operation[]): unknown {
  const doc = clone(target);
  for (const o of ops) {
    switch (o.op) {
      case 'add':
        add(doc, o.path, clone(o.value));
        break;
      case 'remove':
        remove(doc, o.path);
        break;
      case 'replace':
        remove(doc, o.path);
        add(doc, o.path, clone(o.value));
        break;
      case 'move':
        add(doc, o.path, remove(doc, o.from!));
        break;
      case 'copy':
        add(doc, o.path, clone(get(doc, o.from!)));
        break;
      case 'test':
        if (!deepEqual(get(doc, o.path), o.value)) throw unprocessable(`testing value ${o.path} failed: test failed`);
        break;
    }
  }
  return doc;
}
