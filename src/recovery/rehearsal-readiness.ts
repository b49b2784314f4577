/**
 * How long a workload's pods take to turn Ready, read from the live pods' own status: from the
 * moment their containers last started (`state.running.startedAt`) to the Ready condition's
 * `lastTransitionTime`. The median over the workload's Ready pods, so one slow or restarted pod
 * does not decide it; a workload none of whose pods says (none Ready, timestamps missing) gets the
 * operator's fallback, and the estimate says which it is. Pure.
 */
import type { KubeObject } from '../model/kube-object.js';
import { asObject } from '../model/resource.js';

export interface ReadinessEstimate {
  ms: number;
  /** `pods`: measured from the pods' timestamps; `fallback`: the operator's value (`--readiness`). */
  source: 'pods' | 'fallback';
  /** How many pods the measure came from. */
  samples: number;
}

const list = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);

/** One pod's start-to-Ready time in ms, when its status has both timestamps and it is Ready. */
export function podReadinessMs(pod: KubeObject): number | undefined {
  const status = asObject(pod.status);
  const ready = list(status.conditions)
    .map(asObject)
    .find((c) => c.type === 'Ready' && c.status === 'True');
  const readyAt = Date.parse(String(ready?.lastTransitionTime ?? ''));
  // the last container to start is the one the pod waited for
  const starts = list(status.containerStatuses).map((c) =>
    Date.parse(String(asObject(asObject(asObject(c).state).running).startedAt ?? '')),
  );
  if (Number.isNaN(readyAt) || starts.length === 0 || starts.some(Number.isNaN)) return undefined;
  const ms = readyAt - Math.max(...starts);
  return ms >= 0 ? ms : undefined;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The readiness of a workload from its pods, or the fallback when none of them can tell. */
export function estimateReadiness(pods: readonly KubeObject[], fallbackMs: number): ReadinessEstimate {
  const measured = pods.map(podReadinessMs).filter((ms): ms is number => ms !== undefined);
  if (measured.length === 0) return { ms: fallbackMs, source: 'fallback', samples: 0 };
  return { ms: median(measured), source: 'pods', samples: measured.length };
}
