/**
 * Whether an object is healthy, judged as `kubectl rollout status` and `kubectl wait` judge it
 * (Deployment, StatefulSet, DaemonSet, ReplicaSet, Pod, Job, Service, PVC, Namespace, CRD; any
 * other kind: it exists, or its Ready condition when it has one). A workload whose current pods
 * are stuck (pods.ts: crash loop, image pull, container config, unschedulable) is Progressing
 * with their reason while their grace lasts, and Degraded once it has passed: waiting longer
 * for its deadline would only hide the failure.
 */
import type { KubeObject } from '../model/kube-object.js';
import { asObject } from '../model/resource.js';
import { currentPods, podVerdict, wallClock, type HealthClock } from './pods.js';

export type { HealthClock } from './pods.js';

export type HealthState = 'Progressing' | 'Healthy' | 'Degraded';

export interface Health {
  state: HealthState;
  /** A short machine-friendly cause: ImagePullBackOff, CrashLoopBackOff, ProgressDeadlineExceeded, Failed, ... */
  reason?: string;
  message: string;
}

const arr = (x: unknown): KubeObject[] => (Array.isArray(x) ? x.map(asObject) : []);
const num = (x: unknown, fallback = 0): number => (typeof x === 'number' ? x : fallback);
const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

const progressing = (message: string, reason?: string): Health => ({
  state: 'Progressing',
  message,
  ...(reason ? { reason } : {}),
});
const healthy = (message: string): Health => ({ state: 'Healthy', message });
const degraded = (reason: string, message: string): Health => ({ state: 'Degraded', reason, message });

export function condition(o: KubeObject, type: string): KubeObject | undefined {
  return arr(asObject(o.status).conditions).find((c) => str(c.type)?.toLowerCase() === type.toLowerCase());
}

/** `kubectl wait --for=condition=TYPE`: the condition is True and not older than the spec. */
export function conditionMet(o: KubeObject, type: string): boolean {
  const c = condition(o, type);
  if (!c || str(c.status)?.toLowerCase() !== 'true') return false;
  const generation = asObject(o.metadata).generation;
  const observed = c.observedGeneration ?? asObject(o.status).observedGeneration;
  return typeof generation !== 'number' || typeof observed !== 'number' || observed >= generation;
}

/** A pod on its own: Degraded once stuck past its grace (or Failed), else by phase and readiness. */
function pod(o: KubeObject, clock: HealthClock): Health {
  const { failed, stuck } = podVerdict(o, clock);
  if (failed) return degraded(failed.reason, failed.message);
  const phase = str(asObject(o.status).phase);
  if (phase === 'Succeeded') return healthy('completed');
  if (conditionMet(o, 'Ready')) return healthy('ready');
  if (stuck) return progressing(stuck.message, stuck.reason);
  const waiting = arr(asObject(o.status).containerStatuses)
    .map((c) => str(asObject(asObject(c.state).waiting).reason))
    .find(Boolean);
  return progressing(waiting ? `waiting: ${waiting}` : `${phase ?? 'Pending'}, not ready yet`, waiting);
}

function generationPending(o: KubeObject): boolean {
  const generation = asObject(o.metadata).generation;
  const observed = asObject(o.status).observedGeneration;
  return typeof generation === 'number' && (typeof observed !== 'number' || generation > observed);
}

function deployment(o: KubeObject): Health {
  const name = str(asObject(o.metadata).name);
  if (generationPending(o)) return progressing('waiting for the deployment spec update to be observed');
  const p = condition(o, 'Progressing');
  if (str(p?.reason) === 'ProgressDeadlineExceeded')
    return degraded('ProgressDeadlineExceeded', `deployment "${name}" exceeded its progress deadline`);
  const s = asObject(o.status);
  const want = num(asObject(o.spec).replicas, 1);
  const updated = num(s.updatedReplicas);
  if (updated < want) return progressing(`${updated} out of ${want} new replicas have been updated`);
  if (num(s.replicas) > updated)
    return progressing(`${num(s.replicas) - updated} old replicas are pending termination`);
  if (num(s.availableReplicas) < updated)
    return progressing(`${num(s.availableReplicas)} of ${updated} updated replicas are available`);
  return healthy(`successfully rolled out (${updated}/${want})`);
}

function statefulSet(o: KubeObject): Health {
  const spec = asObject(o.spec);
  const s = asObject(o.status);
  if (str(asObject(spec.updateStrategy).type) === 'OnDelete')
    return healthy('OnDelete update strategy: pods are replaced by hand');
  if (num(s.observedGeneration) === 0 || generationPending(o))
    return progressing('waiting for the statefulset spec update to be observed');
  const want = num(spec.replicas, 1);
  if (num(s.readyReplicas) < want) return progressing(`waiting for ${want - num(s.readyReplicas)} pods to be ready`);
  const partition = asObject(asObject(spec.updateStrategy).rollingUpdate).partition;
  if (typeof partition === 'number' && partition > 0) {
    if (num(s.updatedReplicas) < want - partition)
      return progressing(
        `waiting for partitioned roll out to finish: ${num(s.updatedReplicas)} out of ${want - partition} new pods have been updated`,
      );
    return healthy('partitioned roll out complete');
  }
  if (s.updateRevision !== s.currentRevision)
    return progressing(`waiting for the update to revision ${str(s.updateRevision) ?? '?'} to finish`);
  return healthy(`rolled out (${num(s.readyReplicas)}/${want} ready)`);
}

function daemonSet(o: KubeObject): Health {
  const s = asObject(o.status);
  if (str(asObject(asObject(o.spec).updateStrategy).type) === 'OnDelete')
    return healthy('OnDelete update strategy: pods are replaced by hand');
  if (generationPending(o)) return progressing('waiting for the daemon set spec update to be observed');
  const want = num(s.desiredNumberScheduled);
  if (num(s.updatedNumberScheduled) < want)
    return progressing(`${num(s.updatedNumberScheduled)} out of ${want} new pods have been updated`);
  if (num(s.numberAvailable) < want)
    return progressing(`${num(s.numberAvailable)} of ${want} updated pods are available`);
  return healthy(`successfully rolled out (${want} nodes)`);
}

function replicaSet(o: KubeObject): Health {
  const want = num(asObject(o.spec).replicas, 1);
  const ready = num(asObject(o.status).readyReplicas);
  return ready >= want ? healthy(`${ready}/${want} ready`) : progressing(`${ready}/${want} ready`);
}

function job(o: KubeObject): Health {
  if (conditionMet(o, 'Failed')) {
    const c = condition(o, 'Failed')!;
    return degraded(str(c.reason) ?? 'Failed', `job failed${str(c.message) ? `: ${str(c.message)}` : ''}`);
  }
  if (conditionMet(o, 'Complete')) return healthy(`complete (${num(asObject(o.status).succeeded)} succeeded)`);
  const s = asObject(o.status);
  return progressing(`${num(s.active)} active, ${num(s.succeeded)} succeeded, ${num(s.failed)} failed`);
}

/**
 * A Service is usable once it exists: its cluster IP is what dependents need, and its endpoints
 * come from pods that are often applied after it (and may depend on it), so it is never held back
 * for its endpoints; the message says how they stand. A LoadBalancer is different: what it is for
 * is the address a cloud controller gives it, so it is Progressing until it has one.
 */
function service(o: KubeObject, endpoints: KubeObject | undefined): Health {
  const spec = asObject(o.spec);
  const parts: string[] = [];
  if (spec.selector && str(spec.type) !== 'ExternalName' && endpoints !== undefined) {
    const ready = arr(endpoints.subsets).reduce((n, s) => n + arr(s.addresses).length, 0);
    parts.push(ready > 0 ? `${ready} ready endpoint${ready === 1 ? '' : 's'}` : 'no ready endpoints yet');
  }
  if (str(spec.type) === 'LoadBalancer') {
    const ingress = arr(asObject(asObject(o.status).loadBalancer).ingress)
      .map((i) => str(i.ip) ?? str(i.hostname))
      .filter((a): a is string => a !== undefined);
    if (ingress.length === 0) return progressing(['waiting for the load balancer address', ...parts].join(', '));
    parts.unshift(`load balancer at ${ingress.join(', ')}`);
  }
  return healthy(parts.length ? parts.join(', ') : 'exists');
}

export interface Related {
  /** The pods a workload owns (directly or through its ReplicaSets), to explain a slow rollout. */
  pods?: KubeObject[];
  /** A Service's Endpoints object. */
  endpoints?: KubeObject;
}

/** Kinds that run pods through a selector: their pods explain their health. */
export const WORKLOADS: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job']);

/**
 * The health of `o`, a live object; `related` holds what explains it; `clock` says when the
 * grace of a stuck pod has passed (the wall clock and the default grace unless given).
 */
export function assess(o: KubeObject, related: Related = {}, clock: HealthClock = wallClock()): Health {
  const kind = str(o.kind);
  let h: Health;
  switch (kind) {
    case 'Pod':
      return pod(o, clock);
    case 'Deployment':
      h = deployment(o);
      break;
    case 'StatefulSet':
      h = statefulSet(o);
      break;
    case 'DaemonSet':
      h = daemonSet(o);
      break;
    case 'ReplicaSet':
      h = replicaSet(o);
      break;
    case 'Job':
      h = job(o);
      break;
    case 'Service':
      return service(o, related.endpoints);
    case 'PersistentVolumeClaim': {
      const phase = str(asObject(o.status).phase);
      return phase === 'Bound' ? healthy('bound') : progressing(`${phase ?? 'Pending'}`);
    }
    case 'Namespace': {
      const phase = str(asObject(o.status).phase);
      return phase === 'Terminating' ? progressing('terminating') : healthy('active');
    }
    case 'CustomResourceDefinition':
      return conditionMet(o, 'Established')
        ? healthy('established')
        : progressing('waiting for the definition to be established');
    default:
      if (condition(o, 'Ready'))
        return conditionMet(o, 'Ready')
          ? healthy('ready')
          : progressing(str(condition(o, 'Ready')?.message) ?? 'not ready');
      return healthy('exists');
  }
  if (h.state === 'Progressing' && kind && WORKLOADS.has(kind)) {
    // the workload's current pods say why it is not there yet: one stuck past its grace fails
    // it now (the controller would retry until the deadline, but the cause needs a person);
    // one stuck within its grace keeps it Progressing and names the reason
    const verdicts = currentPods(o, related.pods ?? []).map((p) => podVerdict(p, clock));
    const failed = verdicts.find((v) => v.failed)?.failed;
    if (failed) return degraded(failed.reason, failed.message);
    const stuck = verdicts.find((v) => v.stuck)?.stuck;
    if (stuck) return progressing(stuck.message, stuck.reason);
  }
  return h;
}
