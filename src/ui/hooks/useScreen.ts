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
import { filterRows, resourceRows, rowText, type ResourceRow } from '../session/derive.js';
import { liveKey, type ConsoleState, type StackEntry } from '../session/state.js';
import { graphLayout } from '../screens/graph-layout.js';

export interface Screen {
  stacks: StackEntry[];
  stack?: StackEntry;
  rows: ResourceRow[];
  /** liveKey of the selected resource */
  resource?: string;
  row?: ResourceRow;
  change?: ResourceChange;
  /** liveKeys in the graph's drawing order */
  graphOrder: string[];
  prod: ReadonlySet<string>;
  ctx: ActionContext;
}

export function useScreen(state: ConsoleState, nav: NavState): Screen {
  const stacks = useMemo(() => filterRows(state.stacks, nav.filters.tree, (s) => s.key), [state.stacks, nav.filters.tree]);
  const stack = stacks.find((s) => s.key === nav.stack) ?? state.stacks.find((s) => s.key === nav.stack) ?? stacks[0];
  const all = useMemo(() => (stack ? resourceRows(stack) : []), [stack]);
  const rows = useMemo(() => filterRows(all, nav.view === 'resources' ? nav.filters.main : '', rowText), [all, nav.view, nav.filters.main]);
  const row = rows.find((r) => r.key === nav.resource) ?? all.find((r) => r.key === nav.resource) ?? rows[0];
  const change = row && stack?.changeSet?.changes.find((c) => liveKey(c.cluster, c.id) === row.key);
  const graphOrder = useMemo(() => {
    if (!stack?.graph) return [];
    const byId = new Map(all.map((r) => [r.id, r.key]));
    return graphLayout(stack.graph).order.map((id) => byId.get(id) ?? liveKey(stack.stack.cluster ?? '', id));
  }, [stack, all]);
  const prod = useMemo(() => new Set(state.contexts.filter((c) => c.prod).map((c) => c.name)), [state.contexts]);
  const running = stack ? (state.operations.get(stack.key)?.running ?? false) : false;
  return {
    stacks,
    stack,
    rows,
    resource: row?.key,
    row,
    change,
    graphOrder,
    prod,
    ctx: { focus: nav.focus, view: nav.view, readOnly: state.readOnly, running },
  };
}
