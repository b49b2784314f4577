import { describe, expect, it } from 'vitest';
import { pointerTokens, referencesIn } from './references.js';
import { atPointer, resolveReferences } from './resolve.js';

describe('implicit references', () => {
  it('finds whole-string and embedded references anywhere in the attributes, with their place', () => {
    const attributes = {
      spec: {
        containers: [
          {
            env: [
              { name: 'HOST', value: '${ref:v1:Service:shop:db#/spec/clusterIP}' },
              {
                name: 'URL',
                value:
                  'http://${ref:v1:Service:shop:api#/spec/clusterIP}:${ref:v1:Service:shop:api#/spec/ports/0/port}/',
              },
            ],
          },
        ],
      },
      metadata: { annotations: { 'kdeck.dev/a~b': '${ref:networking.k8s.io/v1:Ingress:shop:web.v2#/status}' } },
    };
    expect(referencesIn(attributes)).toEqual([
      { at: '/spec/containers/0/env/0/value', target: 'v1:Service:shop:db', pointer: '/spec/clusterIP', whole: true },
      { at: '/spec/containers/0/env/1/value', target: 'v1:Service:shop:api', pointer: '/spec/clusterIP', whole: false },
      {
        at: '/spec/containers/0/env/1/value',
        target: 'v1:Service:shop:api',
        pointer: '/spec/ports/0/port',
        whole: false,
      },
      {
        at: '/metadata/annotations/kdeck.dev~1a~0b',
        target: 'networking.k8s.io/v1:Ingress:shop:web.v2',
        pointer: '/status',
        whole: true,
      },
    ]);
  });

  it("reads kusion's $kusion_path references", () => {
    expect(referencesIn({ a: '$kusion_path.v1:Service:shop:db.spec.clusterIP' })).toEqual([
      { at: '/a', target: 'v1:Service:shop:db', pointer: '/spec/clusterIP', whole: true },
    ]);
  });

  it('leaves ordinary strings alone, kcl-looking and Kubernetes $(VAR) ones included', () => {
    expect(referencesIn({ a: '${name}', b: '$(POD_NAME).svc', c: 'ref:v1:Service:x#/y' })).toEqual([]);
  });

  it('parses JSON pointers with their escapes', () => {
    expect(pointerTokens('')).toEqual([]);
    expect(pointerTokens('/metadata/labels/app.kubernetes.io~1name')).toEqual([
      'metadata',
      'labels',
      'app.kubernetes.io/name',
    ]);
    expect(pointerTokens('spec')).toBeUndefined();
    expect(pointerTokens('/a~2b')).toBeUndefined();
  });
});

describe('resolving references', () => {
  const live: Record<string, unknown> = {
    'v1:Service:shop:db': { spec: { clusterIP: '10.96.0.7', ports: [{ port: 5432 }] } },
  };
  const lookup = (id: string) => live[id];

  it('keeps the type of a whole-string reference and writes the text of an embedded one', () => {
    const { value, unresolved } = resolveReferences(
      {
        port: '${ref:v1:Service:shop:db#/spec/ports/0/port}',
        url: 'postgres://${ref:v1:Service:shop:db#/spec/clusterIP}:${ref:v1:Service:shop:db#/spec/ports/0/port}/app',
        legacy: '$kusion_path.v1:Service:shop:db.spec.clusterIP',
      },
      lookup,
    );
    expect(value).toEqual({ port: 5432, url: 'postgres://10.96.0.7:5432/app', legacy: '10.96.0.7' });
    expect(unresolved).toEqual([]);
  });

  it('leaves what it cannot resolve as written, and says so', () => {
    const attributes = {
      a: '${ref:v1:Service:shop:api#/spec/clusterIP}',
      b: 'x-${ref:v1:Service:shop:db#/spec/missing}',
    };
    const { value, unresolved } = resolveReferences(attributes, lookup);
    expect(value).toEqual(attributes);
    expect(unresolved.map((r) => `${r.target}#${r.pointer}`)).toEqual([
      'v1:Service:shop:api#/spec/clusterIP',
      'v1:Service:shop:db#/spec/missing',
    ]);
  });

  it('reads JSON pointers through maps and list indices', () => {
    expect(atPointer({ a: [{ b: 1 }] }, '/a/0/b')).toBe(1);
    expect(atPointer({ a: [] }, '/a/0')).toBeUndefined();
    expect(atPointer({ 'x/y': 2 }, '/x~1y')).toBe(2);
  });
});
