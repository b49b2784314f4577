/**
 * What the screen shows now, derived from the console's state and where the user is: the
 * stacks after the tree's filter, the selected stack (the first when none is chosen), its
 * resource rows after the main filter, the selected resource and its change, the graph's
 * order, the prod contexts, and the context the action registry judges keys in.
 */
import { useMemo } from 'react';
import type { ResourceChange } from '../../diff/change-set.js';
import type { ActionContext } from '../actions.js';
import type { NavState } from '../navigation.js';
import { filterRows, resourceRows, rowText, type ResourceRow } from '../derive.js';
import { changeIndex } from '../../app/console/state.js';
import { liveKey, type ConsoleState, type StackEntry } from '../../app/console/state.js';
import { graphLayout } from '../screens/graph-layout.js';
import type { DrillPage } from '../drill.js';
import { hasPods } from '../../app/pods/target.js';

export interface Screen {
  stacks: readonly StackEntry[];
  stack?: StackEntry;
  rows: readonly ResourceRow[];
  /** liveKey of the selected resource */
  resource?: string;
  row?: ResourceRow;
  change?: ResourceChange;
  /** liveKeys in the graph's drawing order */
  graphOrder: readonly string[];
  prod: ReadonlySet<string>;
  ctx: ActionContext;
  /** The page about one object shown over the view, if one is. */
  drill?: DrillPage;
}

/** The last derivation: the render and the key handler mostly ask for the same one. */
let last: { state: ConsoleState; nav: NavState; screen: Screen } | undefined;

export function deriveScreen(state: ConsoleState, nav: NavState): Screen {
  if (last && last.state === state && last.nav === nav) return last.screen;
  const stacks = filterRows(state.stacks, nav.filters.tree, (s) => s.key);
  const stack = stacks.find((s) => s.key === nav.stack) ?? state.stacks.find((s) => s.key === nav.stack) ?? stacks[0];
  const all = stack ? rowsOf(stack) : [];
  const rows = filterRows(all, nav.view === 'resources' ? nav.filters.main : '', rowText);
  const row = rows.find((r) => r.key === nav.resource) ?? all.find((r) => r.key === nav.resource) ?? rows[0];
  const change = row && stack?.changeSet ? changeIndex(stack.changeSet).get(row.key) : undefined;
  const graphOrder = stack ? graphOrderOf(stack) : [];
  const running = stack ? (state.operations.get(stack.key)?.running ?? false) : false;
  const drill = nav.drill?.at(-1);
  const object = objectOf(nav, drill, row);
  const screen: Screen = {
    stacks,
    stack,
    rows,
    resource: row?.key,
    row,
    change,
    graphOrder,
    prod: prodOf(state),
    ctx: {
      focus: nav.focus,
      view: nav.view,
      readOnly: state.readOnly,
      running,
      filtered: nav.filters[nav.focus] !== '',
      ...recoveryOf(state),
      ...(nav.logs ? { overlay: 'logs' as const } : {}),
      ...object,
      ...(object.object !== undefined && hasPods(object.object) ? { pods: true } : {}),
    },
    ...(drill ? { drill } : {}),
  };
  last = { state, nav, screen };
  return screen;
}

/** What the main pane has selected, for the per-object actions: a page's object (a pod on the pods page), else the resource. */
function objectOf(
  nav: NavState,
  drill: DrillPage | undefined,
  row: ResourceRow | undefined,
): Pick<ActionContext, 'object' | 'drill'> {
  if (nav.focus !== 'main') return {};
  if (drill) return { drill: drill.kind, object: drill.kind === 'pods' ? 'Pod' : drill.of.kind };
  const onResource = nav.view === 'resources' || nav.view === 'graph' || nav.view === 'diff';
  return onResource && row ? { object: row.kind } : {};
}

function recoveryOf(state: ConsoleState): Pick<ActionContext, 'recovery'> {
  const r = state.recovery;
  if (r?.state === 'planned' || r?.state === 'saved') return { recovery: r.state };
  if (r?.state === 'running') return { recovery: r.settled ? 'settled' : 'running' };
  return {};
}

/** Rows per stack entry: an entry is replaced whenever it changes, so they are cached by it. */
const rowCache = new WeakMap<StackEntry, ResourceRow[]>();
function rowsOf(s: StackEntry): ResourceRow[] {
  let rows = rowCache.get(s);
  if (!rows) {
    rows = resourceRows(s);
    rowCache.set(s, rows);
  }
  return rows;
}

/** The graph's drawing order as liveKeys, per plan (a new reading of live health keeps it). */
const orderCache = new WeakMap<object, string[]>();
function graphOrderOf(s: StackEntry): string[] {
  const owner = s.changeSet ?? s.graph;
  let order = owner && orderCache.get(owner);
  if (!order) {
    const byId = new Map(rowsOf(s).map((r) => [r.id, r.key]));
    order = s.graph ? graphLayout(s.graph).order.map((id) => byId.get(id) ?? liveKey(s.stack.cluster ?? '', id)) : [];
    if (owner) orderCache.set(owner, order);
  }
  return order;
}

const prodCache = new WeakMap<ConsoleState['contexts'], ReadonlySet<string>>();
function prodOf(state: ConsoleState): ReadonlySet<string> {
  let prod = prodCache.get(state.contexts);
  if (!prod) {
    prod = new Set(state.contexts.filter((c) => c.prod).map((c) => c.name));
    prodCache.set(state.contexts, prod);
  }
  return prod;
}

export function useScreen(state: ConsoleState, nav: NavState): Screen {
  return useMemo(() => deriveScreen(state, nav), [state, nav]);
}
