/**
 * Pods that are stuck, and when being stuck fails their workload: the one rule that apply (the
 * health follower) and recovery (batch verification) both judge replacements by. A pod is stuck
 * when a container keeps crashing (CrashLoopBackOff after at least two restarts), its image does
 * not pull (ImagePullBackOff, ErrImagePull, InvalidImageName), its container cannot be made
 * (CreateContainerConfigError, CreateContainerError), or no node takes it (Unschedulable). Each
 * of these sometimes clears up by itself (a registry hiccup, a Secret applied a moment later, a
 * node being added), so a stuck pod fails its workload only once a grace, counted from the pod's
 * creation, has passed; until then the workload is Progressing with the pod's reason.
 */
import type { KubeObject } from '../model/kube-object.js';
import { asObject } from '../model/resource.js';

/** How long a pod may be stuck, from its creation, before it fails its workload. */
export const DEFAULT_GRACE_MS = 30_000;

/** A container restarted this often, waiting in CrashLoopBackOff, is crash-looping (once could be a fluke). */
export const CRASH_LOOP_RESTARTS = 2;

/** The time the rules judge at: injected, so that tests (and a resumed run) decide the clock. */
export interface HealthClock {
  /** Epoch milliseconds. */
  now: number;
  /** How long a stuck pod is given, counted from its creation. */
  graceMs: number;
  /**
   * When the caller first saw each pod (by uid), epoch ms. A cluster whose clock runs ahead of
   * ours stamps pods with a creation time in our future, and a grace counted from it would end
   * late or never; a pod's grace counts from the earlier of its creation and our first sight.
   */
  firstSeen?: ReadonlyMap<string, number>;
}

/** The wall clock with the default grace: what a caller without a clock of its own judges by. */
export const wallClock = (): HealthClock => ({ now: Date.now(), graceMs: DEFAULT_GRACE_MS });

/** Why a pod is stuck: a short reason (as kubectl shows it) and a sentence naming the pod. */
export interface Stuck {
  reason: string;
  message: string;
}

const arr = (x: unknown): KubeObject[] => (Array.isArray(x) ? x.map(asObject) : []);
const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

/** Waiting reasons that leave a container stuck from the first time they show. */
const STUCK_WAITING = new Set([
  'ImagePullBackOff',
  'ErrImagePull',
  'InvalidImageName',
  'CreateContainerConfigError',
  'CreateContainerError',
]);

const uidOf = (pod: KubeObject): string => str(asObject(pod.metadata).uid) ?? '';
const nameOf = (pod: KubeObject): string => str(asObject(pod.metadata).name) ?? 'pod';

/** Why `pod` is stuck, if it is (whatever its age). */
export function stuckReason(pod: KubeObject): Stuck | undefined {
  const status = asObject(pod.status);
  for (const c of [...arr(status.initContainerStatuses), ...arr(status.containerStatuses)]) {
    const waiting = asObject(asObject(c.state).waiting);
    const reason = str(waiting.reason);
    if (!reason) continue;
    const crashLooping = reason === 'CrashLoopBackOff' && Number(c.restartCount ?? 0) >= CRASH_LOOP_RESTARTS;
    if (STUCK_WAITING.has(reason) || crashLooping) {
      const detail = str(waiting.message);
      return {
        reason,
        message: `pod ${nameOf(pod)}: container ${str(c.name) ?? '?'} ${reason}${detail ? `: ${detail}` : ''}`,
      };
    }
  }
  const scheduled = arr(status.conditions).find((c) => c.type === 'PodScheduled');
  if (str(scheduled?.status) === 'False' && str(scheduled?.reason) === 'Unschedulable')
    return {
      reason: 'Unschedulable',
      message: `pod ${nameOf(pod)} cannot be scheduled${str(scheduled?.message) ? `: ${str(scheduled?.message)}` : ''}`,
    };
  return undefined;
}

/** When the pod's grace started: its creation, or when we first saw it if the cluster's clock runs ahead. */
function graceStart(pod: KubeObject, clock: HealthClock): number {
  const created = Date.parse(str(asObject(pod.metadata).creationTimestamp) ?? '');
  const seen = clock.firstSeen?.get(uidOf(pod));
  const candidates = [Number.isNaN(created) ? undefined : created, seen].filter((t): t is number => t !== undefined);
  // a pod with neither time is as young as it can be: it was just seen
  return candidates.length ? Math.min(...candidates) : clock.now;
}

/** When the grace of `pod` ends, epoch ms. */
export function graceEnd(pod: KubeObject, clock: HealthClock): number {
  return graceStart(pod, clock) + clock.graceMs;
}

/**
 * How a pod stands by the shared rule: `failed` once it is stuck past its grace (or ended in
 * phase Failed, which no waiting undoes), `stuck` while it is stuck within its grace, else nothing.
 */
export function podVerdict(pod: KubeObject, clock: HealthClock): { failed?: Stuck; stuck?: Stuck } {
  const status = asObject(pod.status);
  if (str(status.phase) === 'Failed')
    return {
      failed: {
        reason: str(status.reason) ?? 'Failed',
        message: `pod ${nameOf(pod)} failed${str(status.message) ? `: ${str(status.message)}` : ''}`,
      },
    };
  const stuck = stuckReason(pod);
  if (!stuck) return {};
  return clock.now >= graceEnd(pod, clock) ? { failed: stuck } : { stuck };
}

const labelOf = (pod: KubeObject, label: string): string | undefined =>
  str(asObject(asObject(pod.metadata).labels)[label]);
const createdAt = (pod: KubeObject): number => Date.parse(str(asObject(pod.metadata).creationTimestamp) ?? '') || 0;

/** The ReplicaSet a Deployment's Progressing condition names as its new one, as the deployment controller writes it. */
function newReplicaSetOf(deployment: KubeObject): string | undefined {
  const progressing = arr(asObject(deployment.status).conditions).find((c) => c.type === 'Progressing');
  return /(?:ReplicaSet|replica set) "([^"]+)"/.exec(str(progressing?.message) ?? '')?.[1];
}

const ownedBy = (pod: KubeObject, kind: string, name: string): boolean =>
  arr(asObject(pod.metadata).ownerReferences).some((r) => r.kind === kind && r.name === name);

/**
 * The pods of the workload's current revision, not yet going: an old revision's pods in trouble
 * are what a rollout replaces, so they do not fail it; and none is current before the controller
 * has observed the workload's spec (the new revision may not exist yet, and the old pods would be
 * taken for new ones). A Deployment's current pods are those of the ReplicaSet its Progressing
 * condition names, as the deployment controller writes it; without such a
 * condition, those with the pod-template-hash of its most recently created pod. A StatefulSet
 * names its update revision; a DaemonSet labels its pods with the template generation. Other
 * workloads: all their pods.
 */
export function currentPods(workload: KubeObject, pods: readonly KubeObject[]): KubeObject[] {
  const live = pods.filter((p) => asObject(p.metadata).deletionTimestamp === undefined);
  const only = (label: string, value: string | undefined) =>
    value === undefined ? live : live.filter((p) => labelOf(p, label) === value);
  const kind = str(workload.kind);
  const generation = asObject(workload.metadata).generation;
  const observed = asObject(workload.status).observedGeneration;
  // until its controller has seen the spec, a workload's revision labels still name the old one
  if (
    (kind === 'Deployment' || kind === 'StatefulSet' || kind === 'DaemonSet') &&
    typeof generation === 'number' &&
    (typeof observed !== 'number' || observed < generation)
  )
    return [];
  switch (kind) {
    case 'Deployment': {
      const replicaSet = newReplicaSetOf(workload);
      if (replicaSet) return live.filter((p) => ownedBy(p, 'ReplicaSet', replicaSet));
      const newest = [...live].sort((a, b) => createdAt(b) - createdAt(a))[0];
      return newest ? only('pod-template-hash', labelOf(newest, 'pod-template-hash')) : [];
    }
    case 'StatefulSet':
      return only('controller-revision-hash', str(asObject(workload.status).updateRevision));
    case 'DaemonSet': {
      return typeof generation === 'number' && live.some((p) => labelOf(p, 'pod-template-generation'))
        ? only('pod-template-generation', String(generation))
        : live;
    }
    default:
      return live;
  }
}

/** The earliest end of a grace among `pods` that are stuck within theirs: when to judge again. */
export function nextGraceEnd(pods: readonly KubeObject[], clock: HealthClock): number | undefined {
  const ends = pods.filter((p) => podVerdict(p, clock).stuck).map((p) => graceEnd(p, clock));
  return ends.length ? Math.min(...ends) : undefined;
}
