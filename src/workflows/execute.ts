/**
 * Carrying out an approved change set: the DAG walk applies (server-side) or deletes each
 * resource, records it in the state at once (the write goes on while its health is followed;
 * the run ends once every write is on disk, and a write that fails fails its resource and stops
 * new starts), and follows its health until it is Healthy, Degraded or out of time. A resource whose live object changed since the preview has the
 * difference reported (apply-as-previewed.ts: the server checks, no read before each apply). Each resource ends with what really
 * happened to it: succeeded (healthy, deleted, or unchanged), failed, stopped while still
 * progressing (interrupted), or forgotten (kept in the cluster for another stack, only dropped
 * from this stack's state).
 *
 * Every change is a (cluster, id): the same id on two clusters (a stack moved from one to the
 * other) is two changes, a create on the new cluster and a delete on the old. The concurrency
 * limit bounds the API calls in flight, not the resources being worked on: a resource waiting
 * to become healthy holds no slot, and its dependents start the moment it is healthy.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { refOf, type KubeObject } from '../model/kube-object.js';
import { referencesIn } from '../graph/references.js';
import { resolveReferences } from '../graph/resolve.js';
import type { HealthFollower } from '../health/watched-health.js';
import type { Health } from '../health/rules.js';
import type { StateBackend } from '../state/backend.js';
import type { OperationKind, OperationRecord } from '../state/model.js';
import { changeKey, refOfKey, type ChangeRef, type ChangeSet, type ResourceChange } from '../diff/change-set.js';
import { ResourceGraph } from '../graph/graph.js';
import { keyFor, type Clusters } from './plan.js';
import type { Stack } from '../konfig/workspace.js';
import { errorMessage } from '../diagnostics/user-error.js';
import { StateRecorder } from './state-recorder.js';
import { Slots } from './slots.js';
import { walkGraph, type Outcome, type RunOutcome } from './walk.js';
import { applyAsPreviewed } from './apply-as-previewed.js';

/**
 * What became of one resource. `stopped`: applied and recorded, but the run was interrupted
 * while its health was still Progressing, so nobody knows yet whether it works. `forgotten`: a
 * Delete of an object another stack also applied: it stays in the cluster and only leaves this
 * stack's state.
 */
export type ResourceOutcome = Outcome | 'stopped' | 'forgotten';

export type EngineEvent =
  | { type: 'started'; id: string; cluster: string; action: ResourceChange['action'] }
  | { type: 'applied'; id: string; cluster: string }
  | { type: 'health'; id: string; cluster: string; health: Health; at: string }
  | { type: 'finished'; id: string; cluster: string; outcome: ResourceOutcome; message?: string }
  | { type: 'skipped'; id: string; cluster: string; because: string }
  | { type: 'changed-since-preview'; id: string; cluster: string; message: string };

export interface ExecuteInput {
  stack: Stack;
  changeSet: ChangeSet;
  clusters: Clusters;
  backend: StateBackend;
  operation: OperationKind;
  operator: string;
  /** API calls in flight at most (health waits hold none). */
  concurrency: number;
  failFast?: boolean;
  forceConflicts?: boolean;
  /** Per resource: how long its health may take, and how long a delete may take. */
  timeoutMs: number;
  /** Health is followed only when given (apply --watch, and always in the console). */
  followHealth?: HealthFollower;
  /** How long a stuck pod is given, from its creation, before its workload fails (default 30 s). */
  healthGraceMs?: number;
  signal: AbortSignal;
  now?: () => string;
}

export interface ExecuteResult {
  /** Healthy, deleted, or left unchanged. */
  succeeded: ChangeRef[];
  failed: ChangeRef[];
  skipped: ChangeRef[];
  notStarted: ChangeRef[];
  /** Applied, then interrupted while still Progressing. */
  stopped: ChangeRef[];
  /** Kept in the cluster because another stack applied them too; only this stack's state dropped them. */
  forgotten: ChangeRef[];
  /** Failed because their health was judged Degraded: the stack is unhealthy. */
  unhealthy: ChangeRef[];
  interrupted: boolean;
  counts: { created: number; updated: number; deleted: number };
}

export async function executeChanges(input: ExecuteInput, emit: (e: EngineEvent) => void): Promise<ExecuteResult> {
  const now = input.now ?? (() => new Date().toISOString());
  const { changeSet, clusters } = input;
  const recorder = new StateRecorder(
    input.backend,
    (c) => keyFor(input.stack, c),
    changeSet.states,
    input.operator,
    now,
  );
  const byKey = new Map(changeSet.changes.map((c) => [changeKey(c), c]));
  /** The creates and updates by id: what references point at (a Spec's ids are unique). */
  const planned = new Map(changeSet.changes.filter((c) => c.action !== 'Delete').map((c) => [c.id, c]));
  const slots = new Slots(input.concurrency);
  const counts = { created: 0, updated: 0, deleted: 0 };
  const stopped: ChangeRef[] = [];
  const forgotten: ChangeRef[] = [];
  const unhealthy: ChangeRef[] = [];
  /** Server responses of this run: references resolve against them first. */
  const applied = new Map<string, KubeObject>();
  /** The state writes of the applies, each settled once on disk (or failed). */
  const writing: Promise<void>[] = [];
  /** Applied, but their state write failed: they count as failed. */
  const unrecorded = new Set<string>();
  /** Stops new starts: the user's interrupt, or a state that cannot be written. */
  const halt = new AbortController();
  if (input.signal.aborted) halt.abort();
  else input.signal.addEventListener('abort', () => halt.abort(), { once: true });

  const startTime = now();
  const involved = [...new Set(changeSet.changes.map((c) => c.cluster))].sort();
  const op = (result: OperationRecord['result']): OperationRecord => ({
    kind: input.operation,
    operator: input.operator,
    startTime,
    result,
    ...counts,
    ...(result === 'running' ? {} : { endTime: now() }),
  });
  // creates and updates first, each after its dependencies; then deletes, each after its
  // dependents: a stack moving to another cluster is up on the new one before the old one goes
  const applies = changeSet.changes.filter((c) => c.action !== 'Delete');
  const deletes = changeSet.changes.filter((c) => c.action === 'Delete');
  const forward = applyGraph(changeSet.graph, applies);
  const backward = changeSet.deletions.reversed();
  // a free slot goes to what comes first in the graph's start order (what others wait on first),
  // not to what asked first (the two walks run one after the other: their ranks never meet)
  const priority = new Map([forward, backward].flatMap((g) => g.startOrder().map((key, i) => [key, i] as const)));

  // each cluster's record is stored before anything changes there; each cluster's state is a file (or
  // Secret) of its own, so they are written together
  await Promise.all(involved.map((cluster) => recorder.operation(cluster, op('running'))));

  /** The calls of one apply (the reads its references need, the apply), in one slot. */
  const sendOne = async (c: ResourceChange): Promise<KubeObject> => {
    const client = clusters.client(c.cluster);
    const resource = c.resource!;
    // the targets of its references, as the cluster has them now: this run's server answers, or a read
    const targets = new Map<string, unknown>();
    for (const { target } of referencesIn(resource.attributes)) {
      if (targets.has(target)) continue;
      const t = planned.get(target);
      targets.set(
        target,
        applied.get(target) ??
          (t?.resource ? await clusters.client(t.cluster).get(refOf(t.resource.attributes as KubeObject)) : undefined),
      );
    }
    const { value, unresolved } = resolveReferences(resource.attributes, (t) => targets.get(t));
    if (unresolved.length) {
      const r = unresolved[0];
      throw new Error(
        `the reference to ${r.target}#${r.pointer} (at ${r.at}) has no value: the target ${targets.get(r.target) ? 'has no such field' : 'does not exist'}`,
      );
    }
    return applyAsPreviewed(client, c, value as KubeObject, input.forceConflicts, (message) =>
      emit({ type: 'changed-since-preview', id: c.id, cluster: c.cluster, message }),
    );
  };

  const applyOne = async (c: ResourceChange, release: () => void): Promise<ResourceOutcome> => {
    const resource = c.resource!;
    let result: KubeObject;
    try {
      result = await sendOne(c);
    } finally {
      release();
    }
    // the rest waits for the next turn of the event loop: answers come in together (a read of the
    // connection holds many) and the calls that the freed slots start are written only at the end
    // of a turn, so working on every answer first held those calls back while the cluster idled
    await nextTurn();
    applied.set(c.id, result);
    // the state write goes on while the health is followed: what depends on this resource needs
    // it healthy in the cluster, not on disk, and waiting for each write held every level of the
    // graph up by a write; the run ends only once every write is on disk (see `writing`)
    const recorded = recorder.record(c.cluster, {
      ...resource,
      live: {
        uid: String(result.metadata?.uid ?? ''),
        resourceVersion: String(result.metadata?.resourceVersion ?? ''),
      },
    });
    writing.push(
      recorded.then(
        () => undefined,
        (e: unknown) => {
          // nothing new may change the cluster once its state cannot be written
          halt.abort();
          unrecorded.add(changeKey(c));
          emit({
            type: 'finished',
            id: c.id,
            cluster: c.cluster,
            outcome: 'failed',
            message: `applied, but the state could not be written: ${errorMessage(e)}`,
          });
        },
      ),
    );
    if (c.action === 'Create') counts.created++;
    else counts.updated++;
    emit({ type: 'applied', id: c.id, cluster: c.cluster });
    if (!input.followHealth) return 'succeeded';
    const health = await input.followHealth(c.cluster, result, {
      signal: input.signal,
      timeoutMs: input.timeoutMs,
      ...(input.healthGraceMs !== undefined ? { graceMs: input.healthGraceMs } : {}),
      onHealth: (h) => emit({ type: 'health', id: c.id, cluster: c.cluster, health: h, at: now() }),
    });
    // the follower settles Progressing only when interrupted: the object was applied and
    // recorded, but whether it works is not known, so it is not reported as done
    if (health.state === 'Progressing') return 'stopped';
    if (health.state !== 'Healthy') {
      unhealthy.push({ cluster: c.cluster, id: c.id });
      throw new Error(`${health.reason ? `${health.reason}: ` : ''}${health.message}`);
    }
    return 'succeeded';
  };

  const deleteOne = async (c: ResourceChange, release: () => void): Promise<ResourceOutcome> => {
    if (c.sharedWith) {
      release();
      await recorder.forget(c.cluster, c.id);
      return 'forgotten';
    }
    const client = clusters.client(c.cluster);
    const ref = refOf(c.prior!.attributes as KubeObject);
    try {
      await client.delete(ref, 'Background');
    } finally {
      release();
    }
    // waiting for it to go is a wait, like a health wait: it holds no slot
    await client.waitGone(ref, input.timeoutMs);
    await recorder.forget(c.cluster, c.id);
    counts.deleted++;
    return 'succeeded';
  };

  const run = async (key: string): Promise<RunOutcome> => {
    const c = byKey.get(key)!;
    const id = c.id;
    // an unchanged resource talks to no API server; the others start once a slot is free, and
    // not at all when the run was stopped while they waited for it
    const release = c.action === 'UnChanged' ? () => undefined : await slots.acquire(priority.get(key));
    if (halt.signal.aborted) {
      release();
      return 'notStarted';
    }
    emit({ type: 'started', id, cluster: c.cluster, action: c.action });
    try {
      if (c.action === 'UnChanged') {
        // kept as it was; an unchanged resource the state lacks (an adopted one) is recorded
        if (!c.prior && c.resource && c.live)
          await recorder.record(c.cluster, {
            ...c.resource,
            live: {
              uid: String(c.live.metadata?.uid ?? ''),
              resourceVersion: String(c.live.metadata?.resourceVersion ?? ''),
            },
          });
        emit({ type: 'finished', id, cluster: c.cluster, outcome: 'succeeded' });
        return 'succeeded';
      }
      const outcome = c.action === 'Delete' ? await deleteOne(c, release) : await applyOne(c, release);
      if (outcome === 'stopped') stopped.push({ cluster: c.cluster, id });
      if (outcome === 'forgotten') forgotten.push({ cluster: c.cluster, id });
      const message =
        outcome === 'forgotten'
          ? `kept in the cluster: also applied by ${c.sharedWith!.join(', ')}; only forgotten by this stack`
          : outcome === 'stopped'
            ? 'stopped while progressing: applied and recorded, its health not yet known'
            : undefined;
      emit({ type: 'finished', id, cluster: c.cluster, outcome, ...(message ? { message } : {}) });
      // for the walk both went as far as they will: what depends on them may go on (or stops with the run)
      return outcome === 'failed' ? 'failed' : 'succeeded';
    } catch (e) {
      release();
      emit({ type: 'finished', id, cluster: c.cluster, outcome: 'failed', message: errorMessage(e) });
      return 'failed';
    }
  };

  // the walk itself is unbounded: the slots bound the API calls, and a health wait must not queue the rest
  const options = { concurrency: Infinity, failFast: input.failFast, signal: halt.signal };
  const listener = {
    skipped: (key: string, because: string) => {
      const c = byKey.get(key)!;
      emit({ type: 'skipped', id: c.id, cluster: c.cluster, because: refOfKey(because).id });
    },
  };
  const walk = await walkGraph(forward, new Set(applies.map(changeKey)), run, options, listener);
  await Promise.all(writing);
  const halted = halt.signal.aborted || (input.failFast === true && walk.failed.length > 0);
  if (deletes.length) {
    if (halted) walk.notStarted.push(...deletes.map(changeKey));
    else {
      const second = await walkGraph(backward, new Set(deletes.map(changeKey)), run, options, listener);
      for (const k of ['succeeded', 'failed', 'skipped', 'notStarted'] as const) walk[k].push(...second[k]);
    }
  }
  await Promise.all(writing);
  walk.failed.push(...walk.succeeded.filter((k) => unrecorded.has(k)));
  walk.succeeded = walk.succeeded.filter((k) => !unrecorded.has(k));
  const interrupted = input.signal.aborted;
  const result = interrupted ? 'interrupted' : walk.failed.length || walk.skipped.length ? 'failed' : 'succeeded';
  await Promise.all(involved.map((cluster) => recorder.operation(cluster, op(result))));
  const refs = (keys: string[]) => keys.map(refOfKey);
  const settledOtherwise = new Set([...stopped, ...forgotten].map(changeKey));
  return {
    succeeded: refs(walk.succeeded.filter((k) => !settledOtherwise.has(k))),
    failed: refs(walk.failed),
    skipped: refs(walk.skipped),
    notStarted: refs(walk.notStarted),
    stopped,
    forgotten,
    unhealthy,
    interrupted,
    counts,
  };
}

/** The Spec's graph over the (cluster, id) keys of its creates and updates: each id is on one cluster. */
function applyGraph(graph: ResourceGraph, applies: ResourceChange[]): ResourceGraph {
  const keyOf = new Map(applies.map((c) => [c.id, changeKey(c)]));
  return new ResourceGraph(
    keyOf.values(),
    graph.edges
      .filter((e) => keyOf.has(e.from) && keyOf.has(e.to))
      .map((e) => ({ from: keyOf.get(e.from)!, to: keyOf.get(e.to)!, kind: e.kind })),
  );
}
