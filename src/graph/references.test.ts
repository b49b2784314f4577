import { describe, expect, it } from 'vitest';
import { pointerTokens, referencesIn } from './references.js';

describe('implicit references', () => {
  it('finds whole-string and embedded references anywhere in the attributes, with their place', () => {
    const attributes = {
      spec: {
        containers: [
          {
            env: [
              { name: 'HOST', value: '${ref:v1:Service:shop:db#/spec/clusterIP}' },
              { name: 'URL', value: 'http://${ref:v1:Service:shop:api#/spec/clusterIP}:${ref:v1:Service:shop:api#/spec/ports/0/port}/' },
            ],
          },
        ],
      },
      metadata: { annotations: { 'kdeck.dev/a~b': '${ref:networking.k8s.io/v1:Ingress:shop:web.v2#/status}' } },
    };
    expect(referencesIn(attributes)).toEqual([
      { at: '/spec/containers/0/env/0/value', target: 'v1:Service:shop:db', pointer: '/spec/clusterIP', whole: true },
      { at: '/spec/containers/0/env/1/value', target: 'v1:Service:shop:api', pointer: '/spec/clusterIP', whole: false },
      { at: '/spec/containers/0/env/1/value', target: 'v1:Service:shop:api', pointer: '/spec/ports/0/port', whole: false },
      { at: '/metadata/annotations/kdeck.dev~1a~0b', target: 'networking.k8s.io/v1:Ingress:shop:web.v2', pointer: '/status', whole: true },
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
    expect(pointerTokens('/metadata/labels/app.kubernetes.io~1name')).toEqual(['metadata', 'labels', 'app.kubernetes.io/name']);
    expect(pointerTokens('spec')).toBeUndefined();
    expect(pointerTokens('/a~2b')).toBeUndefined();
  });
});
