/**
 * The ChangeSet: what an apply or destroy of a stack would do, resource by resource and cluster
 * by cluster, as the three-way comparison decided it. Planned by workflows/plan.ts, carried out
 * by workflows/execute.ts, shown by change-text.ts and the console.
 */
import type { KubeObject } from '../model/kube-object.js';
import type { ResourceGraph } from '../graph/graph.js';
import type { Reference } from '../graph/references.js';
import type { Resource } from '../model/resource.js';
import type { State, StateResource } from '../state/model.js';
import type { Action, Decision } from './actions.js';

/** Where a change happens: with several clusters, a resource is addressed by (cluster, id). */
export interface ChangeRef {
  cluster: string;
  id: string;
}

/**
 * The one string for a (cluster, id), for maps, the executor's walk and progress records: the
 * same id on two clusters (a stack moving from one to the other) is two changes, never one.
 */
export const changeKey = (c: ChangeRef): string => `${c.cluster}\u0000${c.id}`;

/** The (cluster, id) a key stands for. */
export function refOfKey(key: string): ChangeRef {
  const at = key.indexOf('\u0000');
  return { cluster: key.slice(0, at), id: key.slice(at + 1) };
}

export interface ResourceChange extends ChangeRef {
  action: Action;
  decision: Decision;
  /** The resource as the Spec declares it (references unresolved). */
  resource?: Resource;
  prior?: StateResource;
  live?: KubeObject;
  dryRun?: KubeObject;
  /** References that cannot be resolved until their targets exist ("known after apply"). */
  unresolved: Reference[];
  /** The server refused the dry run; the decision falls back to comparing the fields the plan sets. */
  dryRunError?: string;
  /** Fields of the plan another field manager owns now (the server's words); an apply takes them back only when forced. */
  conflict?: string;
  /** For a delete: the other stacks (project/stack) whose state also holds the object, which stays. */
  sharedWith?: string[];
}

export interface ChangeSet {
  project: string;
  stack: string;
  /** Creates and updates in dependency order, then deletes in reverse dependency order. */
  changes: ResourceChange[];
  graph: ResourceGraph;
  /**
   * The resources leaving, with the dependencies the state recorded, by `changeKey`: deleted in
   * reverse order. Keyed by (cluster, id) because a stack moved between clusters leaves the same
   * ids behind on the old one while creating them on the new one.
   */
  deletions: ResourceGraph;
  /** The prior state of every cluster involved (undefined: never applied there). */
  states: Map<string, State | undefined>;
}

/** Every cluster the change set touches: where it changes something, and where the stack was applied before (a stack moving clusters touches both). */
export function touchedClusters(cs: ChangeSet): string[] {
  return [...new Set([...cs.changes.map((c) => c.cluster), ...cs.states.keys()])].sort();
}

export function summarize(changes: ResourceChange[]): Record<Action, number> {
  const counts: Record<Action, number> = { Create: 0, Update: 0, Delete: 0, UnChanged: 0, Import: 0 };
  for (const c of changes) counts[c.action]++;
  return counts;
}
