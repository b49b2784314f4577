/**
 * Where the user is: which pane has the keys, which view the main pane shows (and the views
 * visited before it, for esc), the selected stack and resource, the filters, and the mode the
 * keyboard is in (normal, typing a filter or a command, reading the help, confirming). A pure
 * reducer; selections are kept by key (project/stack, cluster+id), so a new plan does not move
 * them.
 */
import type { Confirmation } from '../app/console/confirmation.js';
import type { Focus } from './actions.js';
import { changedLog, type LogNav, type LogNavChange } from './log-nav.js';
import type { DrillPage } from './drill.js';
import type { Tone } from '../views/theme.js';
import type { ViewId } from './views.js';

export type Mode =
  | { kind: 'normal' }
  | { kind: 'filter'; text: string }
  | { kind: 'palette'; text: string }
  | { kind: 'help' }
  | { kind: 'confirm'; confirm: Confirmation; input: string }
  | { kind: 'contexts' }
  /** Typing a search in the log view. */
  | { kind: 'search'; text: string }
  /** Picking the container the log view reads: the row at `index` (0: each pod's default). */
  | { kind: 'containers'; index: number };

/** What a message is about; it goes when that ends (status.ts). */
export type MessageOrigin =
  | { kind: 'operation'; stack: string }
  | { kind: 'recovery' }
  /** A rehearsal going on. */
  | { kind: 'rehearsal' }
  /** A compile asked for: the stack's count of ended compiles when it was asked. */
  | { kind: 'compile'; stack: string; compiles: number };

export interface Message {
  tone: Tone;
  text: string;
  origin?: MessageOrigin;
}

export interface NavState {
  focus: Focus;
  view: ViewId;
  /** Views shown before, for esc. */
  history: ViewId[];
  stack?: string;
  /** liveKey of the selected resource, shared by Resources, Graph and Diff. */
  resource?: string;
  filters: Record<Focus, string>;
  /** Lines scrolled: from the top in Diff and Help, from the newest in Events. */
  scroll: number;
  /** Diff: long values wrap over lines instead of showing one line each. */
  wrap: boolean;
  /** Diff: graphemes long values are scrolled sideways (0: each shows around its change). */
  shift: number;
  mode: Mode;
  message?: Message;
  /** The log view, over the main pane, when open. */
  logs?: LogNav;
  /** Pages about one object opened over the view (pods, describe, YAML), the top one shown. */
  drill?: readonly DrillPage[];
}

export type NavAction =
  | { type: 'pane' }
  | { type: 'focus'; focus: Focus }
  /** `stay`: the focus stays where it is (switching views from the stack tree). */
  | { type: 'show'; view: ViewId; stay?: boolean }
  | { type: 'back' }
  | { type: 'stack'; key: string }
  | { type: 'resource'; key: string | undefined }
  | { type: 'scroll'; to: number }
  | { type: 'wrap' }
  | { type: 'shift'; to: number }
  | { type: 'mode'; mode: Mode }
  | { type: 'filter'; text: string }
  | { type: 'message'; message?: Message }
  | { type: 'logs'; logs?: LogNav }
  | { type: 'logView'; change: LogNavChange }
  /** Opens a page about an object over the current one. */
  | { type: 'drill'; page: DrillPage }
  /** The top page, changed (its selection, scroll, sort). */
  | { type: 'drillPage'; page: DrillPage };

export const initialNav: NavState = {
  focus: 'tree',
  view: 'resources',
  history: [],
  filters: { tree: '', main: '' },
  scroll: 0,
  wrap: false,
  shift: 0,
  mode: { kind: 'normal' },
};

const HISTORY_LIMIT = 20;

export function navigate(s: NavState, a: NavAction): NavState {
  switch (a.type) {
    case 'pane':
      return { ...s, focus: s.focus === 'tree' ? 'main' : 'tree' };
    case 'focus':
      return s.focus === a.focus ? s : { ...s, focus: a.focus };
    case 'show': {
      const focus = a.stay ? s.focus : 'main';
      // a view's own key closes the pages opened over it
      if (s.view === a.view)
        return s.drill?.length
          ? { ...s, focus, drill: [], filters: { ...s.filters, main: s.drill[0].filterBelow } }
          : { ...s, focus };
      return {
        ...s,
        drill: [],
        focus,
        view: a.view,
        history: [...s.history, s.view].slice(-HISTORY_LIMIT),
        scroll: 0,
        shift: 0,
        filters: { ...s.filters, main: '' },
      };
    }
    case 'back': {
      if (s.filters[s.focus]) return { ...s, filters: { ...s.filters, [s.focus]: '' } };
      const page = s.focus === 'main' ? s.drill?.at(-1) : undefined;
      if (page) return { ...s, drill: s.drill!.slice(0, -1), filters: { ...s.filters, main: page.filterBelow } };
      const previous = s.history[s.history.length - 1];
      if (s.focus === 'main' && previous) return { ...s, view: previous, history: s.history.slice(0, -1), scroll: 0 };
      return { ...s, focus: 'tree' };
    }
    case 'stack':
      return s.stack === a.key ? s : { ...s, stack: a.key, resource: undefined, scroll: 0, drill: [] };
    case 'resource':
      return s.resource === a.key
        ? s
        : { ...s, resource: a.key, shift: 0, ...(s.view === 'diff' ? { scroll: 0 } : {}) };
    case 'scroll':
      return { ...s, scroll: Math.max(0, a.to) };
    case 'wrap':
      return { ...s, wrap: !s.wrap, shift: 0, scroll: 0 };
    case 'shift':
      return { ...s, shift: Math.max(0, a.to) };
    case 'mode':
      return { ...s, mode: a.mode, ...(a.mode.kind === 'help' ? { scroll: 0 } : {}) };
    case 'filter':
      return { ...s, filters: { ...s.filters, [s.focus]: a.text } };
    case 'message':
      return { ...s, message: a.message };
    case 'logs': {
      if (a.logs) return { ...s, logs: a.logs, focus: 'main' };
      const next = { ...s };
      delete next.logs;
      return next;
    }
    case 'logView':
      return s.logs ? { ...s, logs: changedLog(s.logs, a.change) } : s;
    case 'drill':
      return {
        ...s,
        focus: 'main',
        drill: [...(s.drill ?? []), { ...a.page, filterBelow: s.filters.main }],
        filters: { ...s.filters, main: '' },
      };
    case 'drillPage':
      return s.drill?.length ? { ...s, drill: [...s.drill.slice(0, -1), a.page] } : s;
  }
}

/** The key `delta` rows from `current` in `keys` (clamped), or the first when `current` is not there. */
export function step(keys: readonly string[], current: string | undefined, delta: number): string | undefined {
  if (keys.length === 0) return undefined;
  const at = current === undefined ? -1 : keys.indexOf(current);
  if (at === -1) return keys[0];
  return keys[Math.min(keys.length - 1, Math.max(0, at + delta))];
}
