import { describe, expect, it } from 'vitest';
import { decodeProtobuf } from './protobuf.js';

/** A minimal protobuf writer, enough to build the bodies kubectl sends. */
function varint(n: number): Buffer {
  const out: number[] = [];
  let v = BigInt.asUintN(64, BigInt(n));
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return Buffer.from(out);
}
const tag = (field: number, wire: number) => varint((field << 3) | wire);
const str = (field: number, s: string | Buffer) => {
  const b = typeof s === 'string' ? Buffer.from(s) : s;
  return Buffer.concat([tag(field, 2), varint(b.length), b]);
};
const num = (field: number, n: number) => Buffer.concat([tag(field, 0), varint(n)]);
const msg = (field: number, ...parts: Buffer[]) => str(field, Buffer.concat(parts));
const entry = (field: number, k: string, v: string | Buffer) => msg(field, str(1, k), str(2, v));

function envelope(apiVersion: string, kind: string, raw: Buffer): Buffer {
  return Buffer.concat([Buffer.from('k8s\u0000'), msg(1, str(1, apiVersion), str(2, kind)), str(2, raw)]);
}

describe('Kubernetes protobuf bodies', () => {
  it('decode a ConfigMap: metadata, data maps, empty fields left out', () => {
    const meta = Buffer.concat([
      str(1, 'cm'),
      str(2, ''),
      str(3, 'default'),
      msg(8, num(1, 0), num(2, 0)),
      entry(11, 'app', 'web'),
    ]);
    const body = envelope(
      'v1',
      'ConfigMap',
      Buffer.concat([msg(1, meta), entry(2, 'a', 'b'), entry(3, 'bin', Buffer.from([1, 2]))]),
    );
    expect(decodeProtobuf(body)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm', namespace: 'default', labels: { app: 'web' } },
      data: { a: 'b' },
      binaryData: { bin: 'AQI=' },
    });
  });

  it('keep a zero that Go holds in a pointer (replicas: 0), read int-or-strings, and skip blank messages', () => {
    const container = Buffer.concat([str(1, 'app'), str(2, 'nginx:1'), msg(6, num(3, 80)), msg(8)]);
    const spec = Buffer.concat([
      num(1, 0),
      msg(2, entry(1, 'app', 'web')),
      msg(3, msg(1, entry(11, 'app', 'web')), msg(2, msg(2, container))),
      msg(4, str(1, 'RollingUpdate'), msg(2, msg(1, num(1, 1), str(3, '25%')), msg(2, num(1, 0), num(2, 2)))),
      num(5, 0),
    ]);
    const blankStatus = msg(3, num(1, 0), num(2, 0), msg(6));
    const d = decodeProtobuf(
      envelope('apps/v1', 'Deployment', Buffer.concat([msg(1, str(1, 'web')), msg(2, spec), blankStatus])),
    );
    expect(d).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'app', image: 'nginx:1', ports: [{ containerPort: 80 }], resources: {} }] },
        },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 2 } },
      },
    });
  });

  it('refuse with 415 what they cannot read: another kind, a field not listed, a body without the magic', () => {
    expect(() => decodeProtobuf(envelope('v1', 'Pod', Buffer.alloc(0)))).toThrow(
      expect.objectContaining({ code: 415 }),
    );
    expect(() => decodeProtobuf(envelope('v1', 'ConfigMap', msg(99, str(1, 'x'))))).toThrow(
      expect.objectContaining({ code: 415 }),
    );
    expect(() => decodeProtobuf(Buffer.from('{"kind":"ConfigMap"}'))).toThrow(expect.objectContaining({ code: 415 }));
    expect(() => decodeProtobuf(Buffer.concat([Buffer.from('k8s\u0000'), Buffer.from([0x0a, 0xff])]))).toThrow(
      expect.objectContaining({ code: 415 }),
    );
  });
});
