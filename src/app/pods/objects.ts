/**
 * What the pod tools read from a live Pod: its containers, the one kubectl picks when none is
 * named, the run a container is on, and how its last run ended (`lastState.terminated`).
 */
import type { KubeObject } from '../../model/kube-object.js';
import { isObject } from '../../model/resource.js';

const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isObject) : []);
const field = (o: unknown, key: string): unknown => (isObject(o) ? o[key] : undefined);

export function podName(pod: KubeObject): string {
  return String(pod.metadata?.name ?? '');
}

/** The pod's containers (not its init containers), by name. */
export function containerNames(pod: KubeObject): string[] {
  return list(field(pod.spec, 'containers')).map((c) => String(c.name));
}

/** The container kubectl logs and exec use when none is named: the annotated default, else the first. */
export function defaultContainer(pod: KubeObject): string | undefined {
  const annotations = pod.metadata?.annotations;
  const annotated = isObject(annotations) ? annotations['kubectl.kubernetes.io/default-container'] : undefined;
  const names = containerNames(pod);
  return typeof annotated === 'string' && names.includes(annotated) ? annotated : names[0];
}

function containerStatus(pod: KubeObject, container: string): Record<string, unknown> | undefined {
  return list(field(pod.status, 'containerStatuses')).find((s) => s.name === container);
}

/** When the container's current (or last finished) run started: a log exists for it; undefined while it waits. */
export function runStartedAt(pod: KubeObject, container: string): string | undefined {
  const st = containerStatus(pod, container);
  const state = field(st, 'state');
  const started = field(field(state, 'running'), 'startedAt') ?? field(field(state, 'terminated'), 'startedAt');
  if (typeof started === 'string') return started;
  const last = field(field(field(st, 'lastState'), 'terminated'), 'startedAt');
  return typeof last === 'string' ? last : undefined;
}

/** Why the container is not running, when it waits (CrashLoopBackOff, ImagePullBackOff, …). */
export function waitingReason(pod: KubeObject, container: string): string | undefined {
  const reason = field(field(field(containerStatus(pod, container), 'state'), 'waiting'), 'reason');
  return typeof reason === 'string' ? reason : undefined;
}

export interface Termination {
  exitCode: number;
  reason: string;
  signal?: number;
  startedAt?: string;
  finishedAt?: string;
}

/** How the container's previous run ended, as `status.containerStatuses[].lastState.terminated` says. */
export function lastTermination(pod: KubeObject, container: string): Termination | undefined {
  const t = field(field(containerStatus(pod, container), 'lastState'), 'terminated');
  if (!isObject(t)) return undefined;
  return {
    exitCode: Number(t.exitCode ?? 0),
    reason: typeof t.reason === 'string' ? t.reason : '',
    ...(typeof t.signal === 'number' ? { signal: t.signal } : {}),
    ...(typeof t.startedAt === 'string' ? { startedAt: t.startedAt } : {}),
    ...(typeof t.finishedAt === 'string' ? { finishedAt: t.finishedAt } : {}),
  };
}

export function restartCount(pod: KubeObject, container: string): number {
  return Number(field(containerStatus(pod, container), 'restartCount') ?? 0);
}
