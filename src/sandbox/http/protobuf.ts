/**
 * Request bodies in Kubernetes protobuf (`application/vnd.kubernetes.protobuf`), which kubectl's
 * typed clients send — `kubectl create deployment|configmap|secret|namespace|…` — and which have
 * no JSON fallback. The body is the `k8s\0` magic and a runtime.Unknown envelope around the
 * object's own message; both are decoded with the field numbers of `./protobuf-schema.ts` into
 * the JSON the rest of the sandbox reads. A field the schema does not list is refused (415), not
 * dropped.
 */
import { unsupportedMediaType } from '../api/errors.js';
import { MESSAGES, PROTOBUF_KINDS, type FieldSpec, type FieldType } from './protobuf-schema.js';
import { rfc3339 } from '../time.js';

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

class Reader {
  pos = 0;
  constructor(readonly buf: Buffer) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.buf.length || shift > 63n) throw refuse('a varint runs past the end of the body');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  }

  bytes(): Buffer {
    const n = Number(this.varint());
    if (this.pos + n > this.buf.length) throw refuse('a field runs past the end of the body');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 2) this.bytes();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 5) this.pos += 4;
    else throw refuse(`wire type ${wireType} is not supported`);
  }
}

function refuse(why: string) {
  const e = unsupportedMediaType(['application/json', 'application/yaml']);
  e.message = `the sandbox could not read this protobuf body (${why}); send JSON or YAML instead, e.g. kubectl create … --dry-run=client -o yaml | kubectl apply -f -`;
  return e;
}

const int = (v: bigint) => Number(BigInt.asIntN(64, v));

/** Fields of one message, in the order they come. */
function fields(buf: Buffer, visit: (field: number, wireType: number, r: Reader) => void): void {
  const r = new Reader(buf);
  while (!r.done) {
    const key = r.varint();
    visit(Number(key >> 3n), Number(key & 7n), r);
  }
}

function scalarMessage(buf: Buffer, type: 'time' | 'quantity' | 'intOrString'): unknown {
  const got: Record<number, bigint | Buffer> = {};
  fields(buf, (f, w, r) => {
    got[f] = w === 0 ? r.varint() : w === 2 ? r.bytes() : (r.skip(w), 0n);
  });
  if (type === 'quantity') return got[1] instanceof Buffer ? got[1].toString('utf8') : undefined;
  if (type === 'time') {
    const seconds = typeof got[1] === 'bigint' ? int(got[1]) : 0;
    return seconds === 0 ? undefined : rfc3339(seconds * 1000);
  }
  const isString = typeof got[1] === 'bigint' && got[1] === 1n;
  if (isString) return got[3] instanceof Buffer ? got[3].toString('utf8') : '';
  return typeof got[2] === 'bigint' ? int(got[2]) : 0;
}

function mapEntry(buf: Buffer, valueType: FieldType): [string, unknown] {
  let key = '';
  let value: unknown = '';
  fields(buf, (f, w, r) => {
    if (f === 1 && w === 2) key = r.bytes().toString('utf8');
    else if (f === 2 && w === 2) {
      const b = r.bytes();
      value =
        valueType === 'map:bytes'
          ? b.toString('base64')
          : valueType === 'map:quantity'
            ? scalarMessage(b, 'quantity')
            : b.toString('utf8');
    } else r.skip(w);
  });
  return [key, value];
}

function scalar(type: FieldType, w: number, r: Reader): unknown {
  switch (type) {
    case 'string':
      return r.bytes().toString('utf8');
    case 'bytes':
      return r.bytes().toString('base64');
    case 'bool':
      return r.varint() !== 0n;
    case 'int32':
    case 'int64':
      return int(r.varint());
    case 'time':
    case 'quantity':
    case 'intOrString':
      return scalarMessage(r.bytes(), type);
    default:
      r.skip(w);
      return undefined;
  }
}

/** An empty string, or a message whose every field is zero or blank itself. */
function isBlank(buf: Buffer): boolean {
  if (buf.length === 0) return true;
  try {
    let blank = true;
    fields(buf, (_f, w, r) => {
      if (w === 0) blank &&= r.varint() === 0n;
      else if (w === 2) blank &&= isBlank(r.bytes());
      else blank = false;
    });
    return blank;
  } catch {
    return false;
  }
}

function isZero(v: unknown): boolean {
  return v === '' || v === 0 || v === false || v === undefined;
}

function message(buf: Buffer, name: string): Record<string, unknown> {
  const schema = MESSAGES[name];
  if (!schema) throw refuse(`no schema for ${name}`);
  const out: Record<string, unknown> = {};
  fields(buf, (f, w, r) => {
    const spec: FieldSpec | undefined = schema[f];
    if (!spec) {
      // Go serialises every non-pointer field, set or not: one holding only zeros carries nothing
      const blank = w === 0 ? r.varint() === 0n : w === 2 ? isBlank(r.bytes()) : (r.skip(w), false);
      if (!blank) throw refuse(`field ${f} of ${name} is not one the sandbox reads`);
      return;
    }
    const [json, type, flags = ''] = spec;
    let value: unknown;
    if (type.startsWith('msg:')) value = message(r.bytes(), type.slice(4));
    else if (type.startsWith('map:')) {
      const [k, v] = mapEntry(r.bytes(), type);
      const m = (out[json] as Record<string, unknown> | undefined) ?? {};
      m[k] = v;
      out[json] = m;
      return;
    } else if (w === 2 && (type === 'int32' || type === 'int64')) {
      // a packed repeated integer field
      const packed = new Reader(r.bytes());
      const list = (out[json] as unknown[] | undefined) ?? [];
      while (!packed.done) list.push(int(packed.varint()));
      out[json] = list;
      return;
    } else value = scalar(type, w, r);
    if (flags.includes('i') && typeof value === 'object' && value !== null) {
      Object.assign(out, value);
      return;
    }
    if (flags.includes('r')) {
      const list = (out[json] as unknown[] | undefined) ?? [];
      list.push(value);
      out[json] = list;
      return;
    }
    if (isZero(value) && !flags.includes('z')) return;
    if (value !== undefined) out[json] = value;
  });
  return out;
}

/** A protobuf request body as the JSON object it stands for. */
export function decodeProtobuf(body: Buffer): Record<string, unknown> {
  if (body.length < MAGIC.length || !body.subarray(0, MAGIC.length).equals(MAGIC))
    throw refuse('it does not start with the k8s protobuf magic');
  let apiVersion = '';
  let kind = '';
  let raw: Buffer | undefined;
  fields(body.subarray(MAGIC.length), (f, w, r) => {
    if (f === 1 && w === 2) {
      fields(r.bytes(), (tf, tw, tr) => {
        if (tf === 1 && tw === 2) apiVersion = tr.bytes().toString('utf8');
        else if (tf === 2 && tw === 2) kind = tr.bytes().toString('utf8');
        else tr.skip(tw);
      });
    } else if (f === 2 && w === 2) raw = r.bytes();
    else r.skip(w);
  });
  if (!PROTOBUF_KINDS.has(kind) || raw === undefined)
    throw refuse(`the sandbox reads protobuf only for ${[...PROTOBUF_KINDS].join(', ')}`);
  return { apiVersion, kind, ...message(raw, kind) };
}
