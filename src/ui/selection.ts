/**
 * "The selected object": what the per-object keys (describe, YAML, logs, a shell, restart,
 * scale, delete) act on, wherever the user is: the pod selected on a pods page, the object of
 * a describe or YAML page, else the stack's resource selected in Resources, Graph or Diff. Pure.
 */
import type { ObjectView } from '../app/console/objects.js';
import { podObject, resourceObject, type SelectedObject } from '../app/console/selected-object.js';
import type { ConsoleState } from '../app/console/state.js';
import { podRows, selectedPodRow, viewOf } from './drill.js';
import type { Screen } from './hooks/useScreen.js';
import type { NavState } from './navigation.js';

export interface Selection {
  state: ConsoleState;
  nav: NavState;
  screen: Screen;
  /** What the console's object control follows now. */
  view: ObjectView | undefined;
  now: number;
}

export function selectedObject({ state, nav, screen, view, now }: Selection): SelectedObject | undefined {
  if (nav.focus !== 'main') return undefined;
  const page = screen.drill;
  if (page?.kind === 'pods') {
    const { rows, pods } = podRows(page, viewOf(page, view), nav.filters.main, now);
    const row = selectedPodRow(page, rows);
    const pod = row && pods.get(row.name);
    return pod ? podObject(page.of.cluster, pod) : undefined;
  }
  if (page) {
    const object = viewOf(page, view)?.object;
    return page.of.kind === 'Pod' && object ? podObject(page.of.cluster, object) : page.of;
  }
  const onResource = nav.view === 'resources' || nav.view === 'graph' || nav.view === 'diff';
  const row = screen.row;
  if (!onResource || !row) return undefined;
  const cluster = row.cluster || state.context;
  return cluster ? resourceObject(cluster, row.id) : undefined;
}
