/**
 * What keys and commands do: one handler per registry action and per `:` command, acting on
 * the navigation (where the user is) and the console's session (what happens). Refusals are
 * sentences on the status line, never silence.
 */
import { useRef } from 'react';
import { useApp } from 'ink';
import { actionDef, type ActionId, type Bindings } from '../actions.js';
import { confirmationFor, recoveryConfirmation, savedRunConfirmation } from '../../app/console/confirmation.js';
import { keyLabel } from '../keys.js';
import { step, type MessageOrigin, type Mode, type NavAction, type NavState } from '../navigation.js';
import { type Confirmation } from '../../app/console/confirmation.js';
import { matchStack, parseCommand, type PaletteCommand } from '../palette.js';
import type { ConsoleControl } from '../../app/console/control.js';
import type { RecoveryCommand } from '../../app/console/recovery.js';
import type { ConsoleState } from '../../app/console/state.js';
import { errorMessage } from '../../diagnostics/user-error.js';
import { VIEWS } from '../views.js';
import { secondsText } from '../../recovery/rehearsal-text.js';
import type { Screen } from './useScreen.js';
import { podCommands } from './pod-commands.js';
import { useSuspend, type Suspended } from './useSuspend.js';
import type { InteractiveCommand } from '../../app/pods/pod-tools.js';
import { objectCommands } from '../object-commands.js';

/** The actions that steer a running recovery, and the run machine's event each sends. */
const STEERING: Partial<Record<ActionId, RecoveryCommand>> = {
  'recovery.pause': 'PAUSE',
  'recovery.resume': 'RESUME',
  'recovery.abort': 'ABORT',
  'recovery.retry': 'RETRY',
  'recovery.skip': 'SKIP',
  'recovery.stop': 'STOP',
};

/** Graphemes a long value moves sideways per key. */
const SHIFT_STEP = 8;

export interface Commands {
  run(id: ActionId): void;
  runLine(line: string): void;
  /** The answer to the confirmation on screen. */
  answer(yes: boolean): void;
  pickContext(name: string): void;
  /** The container the log view reads (undefined: each pod's default). */
  pickContainer(name: string | undefined): void;
}

/** What the commands act on: read afresh for every key, not from the last render. */
export interface Now {
  state: ConsoleState;
  nav: NavState;
  screen: Screen;
}

export function useCommands(
  control: ConsoleControl,
  now: () => Now,
  dispatch: (a: NavAction) => void,
  bindings: Bindings,
  page: number,
): Commands {
  const { exit } = useApp();
  const quitArmed = useRef(false);
  const suspend = useSuspend();
  const deps = { control, dispatch, bindings, page, exit, quitArmed, suspend };
  return {
    run: (id) => commandsAt(now(), deps).run(id),
    runLine: (line) => commandsAt(now(), deps).runLine(line),
    answer: (yes) => commandsAt(now(), deps).answer(yes),
    pickContext: (name) => commandsAt(now(), deps).pickContext(name),
    pickContainer: (name) => commandsAt(now(), deps).pickContainer(name),
  };
}

interface Deps {
  control: ConsoleControl;
  dispatch: (a: NavAction) => void;
  bindings: Bindings;
  page: number;
  exit: () => void;
  quitArmed: { current: boolean };
  suspend: (command: InteractiveCommand) => Promise<Suspended>;
}

function commandsAt(
  { state, nav, screen }: Now,
  { control, dispatch, bindings, page, exit, quitArmed, suspend }: Deps,
): Commands {
  const say = (text: string, tone: 'muted' | 'warning' | 'danger' | 'ok' = 'muted', origin?: MessageOrigin) =>
    dispatch({ type: 'message', message: { tone, text, ...(origin ? { origin } : {}) } });
  const pods = podCommands({ state, nav, screen }, { control, dispatch, say, page, suspend });
  const mode = (m: Mode) => dispatch({ type: 'mode', mode: m });
  const stack = screen.stack;
  const keyOf = (id: ActionId) => keyLabel(bindings.get(id)?.[0] ?? '?');
  const objects = objectCommands({ state, nav, screen }, { control, dispatch, page, say });

  const move = (delta: number, absolute?: 'top' | 'bottom') => {
    const pick = (keys: readonly string[], current: string | undefined) =>
      absolute === 'top' ? keys[0] : absolute === 'bottom' ? keys[keys.length - 1] : step(keys, current, delta);
    if (nav.focus === 'tree') {
      const key = pick(
        screen.stacks.map((s) => s.key),
        stack?.key,
      );
      if (key) dispatch({ type: 'stack', key });
      return;
    }
    switch (nav.view) {
      case 'resources':
      case 'diff':
        dispatch({
          type: 'resource',
          key: pick(
            screen.rows.map((r) => r.key),
            screen.resource,
          ),
        });
        return;
      case 'graph':
        dispatch({ type: 'resource', key: pick(screen.graphOrder, screen.resource) });
        return;
      case 'events': {
        // events scroll back from the newest
        const to = absolute === 'top' ? state.events.length : absolute === 'bottom' ? 0 : nav.scroll - delta;
        dispatch({ type: 'scroll', to });
        return;
      }
      default:
        dispatch({
          type: 'scroll',
          to: absolute === 'top' ? 0 : absolute === 'bottom' ? Number.MAX_SAFE_INTEGER : nav.scroll + delta,
        });
    }
  };
  // rows move the selection, except where the view is one long text; pages scroll long texts
  const scrolls = (page: boolean) => nav.focus === 'main' && (nav.view === 'recovery' || (page && nav.view === 'diff'));
  const scrollOrMove = (delta: number, page = false) =>
    scrolls(page) ? dispatch({ type: 'scroll', to: nav.scroll + delta }) : move(delta);

  /**
   * A mutating action is refused in read-only mode and a dangerous one asks first, as the
   * registry says, with what it will do.
   */
  const guarded = (
    id: 'apply' | 'destroy' | 'recovery.run',
    confirmation: () => Confirmation | { refused: string },
  ) => {
    const def = actionDef(id);
    if (def.mutating && state.readOnly)
      return say(
        `${def.label} changes clusters and is refused in --read-only mode; restart without it to ${def.label}`,
        'warning',
      );
    const confirm = confirmation();
    if ('refused' in confirm) return say(confirm.refused, 'warning');
    if (!def.dangerous) return start(confirm);
    mode({ kind: 'confirm', confirm, input: '' });
  };

  const operate = (id: 'apply' | 'destroy', key = stack?.key, forceConflicts = false) => {
    const entry = state.stacks.find((s) => s.key === key);
    if (!entry) return say('no stack is selected', 'warning');
    dispatch({ type: 'stack', key: entry.key });
    guarded(id, () => confirmationFor(id, entry, state, forceConflicts));
  };

  const start = (c: Confirmation) => {
    if (c.object) return objects.start({ ...c, object: c.object });
    if (c.action === 'recover') {
      control.runRecovery().then(
        () =>
          say(
            `recovery ${c.subject} started; ${keyOf('recovery.pause')} pauses it, ${keyOf('recovery.abort')} aborts it`,
            'ok',
            { kind: 'recovery' },
          ),
        (e: unknown) => say(errorMessage(e), 'danger'),
      );
      return;
    }
    const operation = c.action;
    if (operation !== 'apply' && operation !== 'destroy') return;
    dispatch({ type: 'show', view: 'apply' });
    control.startOperation(c.subject, operation, c).then(
      () =>
        say(`${operation} ${c.subject} started; ${keyOf('interrupt')} stops it`, 'ok', {
          kind: 'operation',
          stack: c.subject,
        }),
      (e: unknown) => say(errorMessage(e), 'danger'),
    );
  };

  /** Rehearses the plan on screen; the forecast shows beside it, and the outcome in the status line. */
  const rehearse = () =>
    control.rehearseRecovery().then(
      () => {
        const r = control.store.get().recovery;
        const rehearsal = r?.state === 'planned' ? r.rehearsal : undefined;
        if (rehearsal?.state === 'error') return say(`the rehearsal failed: ${rehearsal.message}`, 'danger');
        if (rehearsal?.state === 'rehearsed')
          say(
            `rehearsed: predicted ${secondsText(rehearsal.report.predicted.overallMs)}; ${keyOf('recovery.run')} runs this same plan for real (asks first)`,
            'ok',
          );
      },
      (e: unknown) => say(errorMessage(e), 'warning'),
    );

  const steer = (command: RecoveryCommand) => {
    if (!control.steerRecovery(command)) say('no recovery is running');
  };

  const quit = () => {
    const running = [...state.operations.values()].filter((o) => o.running).map((o) => `${o.operation} ${o.stack}`);
    const r = state.recovery;
    if (r?.state === 'running' && !r.settled) running.push(`recovery ${r.runId} (saved for kdeck recover --resume)`);
    if (running.length && !quitArmed.current) {
      quitArmed.current = true;
      return say(
        `${running.join(', ')} is running: ${keyOf('quit')} again stops it (what is in flight finishes) and quits`,
        'warning',
      );
    }
    exit();
  };

  const run = (id: ActionId) => {
    if (id !== 'quit') quitArmed.current = false;
    dispatch({ type: 'message' });
    if (pods.run(id)) return;
    const steering = STEERING[id];
    if (steering) return steer(steering);
    if (objects.run(id)) return;
    switch (id) {
      case 'up':
        return scrollOrMove(-1);
      case 'down':
        return scrollOrMove(1);
      case 'pageUp':
        return scrollOrMove(-page, true);
      case 'pageDown':
        return scrollOrMove(page, true);
      case 'top':
        return move(0, 'top');
      case 'bottom':
        return move(0, 'bottom');
      case 'open':
        if (nav.focus === 'tree') return dispatch({ type: 'show', view: 'resources' });
        if (screen.resource) dispatch({ type: 'resource', key: screen.resource });
        return dispatch({ type: 'show', view: 'diff' });
      case 'back':
        return dispatch({ type: 'back' });
      case 'pane':
        return dispatch({ type: 'pane' });
      case 'nextView':
      case 'prevView': {
        const at = VIEWS.findIndex((v) => v.id === nav.view);
        const next = VIEWS[(at + (id === 'nextView' ? 1 : VIEWS.length - 1)) % VIEWS.length];
        return dispatch({ type: 'show', view: next.id, stay: true });
      }
      case 'wrap':
        return dispatch({ type: 'wrap' });
      case 'scrollLeft':
      case 'scrollRight': {
        if (nav.wrap) return say(`long values are wrapped; ${keyOf('wrap')} shows them on one line to scroll sideways`);
        return dispatch({ type: 'shift', to: nav.shift + (id === 'scrollRight' ? SHIFT_STEP : -SHIFT_STEP) });
      }
      case 'apply':
      case 'destroy':
        return operate(id);
      case 'recovery.run': {
        const r = state.recovery;
        if (r?.state === 'saved') return guarded(id, () => savedRunConfirmation(r.runId, r.record, state));
        if (r?.state !== 'planned')
          return say('there is no recovery plan to run; plan one with :recover RUNBOOK hosts=...');
        return guarded(id, () => recoveryConfirmation(r.plan, state));
      }
      case 'recovery.rehearse':
        say('rehearsing on an embedded copy of the clusters…', 'muted', { kind: 'rehearsal' });
        return void rehearse();
      case 'interrupt':
        if (stack && control.interrupt(stack.key))
          return say(`stopping ${stack.key}: nothing new starts, what is in flight finishes`, 'warning', {
            kind: 'operation',
            stack: stack.key,
          });
        return say('nothing is running on this stack');
      case 'refresh':
        if (!stack) return;
        control.refresh(stack.key);
        return say(`compiling and comparing ${stack.key} again`, 'muted', {
          kind: 'compile',
          stack: stack.key,
          compiles: stack.compiles,
        });
      case 'recover':
        return mode({ kind: 'palette', text: 'recover ' });
      case 'palette':
        return mode({ kind: 'palette', text: '' });
      case 'filter':
        return mode({ kind: 'filter', text: nav.filters[nav.focus] });
      case 'help':
        return mode({ kind: 'help' });
      case 'quit':
        return quit();
      default: {
        const view = VIEWS.find((v) => `view.${v.id}` === id);
        // the resource on screen stays selected in the next view, even when a filter picked it
        if (view && screen.resource) dispatch({ type: 'resource', key: screen.resource });
        if (view) dispatch({ type: 'show', view: view.id });
      }
    }
  };

  const carryOut = (c: PaletteCommand) => {
    switch (c.kind) {
      case 'apply':
      case 'destroy': {
        const key = c.stack
          ? matchStack(
              c.stack,
              state.stacks.map((s) => s.key),
            )
          : stack?.key;
        if (typeof key === 'object') return say(key.error, 'warning');
        return operate(c.kind, key, c.kind === 'apply' && c.forceConflicts);
      }
      case 'recover':
        dispatch({ type: 'show', view: 'recovery' });
        control.planRecovery(c.runbook, c.args).catch((e: unknown) => say(errorMessage(e), 'warning'));
        return;
      case 'rehearse':
        dispatch({ type: 'show', view: 'recovery' });
        say('rehearsing on an embedded copy of the clusters…', 'muted', { kind: 'rehearsal' });
        if (!c.runbook) return void rehearse();
        control.planRecovery(c.runbook, c.args).then(
          () => (control.store.get().recovery?.state === 'planned' ? rehearse() : undefined),
          (e: unknown) => say(errorMessage(e), 'warning'),
        );
        return;
      case 'resume':
        dispatch({ type: 'show', view: 'recovery' });
        try {
          control.openSavedRun(c.runId);
        } catch (e) {
          say(errorMessage(e), 'warning');
        }
        return;
      case 'ctx':
        if (!c.name) return mode({ kind: 'contexts' });
        try {
          control.setContext(c.name);
          return say(`stacks that name no cluster now go to ${c.name}`, 'ok');
        } catch (e) {
          return say(errorMessage(e), 'warning');
        }
      case 'stack': {
        const key = matchStack(
          c.name,
          state.stacks.map((s) => s.key),
        );
        if (typeof key === 'object') return say(key.error, 'warning');
        dispatch({ type: 'stack', key });
        return dispatch({ type: 'show', view: 'resources' });
      }
      case 'view':
        return dispatch({ type: 'show', view: c.view });
      case 'refresh':
        return run('refresh');
      case 'sort':
        return objects.sort(c.column);
      case 'scale':
        return objects.scale(c.replicas);
      case 'help':
        return mode({ kind: 'help' });
      case 'quit':
        return quit();
      case 'logs':
      case 'port-forward':
      case 'port-forward-stop':
      case 'port-forwards':
        return pods.carryOut(c);
    }
  };

  return {
    run,
    runLine(line) {
      mode({ kind: 'normal' });
      const c = parseCommand(line);
      if ('error' in c) return say(c.error, 'warning');
      carryOut(c);
    },
    answer(yes) {
      const m = nav.mode;
      mode({ kind: 'normal' });
      if (m.kind !== 'confirm') return;
      if (!yes) return say(`${m.confirm.action} of ${m.confirm.subject} cancelled: nothing was changed`);
      start(m.confirm);
    },
    pickContext(name) {
      mode({ kind: 'normal' });
      carryOut({ kind: 'ctx', name });
    },
    pickContainer(name) {
      mode({ kind: 'normal' });
      nav.logs?.feed.setContainer(name);
    },
  };
}
