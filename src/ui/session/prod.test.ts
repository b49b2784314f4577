import { describe, expect, it } from 'vitest';
import { prodContexts } from './prod.js';

const stack = (name: string, cluster?: string) => ({ name, dir: '/x', path: 'x', project: { name: 'p', dir: '/p' }, ...(cluster ? { cluster } : {}) });

describe('prodContexts', () => {
  it('takes contexts named prod and those prod stacks name', () => {
    expect([...prodContexts(['dev-eu', 'prod-eu', 'kind-production', 'reproduce', 'sandbox-b'], [stack('prod', 'sandbox-b'), stack('prod'), stack('dev', 'dev-eu')])].sort()).toEqual(['kind-production', 'prod-eu', 'sandbox-b']);
  });
});
