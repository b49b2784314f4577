import { describe, expect, it } from 'vitest';
import { initialNav, navigate, step } from './navigation.js';

describe('navigation', () => {
  it('goes back along the views shown, then to the stacks', () => {
    let s = navigate(initialNav, { type: 'show', view: 'graph' });
    s = navigate(s, { type: 'show', view: 'diff' });
    expect([s.view, s.focus]).toEqual(['diff', 'main']);
    s = navigate(s, { type: 'back' });
    expect(s.view).toBe('graph');
    s = navigate(navigate(s, { type: 'back' }), { type: 'back' });
    expect([s.view, s.focus]).toEqual(['resources', 'tree']);
  });

  it('clears the focused filter before going back', () => {
    let s = navigate({ ...initialNav, focus: 'main' }, { type: 'filter', text: 'deploy' });
    s = navigate(s, { type: 'back' });
    expect([s.filters.main, s.focus]).toEqual(['', 'main']);
  });

  it('steps through keys, clamped at both ends', () => {
    expect(step(['a', 'b', 'c'], 'b', 1)).toBe('c');
    expect(step(['a', 'b', 'c'], 'c', 5)).toBe('c');
    expect(step(['a', 'b', 'c'], 'a', -1)).toBe('a');
    expect(step(['a', 'b'], 'gone', 1)).toBe('a');
    expect(step([], undefined, 1)).toBeUndefined();
  });
});
