/**
 * What the per-object keys and commands do: open a workload's pods, describe or show the YAML
 * of the selected object, move and scroll on those pages, `:sort` the pods, and restart, scale
 * or delete, asking first as the registry says (refused in read-only mode, the production
 * context typed). Each returns whether it took the key; the console's own commands
 * (useCommands.ts) have the others.
 */
import { actionDef, type ActionId } from './actions.js';
import type { ConsoleControl } from '../app/console/control.js';
import type { Confirmation } from '../app/console/confirmation.js';
import { objectConfirmation, type ObjectActionRequest } from '../app/console/object-actions.js';
import { parseSort } from '../app/console/pod-rows.js';
import type { SelectedObject } from '../app/console/selected-object.js';
import { kubectlName, listsPods } from '../app/pods/target.js';
import { asObject } from '../model/resource.js';
import { errorMessage } from '../diagnostics/user-error.js';
import { drillPage, podRows, selectedPodRow, viewOf, type DrillPage } from './drill.js';
import type { Mode, NavAction } from './navigation.js';
import { step } from './navigation.js';
import { objectLines } from './screens/object-lines.js';
import { selectedObject } from './selection.js';
import type { Now } from './hooks/useCommands.js';
import { changeIndex } from '../app/console/state.js';

export interface ObjectDeps {
  control: ConsoleControl;
  dispatch: (a: NavAction) => void;
  /** Rows in a page. */
  page: number;
  say: (text: string, tone?: 'muted' | 'warning' | 'danger' | 'ok') => void;
}

const MOVES: Partial<Record<ActionId, number>> = {
  up: -1,
  down: 1,
  top: -Infinity,
  bottom: Infinity,
};

export interface ObjectCommands {
  /** Carries out the action if it is a per-object one here; whether it was. */
  run(id: ActionId): boolean;
  /** `:sort COLUMN` */
  sort(word: string): void;
  /** `:scale REPLICAS` */
  scale(replicas: string): void;
  /** Carries out a confirmed action. */
  start(c: Confirmation & { object: ObjectActionRequest }): void;
}

export function objectCommands(now: Now, { control, dispatch, page: pageRows, say }: ObjectDeps): ObjectCommands {
  const { state, nav, screen } = now;
  const objects = control.objects;
  const top = nav.focus === 'main' ? screen.drill : undefined;
  const selection = () => selectedObject({ ...now, view: objects.view.get(), now: objects.now() });
  const open = (kind: DrillPage['kind'], of: SelectedObject) => dispatch({ type: 'drill', page: drillPage(kind, of) });
  const update = (page: DrillPage) => dispatch({ type: 'drillPage', page });
  const mode = (m: Mode) => dispatch({ type: 'mode', mode: m });

  const move = (delta: number) => {
    if (!top) return;
    if (top.kind === 'pods') {
      const { rows } = podRows(top, viewOf(top, objects.view.get()), nav.filters.main, objects.now());
      const names = rows.map((r) => r.name);
      const current = selectedPodRow(top, rows)?.name;
      const name =
        delta === -Infinity ? names[0] : delta === Infinity ? names[names.length - 1] : step(names, current, delta);
      if (name) update({ ...top, selected: name });
      return;
    }
    const lines = objectLines(top, viewOf(top, objects.view.get()), {
      showSecrets: objects.showSecrets,
      now: objects.now(),
    });
    const last = Math.max(0, lines.length - 1);
    const to = delta === -Infinity ? 0 : delta === Infinity ? last : Math.min(last, Math.max(0, top.scroll + delta));
    update({ ...top, scroll: to });
  };

  /** Refused in read-only mode and asked first, as the registry says for `id`. */
  const guarded = (id: ActionId, request: ObjectActionRequest) => {
    const def = actionDef(id);
    if (def.mutating && state.readOnly)
      return say(
        `${def.label} changes the cluster and is refused in --read-only mode; restart without it to ${def.label}`,
        'warning',
      );
    const confirm = objectConfirmation(request, state, objects.kubeconfigFiles);
    if ('refused' in confirm) return say(confirm.refused, 'warning');
    mode({ kind: 'confirm', confirm, input: '' });
  };

  /** The replicas the object asks for now, as the page or the stack's plan last saw it. */
  const replicasOf = (of: SelectedObject): number | undefined => {
    const view = objects.view.get();
    const live =
      view && view.request.of.name === of.name && view.request.of.kind === of.kind
        ? view.object
        : screen.stack?.changeSet && screen.row
          ? changeIndex(screen.stack.changeSet).get(screen.row.key)?.live
          : undefined;
    const replicas = asObject(live?.spec).replicas;
    return typeof replicas === 'number' ? replicas : undefined;
  };

  return {
    run(id) {
      if (id in MOVES || id === 'pageUp' || id === 'pageDown') {
        if (!top) return false;
        move(id === 'pageUp' ? -pageRows : id === 'pageDown' ? pageRows : MOVES[id]!);
        return true;
      }
      switch (id) {
        case 'open': {
          if (nav.focus !== 'main') return false;
          if (top?.kind === 'pods') {
            const pod = selection();
            if (pod) open('describe', pod);
            else say('no pod is selected');
            return true;
          }
          if (top) return true;
          if (nav.view !== 'resources' && nav.view !== 'graph') return false;
          const o = selection();
          if (!o || !listsPods(o.kind)) return false;
          open('pods', o);
          return true;
        }
        case 'describe':
        case 'yaml': {
          const o = selection();
          if (!o) say('select a resource or a pod first', 'warning');
          else open(id, o);
          return true;
        }
        case 'yaml.managedFields':
          if (top?.kind !== 'yaml') return false;
          update({ ...top, managedFields: !top.managedFields });
          say(`metadata.managedFields ${top.managedFields ? 'hidden' : 'shown'}`);
          return true;
        case 'object.restart':
        case 'object.delete': {
          const o = selection();
          if (!o) say('select a workload or a pod first', 'warning');
          else guarded(id, { action: id === 'object.restart' ? 'restart' : 'delete', of: o });
          return true;
        }
        case 'object.scale': {
          const o = selection();
          if (!o) {
            say('select a workload first', 'warning');
            return true;
          }
          if (state.readOnly) {
            say('scale changes the cluster and is refused in --read-only mode; restart without it to scale', 'warning');
            return true;
          }
          // the count is asked on the command line, today's count ready to change
          mode({ kind: 'palette', text: `scale ${replicasOf(o) ?? ''}` });
          return true;
        }
        default:
          return false;
      }
    },
    sort(word) {
      if (top?.kind !== 'pods') return say('sort works on a list of pods (enter on a workload opens one)', 'warning');
      const sort = parseSort(word);
      if ('error' in sort) return say(sort.error, 'warning');
      update({ ...top, sort });
    },
    scale(replicas) {
      const o = selection();
      if (!o) return say('select a workload first', 'warning');
      const n = /^\d+$/.test(replicas) ? Number(replicas) : NaN;
      guarded('object.scale', { action: 'scale', of: o, replicas: n });
    },
    start(c) {
      const r = c.object;
      objects.act(r).then(
        (done) => say(done, 'ok'),
        (e: unknown) => say(`${kubectlName(r.of)}: ${errorMessage(e)}`, 'danger'),
      );
    },
  };
}
