/**
 * The action registry, after k9s's internal/ui/action.go: every key action is one record, and
 * the footer, the `?` help, read-only hiding and confirmations all derive from this table, so
 * they cannot disagree. Keys are defaults; a keymap file may rebind any action (keymap.ts).
 */
import type { DrillKind } from './drill.js';
import type { ViewId } from './views.js';

export type ActionId =
  | 'up'
  | 'down'
  | 'pageUp'
  | 'pageDown'
  | 'top'
  | 'bottom'
  | 'open'
  | 'back'
  | 'pane'
  | 'nextView'
  | 'prevView'
  | 'wrap'
  | 'scrollLeft'
  | 'scrollRight'
  | 'view.resources'
  | 'view.graph'
  | 'view.diff'
  | 'view.apply'
  | 'view.recovery'
  | 'view.events'
  | 'apply'
  | 'destroy'
  | 'interrupt'
  | 'refresh'
  | 'recover'
  | 'recovery.run'
  | 'recovery.rehearse'
  | 'recovery.pause'
  | 'recovery.resume'
  | 'recovery.abort'
  | 'recovery.retry'
  | 'recovery.skip'
  | 'recovery.stop'
  | 'logs'
  | 'shell'
  | 'log.follow'
  | 'log.previous'
  | 'log.container'
  | 'log.search'
  | 'log.wrap'
  | 'log.timestamps'
  | 'describe'
  | 'yaml'
  | 'yaml.managedFields'
  | 'object.restart'
  | 'object.scale'
  | 'object.delete'
  | 'palette'
  | 'filter'
  | 'help'
  | 'quit';

export type Focus = 'tree' | 'main';

/** What decides whether an action applies now. */
export interface ActionContext {
  focus: Focus;
  view: ViewId;
  readOnly: boolean;
  /** The focused list keeps a `/` filter (esc clears it). */
  filtered: boolean;
  /** An operation runs on the selected stack. */
  running: boolean;
  /** Where the console's recovery is: a plan or a saved run to run, a run going on, or one that has ended. */
  recovery?: 'planned' | 'saved' | 'running' | 'settled';
  /** A view over the main pane that has keys of its own: the log of a pod or workload. */
  overlay?: 'logs';
  /** The selected row is a pod or has pods (a workload, a Service): `l` and `s` apply to it. */
  pods?: boolean;
  /** The kind of the object selected in the main pane (a stack's resource, a pod), if one is. */
  object?: string;
  /** The page about one object shown over the view, if one is. */
  drill?: DrillKind;
}

export type ActionGroup = 'Navigate' | 'Views' | 'Stack' | 'Object' | 'Logs' | 'Recovery' | 'Console';

export interface ActionDef {
  id: ActionId;
  keys: string[];
  /** A word or two for the footer. */
  label: string;
  description: string;
  group: ActionGroup;
  /** Where it applies; always when absent. */
  when?: (c: ActionContext) => boolean;
  /** Changes a cluster or a state: hidden and refused in --read-only mode. */
  mutating?: boolean;
  /** Asks first: the production contexts' names typed when it touches one, y/N otherwise. */
  dangerous?: boolean;
  /** Shown in the footer, which keeps the lowest numbers when it runs out of room (the help shows every action). */
  footer?: number;
  /** Applies only in this overlay; an overlay keeps only its own actions and OVERLAY_KEEPS. */
  overlay?: 'logs';
}

/** The actions an overlay leaves working: moving, leaving it, the command line, help, quit, a shell. */
const OVERLAY_KEEPS: ReadonlySet<ActionId> = new Set<ActionId>([
  'up',
  'down',
  'pageUp',
  'pageDown',
  'top',
  'bottom',
  'back',
  'shell',
  'palette',
  'help',
  'quit',
]);

const inScope = (a: ActionDef, c: ActionContext): boolean =>
  c.overlay ? a.overlay === c.overlay || OVERLAY_KEEPS.has(a.id) : a.overlay === undefined;

const inMain = (c: ActionContext) => c.focus === 'main';
const inDiff = (c: ActionContext) => c.focus === 'main' && c.view === 'diff';
/** Stack actions give way to the recovery's own keys in the Recovery view. */
const onStacks = (c: ActionContext) => c.view !== 'recovery' || c.focus === 'tree';
const steering = (c: ActionContext) => c.view === 'recovery' && c.focus === 'main' && c.recovery === 'running';
const view = (id: ViewId) => ({ id: `view.${id}` as ActionId, group: 'Views' as const });

export const ACTIONS: readonly ActionDef[] = [
  { id: 'up', keys: ['k', 'up'], label: 'up', description: 'select the row above', group: 'Navigate' },
  { id: 'down', keys: ['j', 'down'], label: 'move', description: 'select the row below', group: 'Navigate', footer: 6 },
  { id: 'pageUp', keys: ['pgup', 'ctrl+b'], label: 'page up', description: 'a page up', group: 'Navigate' },
  { id: 'pageDown', keys: ['pgdn', 'ctrl+f'], label: 'page down', description: 'a page down', group: 'Navigate' },
  { id: 'top', keys: ['g', 'home'], label: 'top', description: 'the first row', group: 'Navigate' },
  { id: 'bottom', keys: ['G', 'end'], label: 'bottom', description: 'the last row', group: 'Navigate' },
  {
    id: 'open',
    keys: ['enter'],
    label: 'open',
    description:
      "open: a stack's resources; a workload's or a Service's pods, another resource's diff; a pod described",
    group: 'Navigate',
    footer: 7,
    when: (c) =>
      c.focus === 'tree' || (!c.drill && (c.view === 'resources' || c.view === 'graph')) || c.drill === 'pods',
  },
  {
    id: 'back',
    keys: ['esc'],
    label: 'back',
    description: 'back: clear the filter, leave the view, or return to the stacks',
    group: 'Navigate',
    footer: 8,
    when: (c) => inMain(c) || c.filtered,
  },
  {
    id: 'pane',
    keys: ['tab', 'shift+tab'],
    label: 'pane',
    description: 'switch between the stacks and the main pane',
    group: 'Navigate',
    footer: 10,
  },
  {
    id: 'nextView',
    keys: [']', 'right'],
    label: 'next view',
    description: 'the next view (from either pane)',
    group: 'Views',
  },
  {
    id: 'prevView',
    keys: ['[', 'left'],
    label: 'previous view',
    description: 'the previous view (from either pane)',
    group: 'Views',
  },
  {
    id: 'wrap',
    keys: ['w'],
    label: 'wrap',
    description: 'Diff: wrap long values on/off',
    group: 'Views',
    // the Diff's own last line names w and < >; the footer keeps room for going back
    footer: 9,
    when: inDiff,
  },
  {
    id: 'scrollRight',
    keys: ['>'],
    label: 'scroll right',
    description: 'Diff: scroll long values to the right',
    group: 'Views',
    when: inDiff,
  },
  {
    id: 'scrollLeft',
    keys: ['<'],
    label: 'scroll left',
    description: 'Diff: scroll long values back to the left',
    group: 'Views',
    when: inDiff,
  },
  {
    ...view('resources'),
    keys: ['1'],
    label: 'resources',
    description: 'Resources: id, kind, cluster, action, health',
  },
  { ...view('graph'), keys: ['2'], label: 'graph', description: 'Graph: the dependency graph by levels' },
  { ...view('diff'), keys: ['3'], label: 'diff', description: 'Diff: state, plan and live, and the field diff' },
  { ...view('apply'), keys: ['4'], label: 'apply view', description: 'Apply: progress and the live health stream' },
  { ...view('recovery'), keys: ['5'], label: 'recovery', description: 'Recovery: a runbook plan and its progress' },
  { ...view('events'), keys: ['6'], label: 'events', description: 'Events: compiles, drift, operations, watches' },
  {
    id: 'apply',
    keys: ['a'],
    label: 'apply',
    description: 'apply the selected stack',
    group: 'Stack',
    mutating: true,
    dangerous: true,
    footer: 4,
    when: (c) => !c.running && onStacks(c),
  },
  {
    id: 'destroy',
    keys: ['D'],
    label: 'destroy',
    description: 'destroy the selected stack (delete what kdeck applied)',
    group: 'Stack',
    mutating: true,
    dangerous: true,
    footer: 5,
    when: (c) => !c.running && onStacks(c),
  },
  {
    id: 'interrupt',
    keys: ['x'],
    label: 'stop',
    description: 'stop the running operation (nothing new starts; what runs finishes)',
    group: 'Stack',
    footer: 4,
    when: (c) => c.running && onStacks(c),
  },
  {
    id: 'refresh',
    keys: ['r', 'ctrl+r'],
    label: 'refresh',
    description: 'compile and compare the selected stack again',
    group: 'Stack',
    when: onStacks,
  },
  {
    id: 'recover',
    keys: ['R'],
    label: 'recover',
    description: 'plan a recovery runbook (:recover RUNBOOK hosts=...)',
    group: 'Stack',
  },
  {
    id: 'recovery.run',
    keys: ['enter'],
    label: 'run',
    description: 'run the planned recovery, or carry on the saved one (asks first; prod clusters by name)',
    group: 'Recovery',
    mutating: true,
    dangerous: true,
    footer: 4,
    when: (c) => c.view === 'recovery' && c.focus === 'main' && (c.recovery === 'planned' || c.recovery === 'saved'),
  },
  {
    id: 'recovery.rehearse',
    keys: ['h'],
    label: 'rehearse',
    description:
      'rehearse the plan on an embedded copy of its clusters (reads only): time, availability, refused evictions',
    group: 'Recovery',
    footer: 4,
    when: (c) => c.view === 'recovery' && c.focus === 'main' && c.recovery === 'planned',
  },
  {
    id: 'recovery.pause',
    keys: ['p'],
    label: 'pause',
    description: 'pause the recovery: clusters hold before their next batch',
    group: 'Recovery',
    footer: 4,
    when: steering,
  },
  {
    id: 'recovery.resume',
    keys: ['r'],
    label: 'resume',
    description: 'resume a paused recovery',
    group: 'Recovery',
    footer: 4,
    when: steering,
  },
  {
    id: 'recovery.abort',
    keys: ['a'],
    label: 'abort',
    description: 'abort the recovery: nothing new starts, steps in flight finish',
    group: 'Recovery',
    footer: 5,
    when: steering,
  },
  {
    id: 'recovery.retry',
    keys: ['t'],
    label: 'retry',
    description: 'a cluster paused on a failure: retry its batch',
    group: 'Recovery',
    footer: 6,
    when: steering,
  },
  {
    id: 'recovery.skip',
    keys: ['s'],
    label: 'skip',
    description: 'a cluster paused on a failure: skip its batch',
    group: 'Recovery',
    footer: 6,
    when: steering,
  },
  {
    id: 'recovery.stop',
    keys: ['x'],
    label: 'stop cluster',
    description: 'a cluster paused on a failure: stop it (kdeck recover --resume retries it)',
    group: 'Recovery',
    footer: 6,
    when: steering,
  },
  {
    id: 'logs',
    keys: ['l'],
    label: 'logs',
    description: 'the log of the selected pod, or of every pod of the selected workload (follows)',
    group: 'Object',
    footer: 4,
    when: (c) => c.focus === 'main' && c.pods === true,
  },
  {
    id: 'shell',
    keys: ['s'],
    label: 'shell',
    description: 'a shell in the pod (kubectl exec -it … -- sh); the console comes back when it exits',
    group: 'Object',
    mutating: true,
    footer: 11,
    when: (c) => c.overlay === 'logs' || (c.focus === 'main' && c.pods === true && c.view !== 'recovery'),
  },
  {
    id: 'log.follow',
    keys: ['f'],
    label: 'follow',
    description: 'following on/off: new lines appear as the pods write them',
    group: 'Logs',
    overlay: 'logs',
    footer: 4,
  },
  {
    id: 'log.previous',
    keys: ['p'],
    label: 'previous',
    description: "the previous container's log (its exit code and reason on top), or back to the current one",
    group: 'Logs',
    overlay: 'logs',
    footer: 5,
  },
  {
    id: 'log.container',
    keys: ['c'],
    label: 'container',
    description: 'pick the container to read, when the pods have several',
    group: 'Logs',
    overlay: 'logs',
    footer: 9,
  },
  {
    id: 'log.search',
    keys: ['/'],
    label: 'search',
    description: 'search the log: matches are highlighted (esc clears)',
    group: 'Logs',
    overlay: 'logs',
    footer: 6,
  },
  {
    id: 'log.wrap',
    keys: ['w'],
    label: 'wrap',
    description: 'wrap long lines on/off (off: each line cut to the width)',
    group: 'Logs',
    overlay: 'logs',
    footer: 7,
  },
  {
    id: 'log.timestamps',
    keys: ['t'],
    label: 'timestamps',
    description: "timestamps on/off (the kubelet's, as kubectl logs --timestamps)",
    group: 'Logs',
    overlay: 'logs',
    footer: 8,
  },
  {
    id: 'describe',
    keys: ['d'],
    label: 'describe',
    description: "describe the selected object: status, containers, then its events and its pods' events",
    group: 'Object',
    footer: 9,
    when: (c) => c.object !== undefined && c.drill !== 'describe',
  },
  {
    id: 'yaml',
    keys: ['y'],
    label: 'yaml',
    description: 'the selected object as it is live in the cluster, as YAML (/ searches)',
    group: 'Object',
    footer: 9,
    when: (c) => c.object !== undefined && c.drill !== 'yaml',
  },
  {
    id: 'yaml.managedFields',
    keys: ['m'],
    label: 'managed fields',
    description: 'show or hide metadata.managedFields in the YAML',
    group: 'Object',
    footer: 5,
    when: (c) => c.drill === 'yaml',
  },
  {
    id: 'object.restart',
    keys: ['o'],
    label: 'restart',
    description: 'rollout restart of the selected workload (kubectl rollout restart)',
    group: 'Object',
    mutating: true,
    dangerous: true,
    footer: 11,
    when: (c) => c.object === 'Deployment' || c.object === 'StatefulSet' || c.object === 'DaemonSet',
  },
  {
    id: 'object.scale',
    keys: ['S'],
    label: 'scale',
    description: 'scale the selected workload: :scale REPLICAS (kubectl scale)',
    group: 'Object',
    mutating: true,
    dangerous: true,
    footer: 11,
    when: (c) => c.object === 'Deployment' || c.object === 'StatefulSet' || c.object === 'ReplicaSet',
  },
  {
    id: 'object.delete',
    keys: ['ctrl+d'],
    label: 'delete pod',
    description: 'delete the selected pod; its controller makes a new one (kubectl delete pod)',
    group: 'Object',
    mutating: true,
    dangerous: true,
    footer: 11,
    when: (c) => c.object === 'Pod',
  },
  {
    id: 'palette',
    keys: [':'],
    label: 'cmd',
    description: 'the command line: apply, destroy, recover, ctx, stack, view, q',
    group: 'Console',
    footer: 3,
  },
  {
    id: 'filter',
    keys: ['/'],
    label: 'filter',
    description: 'filter the focused list (!text keeps what does not match)',
    group: 'Console',
    footer: 9,
  },
  {
    id: 'help',
    keys: ['?'],
    label: 'help',
    description: 'every key that works here, and the commands',
    group: 'Console',
    footer: 1,
  },
  {
    id: 'quit',
    keys: ['q', 'ctrl+c'],
    label: 'quit',
    description: 'quit (a running operation is interrupted first)',
    group: 'Console',
    footer: 2,
  },
];

export const ACTION_IDS: readonly ActionId[] = ACTIONS.map((a) => a.id);

export type Bindings = ReadonlyMap<ActionId, readonly string[]>;

export const DEFAULT_BINDINGS: Bindings = new Map(ACTIONS.map((a) => [a.id, a.keys]));

export function actionDef(id: ActionId): ActionDef {
  return ACTIONS.find((a) => a.id === id)!;
}

/** The actions that apply in `c`, with their keys; mutating ones are hidden in read-only mode. */
export function visibleActions(c: ActionContext, bindings: Bindings): { def: ActionDef; keys: readonly string[] }[] {
  return ACTIONS.filter((a) => inScope(a, c) && (a.when?.(c) ?? true) && !(a.mutating && c.readOnly))
    .map((def) => ({ def, keys: bindings.get(def.id) ?? [] }))
    .filter((a) => a.keys.length > 0);
}

/**
 * The action a key means in `c`. A mutating action is found in read-only mode too, so that
 * the console can say why it refuses rather than ignore the key.
 */
export function actionFor(key: string, c: ActionContext, bindings: Bindings): ActionDef | undefined {
  return ACTIONS.find((a) => inScope(a, c) && (a.when?.(c) ?? true) && (bindings.get(a.id) ?? []).includes(key));
}
