/**
 * Drilling down from a stack's resource: the pages about one object that open over the main
 * pane (a workload's or a Service's pods, an object described, its live YAML), kept as a stack
 * of pages in the navigation so that esc goes back one page at a time. Each page remembers the
 * main filter of the page below it, which comes back with esc. Pure.
 */
import type { ObjectPage, ObjectView } from '../app/console/objects.js';
import { podRow, sortPods, type PodRow, type PodSort } from '../app/console/pod-rows.js';
import type { SelectedObject } from '../app/console/selected-object.js';
import type { KubeObject } from '../model/kube-object.js';
import { filterRows } from './derive.js';

interface PageBase {
  of: SelectedObject;
  /** The main filter of what was below, given back when this page closes. */
  filterBelow: string;
}

export type DrillPage =
  | (PageBase & { kind: 'pods'; selected?: string; sort?: PodSort })
  | (PageBase & { kind: 'describe'; scroll: number })
  | (PageBase & { kind: 'yaml'; scroll: number; managedFields: boolean });

export type DrillKind = ObjectPage;

/** A new page about `of`. */
export function drillPage(kind: DrillKind, of: SelectedObject): DrillPage {
  const base = { of, filterBelow: '' };
  switch (kind) {
    case 'pods':
      return { ...base, kind };
    case 'describe':
      return { ...base, kind, scroll: 0 };
    case 'yaml':
      return { ...base, kind, scroll: 0, managedFields: false };
  }
}

/** The view data of `page`, when the view followed is the page's. */
export function viewOf(page: DrillPage | undefined, view: ObjectView | undefined): ObjectView | undefined {
  if (!page || !view) return undefined;
  const r = view.request;
  const same =
    r.page === page.kind &&
    r.of.cluster === page.of.cluster &&
    r.of.kind === page.of.kind &&
    r.of.namespace === page.of.namespace &&
    r.of.name === page.of.name;
  return same ? view : undefined;
}

export const podRowText = (r: PodRow) => `${r.name} ${r.status} ${r.ready} ${r.node} ${r.ip}`;

/** The pods page's rows: the followed pods as kubectl prints them, filtered and sorted. */
export function podRows(
  page: Extract<DrillPage, { kind: 'pods' }>,
  view: ObjectView | undefined,
  filter: string,
  now: number,
): { rows: readonly PodRow[]; pods: ReadonlyMap<string, KubeObject> } {
  const pods = new Map((view?.pods ?? []).map((p) => [String(p.metadata?.name ?? ''), p]));
  const rows = sortPods(
    [...pods.values()].map((p) => podRow(p, now)),
    page.sort,
  );
  return { rows: filterRows(rows, filter, podRowText), pods };
}

/** The row the pods page has selected: the remembered one while it is shown, else the first. */
export function selectedPodRow(
  page: Extract<DrillPage, { kind: 'pods' }>,
  rows: readonly PodRow[],
): PodRow | undefined {
  return rows.find((r) => r.name === page.selected) ?? rows[0];
}
