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

export interface ResourceChange {
  id: string;
  cluster: string;
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
  /** The resources leaving, with the dependencies the state recorded: deleted in reverse order. */
  deletions: ResourceGraph;
  /** The prior state of every cluster involved (undefined: never applied there). */
  states: Map<string, State | undefined>;
}

export function summarize(changes: ResourceChange[]): Record<Action, number> {
  const counts: Record<Action, number> = { Create: 0, Update: 0, Delete: 0, UnChanged: 0, Import: 0 };
  for (const c of changes) counts[c.action]++;
  return counts;
}
