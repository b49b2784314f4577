/**
 * Fields of the plan that another field manager owns now (someone ran `kubectl edit`, or a
 * controller took them): the plan shows them, and an apply refuses to take them back unless told
 * to, on both faces. `--force-conflicts` on the command line, the console's `:apply
 * --force-conflicts`, whose confirmation says which fields it takes back.
 */
import type { ChangeSet } from '../../diff/change-set.js';
import { shortId } from '../../model/ids.js';

export interface Conflict {
  id: string;
  cluster: string;
  /** The server's words: which fields, owned by which manager. */
  detail: string;
}

export function conflictsOf(changeSet: ChangeSet): Conflict[] {
  return changeSet.changes
    .filter((c) => c.conflict !== undefined && c.action !== 'Delete')
    .map((c) => ({ id: c.id, cluster: c.cluster, detail: c.conflict! }));
}

/** One line per conflict, for a refusal or a confirmation. */
export const conflictLines = (conflicts: readonly Conflict[]): string[] =>
  conflicts.map((c) => `${shortId(c.id)} on ${c.cluster}: ${c.detail}`);

/**
 * Why the apply is refused, or undefined when it may go: forced, or nothing conflicts. `how`
 * says how this face takes the fields back.
 */
export function conflictRefusal(conflicts: readonly Conflict[], forced: boolean, how: string): string | undefined {
  if (forced || conflicts.length === 0) return undefined;
  const n = conflicts.length;
  return `${n} resource${n === 1 ? ' has' : 's have'} fields another manager owns now (${conflictLines(conflicts).join('; ')}); the apply would not take them back. To take them back, ${how}`;
}

export const FORCE_ON_COMMAND_LINE = 'run the apply again with --force-conflicts';
export const FORCE_IN_CONSOLE = 'use :apply --force-conflicts, whose confirmation lists them';
