import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import type { KubeObject } from './object.js';
import {
  matchesFields,
  matchesLabels,
  parseFieldSelector,
  parseLabelSelector,
  selectorFromObject,
} from './selectors.js';

const labels = { app: 'web', tier: 'front', track: 'stable' };

function status(f: () => unknown): number {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    throw e;
  }
  return 0;
}

describe('label selectors', () => {
  it.each([
    ['app=web', true],
    ['app==web', true],
    ['app!=web', false],
    ['app in (api, web)', true],
    ['app notin (web)', false],
    ['tier', true],
    ['!tier', false],
    ['!missing', true],
    ['app=web,tier=back', false],
    ['app in (web),track notin (canary),tier', true],
    ['missing!=x', true],
    ['', true],
  ])('%s matches %s', (text, want) => {
    expect(matchesLabels(parseLabelSelector(text), labels)).toBe(want);
  });

  it('refuses a malformed selector with 400', () => {
    expect(status(() => parseLabelSelector('app in (web'))).toBe(400);
    expect(status(() => parseLabelSelector('app=web,,tier'))).toBe(400);
    expect(status(() => parseLabelSelector('bad key!=x'))).toBe(400);
  });

  it('reads matchLabels and matchExpressions; no selector matches nothing, an empty one everything', () => {
    const sel = selectorFromObject({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'track', operator: 'NotIn', values: ['canary'] },
        { key: 'tier', operator: 'Exists' },
      ],
    });
    expect(matchesLabels(sel!, labels)).toBe(true);
    expect(matchesLabels(sel!, { app: 'web', track: 'canary', tier: 'x' })).toBe(false);
    expect(selectorFromObject(undefined)).toBeUndefined();
    expect(matchesLabels(selectorFromObject({})!, {})).toBe(true);
  });
});

describe('field selectors', () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns' },
    spec: { nodeName: 'n1' },
    status: { phase: 'Running' },
  } as KubeObject;

  it('selects on the fields each kind offers', () => {
    expect(matchesFields(parseFieldSelector('spec.nodeName=n1,status.phase!=Pending', 'Pod'), pod)).toBe(true);
    expect(matchesFields(parseFieldSelector('metadata.name==q', 'Pod'), pod)).toBe(false);
    expect(matchesFields(parseFieldSelector('metadata.namespace=ns', 'ConfigMap'), pod)).toBe(true);
  });

  it("refuses a field the kind does not offer, with the server's message", () => {
    try {
      parseFieldSelector('spec.nodeName=n1', 'Deployment');
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ code: 400, message: 'field label not supported: spec.nodeName' });
    }
  });
});
