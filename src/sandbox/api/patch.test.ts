import { describe, expect, it } from 'vitest';
import { decodePatch } from './patch.js';

describe('an apply document', () => {
  it('reads JSON as the YAML it is part of', () => {
    const text = JSON.stringify({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a "quoted": name', labels: { 'x/y': ':' } },
      data: { list: '[":z", "w"]', empty: '' },
      nested: [[{ k: ':v' }, ':'], {}],
      n: [1, -2.5, 1e3, true, null],
    });
    expect(decodePatch('apply', text)).toEqual(decodePatch('apply', text.replace(/^\{/, ' {')));
    expect(decodePatch('apply', text)).toEqual(JSON.parse(text));
  });

  it('reads YAML', () => {
    expect(decodePatch('apply', 'kind: ConfigMap\ndata:\n  a: "1"\n')).toEqual({ kind: 'ConfigMap', data: { a: '1' } });
  });

  it('refuses a key written twice, in JSON as in YAML', () => {
    for (const text of ['{"kind": "ConfigMap", "data": {"a": "1", "a": "2"}}', 'kind: ConfigMap\nkind: Secret\n'])
      expect(() => decodePatch('apply', text)).toThrow(expect.objectContaining({ code: 400 }));
  });
});
