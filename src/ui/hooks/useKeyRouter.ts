/**
 * The one keyboard listener. Keys go first to the mode the console is in (typing a command or
 * a filter, confirming, reading the help, picking a context), which consumes them; in the
 * normal mode the action registry says what a key means where the user is. Each key reads the
 * navigation afresh (not the last render's), so keys that arrive together act in order; the
 * handler is read through a ref, so Ink keeps one subscription however often the screen redraws.
 */
import { confirmedBy } from '../../app/console/confirmation.js';
import { useCallback, useRef } from 'react';
import { useInput, type Key } from 'ink';
import { actionFor, type Bindings } from '../actions.js';
import { keyName } from '../keys.js';
import type { NavAction } from '../navigation.js';
import { completions } from '../palette.js';
import type { Commands, Now } from './useCommands.js';

/** What a text field does with a key: the new text, or 'submit' / 'cancel'. */
function edit(text: string, name: string, input: string, key: Key): string | 'submit' | 'cancel' {
  if (name === 'esc') return 'cancel';
  if (name === 'enter') return 'submit';
  if (name === 'backspace') return text.slice(0, -1);
  if (key.ctrl || key.meta || name === 'tab' || name === 'shift+tab' || (name.length > 1 && input.length === 0))
    return text;
  return text + input;
}

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/**
 * Keys that arrive together (fast typing, a paste, tmux send-keys) come from Ink as one input;
 * they are taken apart into single keys, Enter, Tab and Backspace included.
 */
function burst(input: string, key: Key): { input: string; key: Key }[] {
  const chars = [...input];
  if (chars.length < 2 || key.ctrl || key.meta) return [{ input, key }];
  return chars.flatMap((ch) => {
    if (ch === '\r' || ch === '\n') return [{ input: '', key: { ...NO_KEY, return: true } }];
    if (ch === '\t') return [{ input: '', key: { ...NO_KEY, tab: true } }];
    if (ch === '\u007F' || ch === '\b') return [{ input: '', key: { ...NO_KEY, backspace: true } }];
    if (ch < ' ') return [];
    return [{ input: ch, key: { ...NO_KEY, shift: ch !== ch.toLowerCase() } }];
  });
}

export function useKeyRouter(
  now: () => Now,
  dispatch: (a: NavAction) => void,
  commands: Commands,
  bindings: Bindings,
  page: number,
): void {
  const handler = (input: string, key: Key) => {
    const { nav, screen } = now();
    const name = keyName(input, key);
    const m = nav.mode;
    switch (m.kind) {
      case 'palette': {
        if (name === 'tab') {
          const options = completions(m.text);
          if (options.length === 1) dispatch({ type: 'mode', mode: { kind: 'palette', text: `${options[0]} ` } });
          return;
        }
        const next = edit(m.text, name, input, key);
        if (next === 'cancel') return dispatch({ type: 'mode', mode: { kind: 'normal' } });
        if (next === 'submit') return commands.runLine(m.text);
        return dispatch({ type: 'mode', mode: { kind: 'palette', text: next } });
      }
      case 'filter': {
        const next = edit(m.text, name, input, key);
        if (next === 'cancel') {
          dispatch({ type: 'filter', text: '' });
          return dispatch({ type: 'mode', mode: { kind: 'normal' } });
        }
        if (next === 'submit') return dispatch({ type: 'mode', mode: { kind: 'normal' } });
        // the list filters as the user types
        dispatch({ type: 'filter', text: next });
        return dispatch({ type: 'mode', mode: { kind: 'filter', text: next } });
      }
      case 'confirm': {
        const typed = m.confirm.typed;
        if (!typed) {
          if (name === 'y' || name === 'Y') return commands.answer(true);
          if (name === 'n' || name === 'N' || name === 'esc' || name === 'enter') return commands.answer(false);
          return;
        }
        const next = edit(m.input, name, input, key);
        if (next === 'cancel') return commands.answer(false);
        if (next === 'submit') {
          if (confirmedBy(m.confirm, m.input)) return commands.answer(true);
          return dispatch({
            type: 'message',
            message: {
              tone: 'warning',
              text: `type ${typed} to go ahead (every production context it touches), or esc to cancel`,
            },
          });
        }
        return dispatch({ type: 'mode', mode: { kind: 'confirm', confirm: m.confirm, input: next } });
      }
      case 'help': {
        const a = actionFor(name, { ...screen.ctx, focus: 'main', view: 'diff' }, bindings);
        if (name === 'esc' || a?.id === 'help' || a?.id === 'quit')
          return dispatch({ type: 'mode', mode: { kind: 'normal' } });
        const by = { up: -1, down: 1, pageUp: -page, pageDown: page, top: -Infinity, bottom: Infinity } as Record<
          string,
          number
        >;
        if (a && a.id in by) dispatch({ type: 'scroll', to: Math.min(10_000, nav.scroll + by[a.id]) });
        return;
      }
      case 'search': {
        const next = edit(m.text, name, input, key);
        if (next === 'cancel') {
          dispatch({ type: 'logView', change: { search: '' } });
          return dispatch({ type: 'mode', mode: { kind: 'normal' } });
        }
        if (next === 'submit') return dispatch({ type: 'mode', mode: { kind: 'normal' } });
        // matches light up as the user types
        dispatch({ type: 'logView', change: { search: next } });
        return dispatch({ type: 'mode', mode: { kind: 'search', text: next } });
      }
      case 'containers': {
        if (name === 'esc') return dispatch({ type: 'mode', mode: { kind: 'normal' } });
        const containers = nav.logs?.feed.store.get().containers ?? [];
        if (name === 'enter') return commands.pickContainer(containers[m.index - 1]);
        const a = actionFor(name, screen.ctx, bindings);
        const by = a?.id === 'up' ? -1 : a?.id === 'down' ? 1 : 0;
        const index = Math.min(containers.length, Math.max(0, m.index + by));
        return dispatch({ type: 'mode', mode: { kind: 'containers', index } });
      }
      case 'contexts':
        // ink-select-input has the other keys
        if (name === 'esc') dispatch({ type: 'mode', mode: { kind: 'normal' } });
        return;
      case 'normal': {
        const a = actionFor(name, screen.ctx, bindings);
        if (a) commands.run(a.id);
      }
    }
  };
  const latest = useRef(handler);
  latest.current = handler;
  // keys are handled in the order they came, each reading where the one before led
  const stable = useCallback((input: string, key: Key) => {
    for (const k of burst(input, key)) latest.current(k.input, k.key);
  }, []);
  useInput(stable);
}
