import { describe, expect, it } from 'vitest';
import { affectedStacks } from './affected.js';

const inputs = new Map([
  [
    'shop/dev',
    {
      files: ['/ws/apps/shop/dev/main.k', '/ws/apps/shop/base/base.k', '/ws/base/pkg/models/server.k'],
      folders: ['/ws/apps/shop/dev', '/ws/base/pkg/models'],
    },
  ],
  [
    'shop/prod',
    {
      files: ['/ws/apps/shop/prod/main.k', '/ws/apps/shop/base/base.k', '/ws/base/pkg/models/server.k'],
      folders: ['/ws/apps/shop/prod', '/ws/base/pkg/models'],
    },
  ],
  ['blog/dev', undefined],
]);

describe('affectedStacks', () => {
  it('names the stacks that read a changed file, and the ones not compiled yet', () => {
    expect(affectedStacks(['/ws/apps/shop/dev/main.k'], inputs)).toEqual({
      stacks: ['shop/dev', 'blog/dev'],
      layout: false,
    });
    expect(affectedStacks(['/ws/apps/shop/base/base.k'], inputs).stacks).toEqual(['shop/dev', 'shop/prod', 'blog/dev']);
  });

  it('counts a file that appears in a package folder a stack imports', () => {
    expect(
      affectedStacks(['/ws/base/pkg/models/new.k'], new Map([...inputs].filter(([k]) => k !== 'blog/dev'))).stacks,
    ).toEqual(['shop/dev', 'shop/prod']);
  });

  it('notices a stack or project file, which may add or remove stacks', () => {
    expect(affectedStacks(['/ws/apps/news/dev/stack.yaml'], new Map()).layout).toBe(true);
  });
});
