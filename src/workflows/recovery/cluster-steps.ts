/**
 * The recovery steps against real clusters (or the sandbox): the gate reads how many replicas
 * of each owning workload are available, the action deletes or evicts a pod (that incarnation
 * of it, by uid) or writes a rollout restart's annotation, and verification reads the workload
 * and its pods until the replacements are Ready and the owner Healthy, judging a stuck replacement
 * by the same rule as apply (health/pods.ts: stuck past its grace fails). Every step can run twice:
 * a pod whose uid changed was already replaced, an annotation already written is left alone.
 * The gate, the action and verification read the namespace's pods and workloads from watch-fed
 * caches, opened when the run opens, and look again when something changed there (or once a
 * second, for the deadline), so a batch is verified the moment its last replacement turns Ready,
 * without listing the namespace in a loop or reading a pod before deleting it.
 */
import { ObjectCache } from '../../cluster/object-cache.js';
import { ApiError } from '../../cluster/rest.js';
import type { ObjectClient } from '../../cluster/objects.js';
import { apiVersionOf, type KubeObject } from '../../model/kube-object.js';
import { DEFAULT_GRACE_MS, podVerdict, stuckReason, type HealthClock } from '../../health/pods.js';
import { assess, conditionMet, type Health } from '../../health/rules.js';
import { asObject } from '../../model/resource.js';
import {
  REPLACING_OWNERS,
  StepError,
  targetName,
  type HealthNote,
  type RecoverySteps,
  type RunBatch,
  type RunTarget,
  type StepInput,
  type TargetOutcome,
} from './model.js';
import { listingKey, type Listings } from './run-plan.js';

export const RESTARTED_AT = 'kubectl.kubernetes.io/restartedAt';

export interface StepOptions {
  /** How long a gate or a verification waits for a change before looking again anyway (default 1 s). */
  recheckMs?: number;
  now?: () => number;
  /** How long a stuck replacement is given from its creation (default 30 s, as for apply). */
  graceMs?: number;
  /**
   * The run's batches: the watches their gates and verifications read are opened at once, so
   * that the first batch starts on approval instead of waiting for the namespaces to be listed.
   */
  batches?: readonly RunBatch[];
  /**
   * Real time per unit of the clusters' time (a rehearsal's sandbox runs faster: 0.25 is four
   * times as fast): the steps' own waits (a recheck, an eviction tried again) are scaled by it, so
   * they take the same time on the clusters' clock as they would against the real ones.
   */
  timeScale?: number;
  /** What was listed before the approval (the pods the plan was frozen from, their workloads): the caches start from it. */
  listed?: Listings;
}

/** What the steps need of the clusters: a client per context (a ClusterSet). */
export interface ClusterAccess {
  client(cluster: string): ObjectClient;
}

interface Workload {
  /** `namespace/Kind/name`. */
  name: string;
  namespace: string;
  kind: string;
  objectName: string;
  targets: RunTarget[];
}

/** The workloads a batch touches: a pod's owner, or the target itself for a rollout restart. */
function workloadsOf(batch: RunBatch): Workload[] {
  const byName = new Map<string, Workload>();
  for (const t of batch.targets) {
    const owner = t.kind === 'Pod' ? t.owner : { kind: t.kind, name: t.name };
    if (!owner || !REPLACING_OWNERS.has(owner.kind)) continue;
    const name = `${t.namespace}/${owner.kind}/${owner.name}`;
    const w = byName.get(name) ?? {
      name,
      namespace: t.namespace,
      kind: owner.kind,
      objectName: owner.name,
      targets: [],
    };
    w.targets.push(t);
    byName.set(name, w);
  }
  return [...byName.values()];
}

const uidOf = (o: KubeObject) => String(o.metadata?.uid ?? '');
const deleting = (o: KubeObject) => o.metadata?.deletionTimestamp !== undefined;
const ready = (p: KubeObject) => !deleting(p) && conditionMet(p, 'Ready');

/** Replicas the workload wants: a DaemonSet's come from its nodes. */
export function desired(w: KubeObject): number {
  if (w.kind === 'DaemonSet') return Number(asObject(w.status).desiredNumberScheduled ?? 0);
  const r = asObject(w.spec).replicas;
  return typeof r === 'number' ? r : 1;
}

/** Whether a pod's labels satisfy the workload's matchLabels (what the workloads kdeck restarts use). */
function selector(w: KubeObject): (pod: KubeObject) => boolean {
  const want = Object.entries(asObject(asObject(asObject(w.spec).selector).matchLabels));
  return (pod) => {
    const labels = asObject(asObject(pod.metadata).labels);
    return want.length > 0 && want.every(([k, v]) => labels[k] === v);
  };
}

interface Reading {
  object: KubeObject;
  pods: KubeObject[];
}

/** The watch-fed caches of a run: one per cluster, namespace and kind, made when first needed. */
class Caches {
  private readonly caches = new Map<string, ObjectCache>();

  constructor(
    private readonly clusters: ClusterAccess,
    private readonly listed: Listings = new Map(),
  ) {}

  of(cluster: string, namespace: string, kind: string): ObjectCache {
    const key = `${cluster}/${namespace}/${kind}`;
    let c = this.caches.get(key);
    if (!c) {
      const listed = this.listed.get(listingKey(cluster, namespace, kind));
      c = new ObjectCache(this.clusters.client(cluster), { apiVersion: apiVersionOf(kind), kind, namespace }, listed);
      this.caches.set(key, c);
    }
    return c;
  }

  close(): void {
    for (const c of this.caches.values()) c.close();
    this.caches.clear();
  }
}

/** The batch's workloads and their pods, from the caches (the first call waits for their lists). */
async function readAll(
  caches: Caches,
  cluster: string,
  workloads: Workload[],
): Promise<{ readings: Reading[]; sources: ObjectCache[] }> {
  const sources = [
    ...new Set(
      workloads.flatMap((w) => [caches.of(cluster, w.namespace, w.kind), caches.of(cluster, w.namespace, 'Pod')]),
    ),
  ];
  await Promise.all(sources.map((c) => c.ready()));
  // each cache is read once per look, however many of the batch's workloads it holds
  const items = new Map(sources.map((c) => [c, c.items()]));
  const readings = workloads.map((w) => {
    const object = items.get(caches.of(cluster, w.namespace, w.kind))!.find((o) => o.metadata?.name === w.objectName);
    if (!object)
      throw new StepError(
        'OwnerMissing',
        `${w.name} no longer exists, so nothing would replace its pods; check who deleted it before going on`,
      );
    return { object, pods: items.get(caches.of(cluster, w.namespace, 'Pod'))!.filter(selector(object)) };
  });
  return { readings, sources };
}

/**
 * Resolves when one of `sources` changes, after `ms`, or on abort, whichever comes first. A
 * change resolves after the events that came in with it: the watch events of one read arrive one
 * by one, and a look after each would judge a batch many times over for what is one change.
 */
function changeOf(sources: ObjectCache[], ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const offs: (() => void)[] = [];
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      for (const off of offs) off();
      resolve();
    };
    const changed = () => {
      for (const off of offs.splice(0)) off();
      setImmediate(done);
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    for (const s of sources) offs.push(s.onChange(changed));
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

const sameItems = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Pods of a batch: the original incarnation still there and not yet going. */
const stillThere = (pods: KubeObject[], t: RunTarget) => pods.some((p) => uidOf(p) === t.uid && !deleting(p));

export function clusterSteps(
  clusters: ClusterAccess,
  audit: RecoverySteps['audit'],
  options: StepOptions = {},
): RecoverySteps {
  const timeScale = options.timeScale ?? 1;
  const recheckMs = options.recheckMs ?? 1_000;
  const now = options.now ?? Date.now;
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const caches = new Caches(clusters, options.listed);
  for (const batch of options.batches ?? [])
    for (const w of workloadsOf(batch)) {
      caches.of(batch.cluster, w.namespace, w.kind);
      caches.of(batch.cluster, w.namespace, 'Pod');
    }

  /**
   * Runs `check` (undefined: done; notes: not yet) again on every change of what it read, until
   * done; at the deadline, fails with the first note.
   */
  async function until(
    input: StepInput,
    signal: AbortSignal,
    report: (n: HealthNote) => void,
    timeoutReason: string,
    check: () => Promise<{ waiting: HealthNote[] | undefined; sources: ObjectCache[] }>,
  ): Promise<void> {
    // a reading is reported when it first appears, not again on every look
    let last = new Set<string>();
    for (;;) {
      const { waiting, sources } = await check();
      if (!waiting) return;
      const seen = new Set<string>();
      for (const n of waiting) {
        const key = `${n.subject}|${n.health.state}|${n.health.reason ?? ''}|${n.health.message}`;
        if (!last.has(key)) report(n);
        seen.add(key);
      }
      last = seen;
      if (signal.aborted) throw new StepError('Interrupted', 'the step was interrupted');
      if (now() >= input.deadline) {
        const first = waiting[0]!;
        throw new StepError(
          first.health.reason ?? timeoutReason,
          `${first.subject}: ${first.health.message} (${timeoutReason === 'GateTimeout' ? 'the batch did not start' : 'out of time'})`,
        );
      }
      await changeOf(sources, Math.min(recheckMs, Math.max(0, input.deadline - now())) * timeScale, signal);
    }
  }

  return {
    now,
    audit,
    close: () => caches.close(),

    async gate(input, report, signal) {
      const workloads = workloadsOf(input.batch);
      await until(input, signal, report, 'GateTimeout', async () => {
        const notes: HealthNote[] = [];
        const { readings, sources } = await readAll(caches, input.cluster, workloads);
        for (const [i, { object, pods }] of readings.entries()) {
          const w = workloads[i]!;
          const want = desired(object);
          const available = pods.filter(ready).length;
          const taking = input.action === 'rollout-restart' ? 0 : w.targets.filter((t) => stillThere(pods, t)).length;
          // taking `taking` pods down must leave at least want − maxUnavailable available
          if (available - taking < want - input.maxUnavailable) {
            notes.push({
              subject: w.name,
              health: {
                state: 'Progressing',
                reason: 'GateClosed',
                message: `${available} of ${want} available; the batch would take ${taking} down and at most ${input.maxUnavailable} may be unavailable`,
              },
            });
          }
        }
        return { waiting: notes.length ? notes : undefined, sources };
      });
    },

    async act(input, signal) {
      const c = clusters.client(input.cluster);
      const podOf = async (t: RunTarget) => {
        const pods = caches.of(input.cluster, t.namespace, 'Pod');
        await pods.ready();
        return pods.get(t.uid ?? '');
      };
      const wait = { now, sleep: (ms: number) => sleep(ms * timeScale, signal), audit };
      return Promise.all(input.batch.targets.map((t) => actOn(c, input, t, podOf, signal, wait)));
    },

    async verify(input, report, signal) {
      const workloads = workloadsOf(input.batch);
      const orphans = input.batch.targets.filter((t) => t.kind === 'Pod' && !t.owner);
      if (orphans.length) throw new StepError('NoOwner', `${targetName(orphans[0]!)} has no owner to replace it`);
      const reported = new Set<string>();
      const seen: Sightings = { firstSeen: new Map(), heldUntilRestartsAbove: new Map() };
      // a workload none of whose objects changed since the last look is judged as it was then;
      // time alone changes a verdict too (a grace running out), so not for longer than a recheck
      const judged = new Map<string, Reading & { at: number; health: Health }>();
      await until(input, signal, report, 'Timeout', async () => {
        const notes: HealthNote[] = [];
        const { readings, sources } = await readAll(caches, input.cluster, workloads);
        for (const [i, { object, pods }] of readings.entries()) {
          const w = workloads[i]!;
          const at = now();
          const last = judged.get(w.name);
          const h =
            last && last.object === object && at - last.at < recheckMs && sameItems(last.pods, pods)
              ? last.health
              : verdict(input, w, object, pods, seen, { now: at, graceMs });
          if (h !== last?.health) judged.set(w.name, { object, pods, at, health: h });
          if (h.state === 'Degraded') throw new StepError(h.reason ?? 'Degraded', `${w.name}: ${h.message}`);
          if (h.state === 'Progressing') notes.push({ subject: w.name, health: h });
          else if (!reported.has(w.name)) {
            reported.add(w.name);
            report({ subject: w.name, health: h });
          }
        }
        return { waiting: notes.length ? notes : undefined, sources };
      });
    },
  };
}

/**
 * One target's action, done at most once whatever happened before. Whether a pod is still there
 * is read from the watch-fed cache: one that lags can only say a pod is there when it is going or
 * gone, and the delete (or eviction), bound to the pod's uid, then finds nothing to do.
 */
async function actOn(
  c: ObjectClient,
  input: StepInput,
  t: RunTarget,
  podOf: (t: RunTarget) => Promise<KubeObject | undefined>,
  signal: AbortSignal,
  wait: { now: () => number; sleep: (ms: number) => Promise<void>; audit: RecoverySteps['audit'] },
): Promise<TargetOutcome> {
  const { now } = wait;
  if (input.action === 'rollout-restart') {
    const ref = { apiVersion: apiVersionOf(t.kind), kind: t.kind, namespace: t.namespace, name: t.name };
    const live = await c.get(ref);
    if (!live) throw new StepError('NotFound', `${targetName(t)} does not exist in ${input.cluster}`);
    const annotations = asObject(asObject(asObject(asObject(live.spec).template).metadata).annotations);
    if (annotations[RESTARTED_AT] === input.restartedAt) return 'already-restarted';
    await c.mergePatch(ref, {
      spec: { template: { metadata: { annotations: { [RESTARTED_AT]: input.restartedAt } } } },
    });
    return 'restarted';
  }
  if (!t.owner)
    throw new StepError(
      'NoOwner',
      `${targetName(t)} has no owner: deleting it would not bring it back; restart it by hand`,
    );
  // a pod gone before the run was planned has nothing left to restart
  if (!t.uid) return 'already-replaced';
  const ref = { apiVersion: 'v1', kind: 'Pod', namespace: t.namespace, name: t.name };
  const live = await podOf(t);
  if (!live || deleting(live)) return 'already-replaced';
  if (input.action === 'delete')
    return (await c.delete(ref, 'Background', { uid: t.uid })) ? 'deleted' : 'already-replaced';
  // an eviction a PodDisruptionBudget refuses now may be allowed once other pods are back; the
  // first refusal of a target is audited, so the log says why the batch took longer
  for (let refused = false; ; refused = true) {
    try {
      return (await c.evict(ref, t.uid)) ? 'evicted' : 'already-replaced';
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 429) || now() >= input.deadline || signal.aborted) {
        if (e instanceof ApiError && e.status === 429)
          throw new StepError('DisruptionBudget', `${targetName(t)}: ${e.message}`);
        throw e;
      }
      if (!refused)
        wait.audit({
          cluster: input.cluster,
          target: targetName(t),
          action: 'evict',
          outcome: 'refused',
          detail: `${e.detail || e.reason}; tried again every second until the health timeout`,
        });
      await wait.sleep(1_000);
    }
  }
}

const restarts = (p: KubeObject) =>
  (Array.isArray(asObject(p.status).containerStatuses)
    ? (asObject(p.status).containerStatuses as unknown[])
    : []
  ).reduce<number>((n, c) => n + Number(asObject(c).restartCount ?? 0), 0);

/** The replacements a verification has seen, by uid. */
interface Sightings {
  /** When it first saw each: the health clock reads this map as it is. */
  firstSeen: Map<string, number>;
  /** The restarts of one that was crash-looping already when first seen: judged again only after its next restart. */
  heldUntilRestartsAbove: Map<string, number>;
}

/**
 * Whether a workload is back: the batch's old pods going, enough Ready pods, and the owner
 * Healthy. A replacement stuck past its grace fails the batch (the shared rule, health/pods.ts).
 * One crash-looping already when this verification first sees it (a resumed run looking again
 * after a pause) is judged only after its next restart, since the cause may have been fixed in
 * between; the deadline still bounds the wait.
 */
function verdict(
  input: StepInput,
  w: Workload,
  object: KubeObject,
  pods: KubeObject[],
  seen: Sightings,
  at: { now: number; graceMs: number },
): Health {
  const old = new Set(w.targets.map((t) => t.uid));
  const fresh = pods.filter((p) => !old.has(uidOf(p)) && !deleting(p));
  for (const p of fresh) {
    if (!seen.firstSeen.has(uidOf(p))) {
      seen.firstSeen.set(uidOf(p), at.now);
      if (stuckReason(p)?.reason === 'CrashLoopBackOff') seen.heldUntilRestartsAbove.set(uidOf(p), restarts(p));
    }
  }
  const clock: HealthClock = { ...at, firstSeen: seen.firstSeen };
  const judged = fresh.map((p) => {
    const held = seen.heldUntilRestartsAbove.get(uidOf(p));
    const { failed, stuck } = podVerdict(p, clock);
    return { failed, stuck, held: held !== undefined && restarts(p) <= held };
  });
  const failed = judged.find((j) => j.failed && !j.held)?.failed;
  if (failed) return { state: 'Degraded', reason: failed.reason, message: failed.message };
  for (const { failed: f, stuck, held } of judged) {
    const trouble = f ?? stuck;
    if (trouble)
      return {
        state: 'Progressing',
        reason: trouble.reason,
        message: held ? `${trouble.message} (from before; waiting for its next restart)` : trouble.message,
      };
  }
  if (input.action !== 'rollout-restart') {
    const lingering = w.targets.filter((t) => stillThere(pods, t));
    if (lingering.length)
      return { state: 'Progressing', message: `waiting for ${lingering.map((t) => t.name).join(', ')} to go` };
  }
  const want = desired(object);
  const readyCount = pods.filter(ready).length;
  if (readyCount < want) return { state: 'Progressing', message: `${readyCount} of ${want} pods Ready` };
  const h = assess(object, { pods }, clock);
  return h.state === 'Healthy' ? { state: 'Healthy', message: `${readyCount} of ${want} pods Ready; ${h.message}` } : h;
}
