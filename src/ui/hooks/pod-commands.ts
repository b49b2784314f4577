/**
 * What the pod keys and commands do: open a log view on a target (a one-line entry point, for
 * any list whose rows are pods or workloads), steer it (follow, previous, container, search,
 * wrap, timestamps, scrolling), close it (which closes its streams), open a shell with the
 * console suspended, and start, list and stop port-forwards.
 */
import { actionDef, type ActionId } from '../actions.js';
import type { ConsoleControl } from '../../app/console/control.js';
import { hasPods, type PodTarget } from '../../app/pods/target.js';
import { errorMessage } from '../../diagnostics/user-error.js';
import { openedLog, scrolledLog } from '../log-nav.js';
import type { Mode, NavAction } from '../navigation.js';
import { namedPodTarget } from '../pod-target.js';
import { selectedObject } from '../selection.js';
import type { PodPaletteCommand } from '../pod-palette.js';
import type { Now } from './useCommands.js';
import type { Suspended } from './useSuspend.js';
import type { InteractiveCommand } from '../../app/pods/pod-tools.js';

export interface PodDeps {
  control: ConsoleControl;
  dispatch: (a: NavAction) => void;
  say: (text: string, tone?: 'muted' | 'warning' | 'danger' | 'ok') => void;
  page: number;
  suspend: (command: InteractiveCommand) => Promise<Suspended>;
}

export interface PodCommands {
  /** Opens the log view on `target`: the entry point every pod or workload row calls. */
  openLogs(target: PodTarget, options?: { previous?: boolean }): void;
  /** Handles `id` when it is a pod or log action (or a key the open log view takes); false otherwise. */
  run(id: ActionId): boolean;
  carryOut(c: PodPaletteCommand): void;
}

export function podCommands(
  { state, nav, screen }: Now,
  { control, dispatch, say, page, suspend }: PodDeps,
): PodCommands {
  const logs = nav.logs;
  const mode = (m: Mode) => dispatch({ type: 'mode', mode: m });
  // the pod on a pods page, the object of a describe or YAML page, else the stack's resource
  const selected = (): PodTarget | undefined => {
    const o = selectedObject({ state, nav, screen, view: control.objects.view.get(), now: control.objects.now() });
    return o?.namespace && hasPods(o.kind)
      ? { context: o.cluster, namespace: o.namespace, kind: o.kind, name: o.name }
      : undefined;
  };

  const openLogs: PodCommands['openLogs'] = (target, options = {}) => {
    logs?.feed.close();
    const feed = control.podTools.openLogs(target);
    if (options.previous) feed.setPrevious(true);
    dispatch({ type: 'logs', logs: openedLog(feed) });
  };

  const closeLogs = () => {
    logs?.feed.close();
    dispatch({ type: 'logs' });
  };

  const shell = (target: PodTarget | undefined) => {
    const def = actionDef('shell');
    if (state.readOnly)
      return say(`${def.label} may change what runs and is refused in --read-only mode; restart without it`, 'warning');
    if (!target) return say('select a pod or a workload for a shell');
    say(`asking ${target.context} for a shell…`);
    control.podTools.shell(target).then(
      async (plan) => {
        if ('refused' in plan) {
          // the status line cuts it to the width; the event log keeps it whole
          control.log('warn', plan.refused);
          return say(plan.refused, 'warning');
        }
        const out = await suspend(plan);
        if ('error' in out) return say(`${out.error} (the command was ${plan.line})`, 'danger');
        say(`the shell ended (exit code ${out.code ?? 'none'}): ${plan.line}`, out.code === 0 ? 'ok' : 'warning');
      },
      (e: unknown) => say(errorMessage(e), 'danger'),
    );
  };

  const scrollBack = (by: number) => {
    if (logs) dispatch({ type: 'logView', change: scrolledLog(logs, logs.feed.store.get().buffer, by) });
  };

  const run = (id: ActionId): boolean => {
    if (id === 'logs') {
      const target = selected();
      if (target) openLogs(target);
      else say('select a pod or a workload to read its log');
      return true;
    }
    if (id === 'shell') {
      const feed = logs?.feed.store.get();
      shell(feed ? { ...feed.target, ...(feed.container ? { container: feed.container } : {}) } : selected());
      return true;
    }
    if (!logs) return false;
    const feed = logs.feed;
    const now = feed.store.get();
    switch (id) {
      case 'back':
        if (logs.search) dispatch({ type: 'logView', change: { search: '' } });
        else closeLogs();
        return true;
      case 'up':
        scrollBack(1);
        return true;
      case 'down':
        scrollBack(-1);
        return true;
      case 'pageUp':
        scrollBack(page);
        return true;
      case 'pageDown':
        scrollBack(-page);
        return true;
      case 'top':
        scrollBack(Number.MAX_SAFE_INTEGER);
        return true;
      case 'bottom':
        dispatch({ type: 'logView', change: { back: 0 } });
        return true;
      case 'log.follow':
        feed.setFollow(!now.follow);
        if (!now.follow) dispatch({ type: 'logView', change: { back: 0 } });
        say(now.follow ? 'following off: no new lines are read' : 'following: new lines appear as they are written');
        return true;
      case 'log.previous':
        feed.setPrevious(!now.previous);
        dispatch({ type: 'logView', change: { back: 0 } });
        return true;
      case 'log.container':
        if (now.containers.length < 2)
          say(`the pods have one container${now.containers[0] ? `: ${now.containers[0]}` : ''}`);
        else mode({ kind: 'containers', index: now.container ? now.containers.indexOf(now.container) + 1 : 0 });
        return true;
      case 'log.search':
        mode({ kind: 'search', text: logs.search });
        return true;
      case 'log.wrap':
        dispatch({ type: 'logView', change: { wrap: !logs.wrap } });
        return true;
      case 'log.timestamps':
        dispatch({ type: 'logView', change: { timestamps: !logs.timestamps } });
        return true;
      default:
        return false;
    }
  };

  const carryOut = (c: PodPaletteCommand) => {
    const stackNow = {
      ...(screen.stack ? { stack: screen.stack } : {}),
      ...(screen.row ? { row: screen.row } : {}),
      ...(state.context ? { context: state.context } : {}),
    };
    switch (c.kind) {
      case 'logs': {
        const target = namedPodTarget(c.target, stackNow);
        if ('error' in target) return say(target.error, 'warning');
        return openLogs({ ...target, ...(c.container ? { container: c.container } : {}) }, { previous: c.previous });
      }
      case 'port-forward': {
        const target = namedPodTarget(c.target, stackNow);
        if ('error' in target) return say(target.error, 'warning');
        say(`asking ${target.context} for a port-forward…`);
        control.podTools.startPortForward(target, c.ports).then(
          (pf) => {
            const text = 'refused' in pf ? pf.refused : `port-forward ${pf.id} started: ${pf.command}`;
            control.log('refused' in pf ? 'warn' : 'info', text);
            say('refused' in pf ? text : `${text} (:port-forwards lists it)`, 'refused' in pf ? 'warning' : 'ok');
          },
          (e: unknown) => say(errorMessage(e), 'danger'),
        );
        return;
      }
      case 'port-forward-stop': {
        const pfs = control.podTools.portForwards;
        if (c.id === 'all') {
          void pfs.stopAll();
          return say('stopping every port-forward');
        }
        return pfs.stop(c.id)
          ? say(`stopping port-forward ${c.id}`)
          : say(`port-forward ${c.id} is not running`, 'warning');
      }
      case 'port-forwards': {
        const all = control.podTools.portForwards.store.get();
        if (all.length === 0)
          return say('no port-forward was started (:port-forward TYPE/NAME LOCAL:REMOTE starts one)');
        return say(
          all
            .map(
              (p) =>
                `${p.id}: ${p.target.kind.toLowerCase()}/${p.target.name} ${p.ports.join(' ')} ${p.state}${p.state === 'exited' ? ` (${p.said || `code ${p.exitCode ?? '?'}`})` : ''}`,
            )
            .join('; '),
        );
      }
    }
  };

  return { openLogs, run, carryOut };
}
