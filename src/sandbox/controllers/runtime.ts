/**
 * What every controller works with: the cluster's API (controllers write through the same path
 * as clients, so every status change is a real write with an RV and a watch event), its faults,
 * its timings, the manager that wakes them, and small helpers for the writes they make.
 */
import type { ApiContext } from '../api/context.js';
import { deleteObject, finishDelete, type DeleteOptions } from '../api/delete.js';
import { ApiError } from '../api/errors.js';
import type { KubeObject, OwnerReference } from '../api/object.js';
import { resourceKey, type ResourceType } from '../api/resources.js';
import { commitCreate, commitUpdate } from '../api/write.js';
import type { Faults } from '../faults.js';
import { shareUnchanged, withFields } from '../json.js';
import type { Pod } from './kinds.js';
import type { Controller, ControllerManager } from './manager.js';
import type { EventRecorder } from './events.js';
import type { PodIndex } from './pod-index.js';
import type { LabelIndexes } from './pair-index.js';

/** How long the simulated pod lifecycle takes, in cluster milliseconds. */
export interface Timings {
  /** Pending (ContainerCreating) to Running. */
  podStartMs: number;
  /** Running to Ready, unless a pod's probe or annotation or a fault says otherwise. */
  readinessDelayMs: number;
  /** A deleted pod's containers stopping (bounded by its grace period). */
  terminationMs: number;
  /** How long a Job's container runs before it exits. */
  jobRunMs: number;
  /** How long a crash-looping container runs before it crashes. */
  crashAfterMs: number;
  /** How long a cloud load balancer takes to give a LoadBalancer Service its address. */
  loadBalancerMs: number;
}

export const DEFAULT_TIMINGS: Timings = {
  podStartMs: 300,
  readinessDelayMs: 1000,
  terminationMs: 500,
  jobRunMs: 1000,
  crashAfterMs: 1500,
  loadBalancerMs: 500,
};

export interface ControllerContext {
  api: ApiContext;
  faults: Faults;
  timings: Timings;
  manager: ControllerManager;
  events: EventRecorder;
  pods: PodIndex;
  labels: LabelIndexes;
  /** The cluster's name, which its nodes' hostnames carry. */
  cluster: string;
}

const CONTROLLER_MANAGER = 'kube-controller-manager';

export function typeOf(ctx: ControllerContext, group: string, plural: string): ResourceType {
  const r = ctx.api.resources.forResource(group, plural);
  if (!r) throw new Error(`no resource ${plural}.${group}`);
  return r;
}

/** `namespace/name` keys; the namespace is empty for cluster-scoped objects. */
export function keyOf(o: KubeObject): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
}

function splitKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
}

export function get<T extends KubeObject>(ctx: ControllerContext, r: ResourceType, key: string): T | undefined {
  const [ns, name] = splitKey(key);
  return ctx.api.store.get(resourceKey(r), ns, name) as T | undefined;
}

/** The objects of `resource` ('/pods', 'apps/replicasets', …) whose controlling owner is `owner`. */
export function controlledBy<T extends KubeObject>(ctx: ControllerContext, owner: KubeObject, resource: string): T[] {
  return ctx.api.store
    .dependents(owner.metadata.uid ?? '')
    .filter(
      (d) =>
        d.resource === resource &&
        d.object.metadata.ownerReferences?.some((r) => r.uid === owner.metadata.uid && r.controller === true),
    )
    .map((d) => d.object as T);
}

/** Pods whose controlling owner is `owner`. */
export function ownedPods(ctx: ControllerContext, owner: KubeObject): Pod[] {
  return controlledBy<Pod>(ctx, owner, '/pods');
}

export function ownerRef(o: KubeObject): OwnerReference {
  return {
    apiVersion: o.apiVersion,
    kind: o.kind,
    name: o.metadata.name ?? '',
    uid: o.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Creates an object; undefined when the API refuses (a terminating namespace, a name taken). */
export function create<T extends KubeObject>(
  ctx: ControllerContext,
  r: ResourceType,
  o: KubeObject,
  manager = CONTROLLER_MANAGER,
): T | undefined {
  try {
    return commitCreate(ctx.api, r, o, { manager }) as T;
  } catch (e) {
    if (e instanceof ApiError && (e.code === 409 || e.code === 403 || e.code === 404)) return undefined;
    throw e;
  }
}

/** How long a controller waits before trying again a create that admission refused. */
const REFUSED_RETRY_MS = 5_000;

/**
 * Creates a workload's pod (or claim). When admission refuses it (a quota, a limit), the owner
 * gets the controller's FailedCreate warning with the server's message, and the controller looks
 * again a little later, as the real ones retry with back-off.
 */
export function createFor<T extends KubeObject>(
  ctx: ControllerContext,
  r: ResourceType,
  o: KubeObject,
  owner: { object: KubeObject; controller: Controller; key: string; source: string },
): T | undefined {
  try {
    return commitCreate(ctx.api, r, o, { manager: CONTROLLER_MANAGER }) as T;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    if (e.code === 403 || e.code === 422) {
      ctx.events.record(owner.object, 'Warning', 'FailedCreate', `Error creating: ${e.message}`, owner.source);
      ctx.manager.enqueueAfter(owner.controller, owner.key, REFUSED_RETRY_MS);
      return undefined;
    }
    if (e.code === 409 || e.code === 404) return undefined;
    throw e;
  }
}

export function update<T extends KubeObject>(
  ctx: ControllerContext,
  r: ResourceType,
  old: T,
  next: T,
  manager = CONTROLLER_MANAGER,
): T {
  return commitUpdate(ctx.api, r, old, next, { manager }) as T;
}

/** Writes an object's status through the status subresource (a no-op when nothing changed). */
export function writeStatus<T extends KubeObject>(
  ctx: ControllerContext,
  r: ResourceType,
  old: T,
  status: unknown,
  manager = CONTROLLER_MANAGER,
): T {
  // key by key: an object's first status write adds the key (see withFields)
  const next = withFields<KubeObject>(old, { status: shareUnchanged(status, old.status) });
  return commitUpdate(ctx.api, r, old, next, { manager, scope: 'status', subresource: 'status' }) as T;
}

export function remove(
  ctx: ControllerContext,
  r: ResourceType,
  o: KubeObject,
  opts: Partial<DeleteOptions> = {},
): void {
  try {
    deleteObject(ctx.api, r, o.metadata.namespace ?? '', o.metadata.name ?? '', {
      manager: CONTROLLER_MANAGER,
      ...opts,
    });
  } catch (e) {
    if (e instanceof ApiError && e.code === 404) return;
    throw e;
  }
}

export function removeNow(ctx: ControllerContext, r: ResourceType, o: KubeObject): void {
  finishDelete(ctx.api, r, o);
}

/** Follows events of a resource by the object's own key. */
export function byObject(): (e: { object: KubeObject }) => string[] {
  return (e) => [keyOf(e.object)];
}

/** Follows events of dependents by the key of their controlling owner of a given kind. */
export function byOwner(kind: string): (e: { object: KubeObject }) => string[] {
  return (e) => {
    const ref = e.object.metadata.ownerReferences?.find((r) => r.controller === true && r.kind === kind);
    return ref ? [`${e.object.metadata.namespace ?? ''}/${ref.name}`] : [];
  };
}

/** Every object of a resource, as keys (initial sync). */
export function allKeys(ctx: ControllerContext, r: ResourceType): string[] {
  return ctx.api.store.list(resourceKey(r)).map(keyOf);
}

export function wake(ctx: ControllerContext, c: Controller, key: string, delayMs: number): void {
  ctx.manager.enqueueAfter(c, key, delayMs);
}
