import { describe, expect, it } from 'vitest';
import { actionFor, DEFAULT_BINDINGS, visibleActions, type ActionContext } from './actions.js';
import { parseKeymap } from './keymap.js';

const ctx: ActionContext = { focus: 'main', view: 'resources', readOnly: false, running: false, filtered: false };

describe('the action registry', () => {
  it('finds the action a key means where it applies', () => {
    expect(actionFor('a', ctx, DEFAULT_BINDINGS)?.id).toBe('apply');
    expect(actionFor('x', ctx, DEFAULT_BINDINGS)).toBeUndefined();
    expect(actionFor('x', { ...ctx, running: true }, DEFAULT_BINDINGS)?.id).toBe('interrupt');
    expect(actionFor('esc', { ...ctx, focus: 'tree' }, DEFAULT_BINDINGS)).toBeUndefined();
  });

  it('hides mutating actions in read-only mode but still knows them, to say why it refuses', () => {
    const ids = visibleActions({ ...ctx, readOnly: true }, DEFAULT_BINDINGS).map((a) => a.def.id);
    expect(ids).not.toContain('apply');
    expect(ids).not.toContain('destroy');
    expect(actionFor('D', { ...ctx, readOnly: true }, DEFAULT_BINDINGS)?.mutating).toBe(true);
  });
});

describe('parseKeymap', () => {
  it('rebinds actions and takes a rebound key away from its default action', () => {
    const { bindings, problems } = parseKeymap(
      'apply: A\ndown: [j, down, ctrl+n]\nrefresh: a\n',
      '/ws/.kdeck/keymap.yaml',
    );
    expect(problems).toEqual([]);
    expect(bindings.get('apply')).toEqual(['A']);
    expect(bindings.get('down')).toEqual(['j', 'down', 'ctrl+n']);
    expect(bindings.get('refresh')).toEqual(['a']);
    expect(actionFor('a', ctx, bindings)?.id).toBe('refresh');
  });

  it('keeps the good entries and reports each bad one with its line', () => {
    const { bindings, problems } = parseKeymap('apply: A\naply: b\ndestroy: ctrl+shift+d\n', '/ws/.kdeck/keymap.yaml');
    expect(bindings.get('apply')).toEqual(['A']);
    expect(bindings.get('destroy')).toEqual(['D']);
    expect(problems).toEqual([
      expect.stringMatching(/^\/ws\/\.kdeck\/keymap\.yaml:2: no action is called aply; the actions are up, down, /),
      expect.stringMatching(/^\/ws\/\.kdeck\/keymap\.yaml:3: "ctrl\+shift\+d" is not a key for destroy; /),
    ]);
  });

  it('falls back to the defaults on a file that is not YAML', () => {
    const { bindings, problems } = parseKeymap('apply: [A\n', 'k.yaml');
    expect(bindings).toBe(DEFAULT_BINDINGS);
    expect(problems[0]).toMatch(/^k\.yaml:\d+: not valid YAML/);
  });
});
