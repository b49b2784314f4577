/**
 * The one keyboard listener. Keys go first to the mode the console is in (typing a command or
 * a filter, confirming, reading the help, picking a context), which consumes them; in the
 * normal mode the action registry says what a key means where the user is. The handler is
 * read through a ref, so Ink keeps a single subscription however often the screen redraws.
 */
import { useCallback, useRef, type Dispatch } from 'react';
import { useInput, type Key } from 'ink';
import { actionFor, type Bindings } from '../actions.js';
import { keyName } from '../keys.js';
import type { NavAction, NavState } from '../navigation.js';
import { completions } from '../palette.js';
import type { Commands } from './useCommands.js';
import type { Screen } from './useScreen.js';

/** What a text field does with a key: the new text, or 'submit' / 'cancel'. */
function edit(text: string, name: string, input: string, key: Key): string | 'submit' | 'cancel' {
  if (name === 'esc') return 'cancel';
  if (name === 'enter') return 'submit';
  if (name === 'backspace') return text.slice(0, -1);
  if (key.ctrl || key.meta || name === 'tab' || name === 'shift+tab' || name.length > 1 && input.length === 0) return text;
  return text + input;
}

export function useKeyRouter(nav: NavState, dispatch: Dispatch<NavAction>, commands: Commands, screen: Screen, bindings: Bindings, page: number): void {
  const handler = (input: string, key: Key) => {
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
          if (m.input === typed) return commands.answer(true);
          return dispatch({ type: 'message', message: { tone: 'warning', text: `type ${typed} exactly to go ahead, or esc to cancel` } });
        }
        return dispatch({ type: 'mode', mode: { kind: 'confirm', confirm: m.confirm, input: next } });
      }
      case 'help': {
        const a = actionFor(name, { ...screen.ctx, focus: 'main', view: 'diff' }, bindings);
        if (name === 'esc' || a?.id === 'help' || a?.id === 'quit') return dispatch({ type: 'mode', mode: { kind: 'normal' } });
        const by = { up: -1, down: 1, pageUp: -page, pageDown: page, top: -Infinity, bottom: Infinity } as Record<string, number>;
        if (a && a.id in by) dispatch({ type: 'scroll', to: Math.min(10_000, nav.scroll + by[a.id]) });
        return;
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
  const stable = useCallback((input: string, key: Key) => latest.current(input, key), []);
  useInput(stable);
}
