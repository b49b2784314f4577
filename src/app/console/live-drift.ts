/**
 * What a batch of the cluster watch's events means for the stacks: each planned resource's
 * new live status (health, drift, deleted), the drift to report, and the stacks to plan again.
 * Pure: the session applies it to its store.
 */
import type { FieldChange } from '../../diff/fields.js';
import { shortId } from '../../model/ids.js';
import { manifestId } from '../../model/resource.js';
import { liveStatusAfter } from './live-status.js';
import type { LiveEvent } from './live-watch.js';
import { changeIndex, liveKey, withStack, type ConsoleState, type LiveStatus, type StackEntry } from './state.js';

/** liveKey → the stacks that plan the resource. */
export type LiveIndex = ReadonlyMap<string, ReadonlySet<string>>;

export function liveIndexOf(stacks: readonly StackEntry[]): LiveIndex {
  const index = new Map<string, Set<string>>();
  for (const s of stacks) {
    for (const c of s.changeSet?.changes ?? []) {
      const k = liveKey(c.cluster, c.id);
      if (!index.has(k)) index.set(k, new Set());
      index.get(k)!.add(s.key);
    }
  }
  return index;
}

/** Whether two readings of a resource would look the same on screen. */
function sameLive(a: LiveStatus | undefined, b: LiveStatus): boolean {
  return (
    a !== undefined &&
    a.drift === b.drift &&
    a.deleted === b.deleted &&
    a.health?.state === b.health?.state &&
    a.health?.reason === b.health?.reason &&
    a.health?.message === b.health?.message
  );
}

export function driftText(stack: string, id: string, cluster: string, deleted: boolean, fields: FieldChange[]): string {
  return `${stack}: ${shortId(id)} on ${cluster} ${deleted ? 'was deleted' : `changed (${fields.map((f) => f.path).join(', ')})`} outside kdeck`;
}

export interface LiveOutcome {
  state: ConsoleState;
  /** New drift, as sentences (without the `drift: ` the log puts before them). */
  drifted: string[];
  /** The stacks that drifted: they are planned again. */
  replan: Set<string>;
}

export function withLiveEvents(state: ConsoleState, events: readonly LiveEvent[], index: LiveIndex): LiveOutcome {
  // the latest object per resource, gathered per stack: one new live map per stack and batch
  const latest = new Map<string, Map<string, LiveEvent>>();
  for (const e of events) {
    const id = manifestId(e.object);
    if (typeof id !== 'string') continue;
    const k = liveKey(e.cluster, id);
    for (const stack of index.get(k) ?? []) {
      if (!latest.has(stack)) latest.set(stack, new Map());
      latest.get(stack)!.set(k, e);
    }
  }
  const drifted: string[] = [];
  const replan = new Set<string>();
  let next = state;
  for (const [stack, byKey] of latest) {
    // while kdeck itself changes the stack, changes are not drift
    const running = state.operations.get(stack)?.running ?? false;
    next = withStack(next, stack, (entry) => {
      if (!entry.changeSet) return entry;
      const changes = changeIndex(entry.changeSet);
      let live: Map<string, LiveStatus> | undefined;
      for (const [k, e] of byKey) {
        const change = changes.get(k);
        if (!change) continue;
        const before = entry.live.get(k);
        const { status, driftFields } = liveStatusAfter(change, e.type === 'DELETED' ? undefined : e.object);
        const after = running ? { ...status, drift: false } : status;
        if (sameLive(before, after)) continue;
        if (after.drift && !before?.drift) {
          drifted.push(driftText(stack, change.id, change.cluster, after.deleted === true, driftFields));
          replan.add(stack);
        }
        live ??= new Map(entry.live);
        live.set(k, after);
      }
      return live ? { ...entry, live } : entry;
    });
  }
  return { state: next, drifted, replan };
}
