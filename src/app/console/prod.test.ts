import { describe, expect, it } from 'vitest';
import { prodContexts } from './prod.js';

const stack = (name: string, cluster?: string) => ({
  name,
  dir: '/x',
  path: 'x',
  project: { name: 'p', dir: '/p' },
  ...(cluster ? { cluster } : {}),
});

describe('prodContexts', () => {
  it('takes contexts whose name or cluster says prod, and those prod stacks name', () => {
    const contexts = [
      { name: 'dev-eu' },
      { name: 'prod-eu' },
      { name: 'kind-production' },
      { name: 'reproduce' },
      { name: 'sandbox-b' },
      { name: 'team', cluster: 'eu-prod-1' },
    ];
    expect(
      [...prodContexts(contexts, [stack('prod', 'sandbox-b'), stack('prod'), stack('dev', 'dev-eu')])].sort(),
    ).toEqual(['kind-production', 'prod-eu', 'sandbox-b', 'team']);
  });
});
