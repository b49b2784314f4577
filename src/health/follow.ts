/**
 * Following an applied object until it is Healthy, Degraded or out of time, from watches: the
 * object itself and, for a workload, its pods, which explain a slow rollout and fail it once one
 * is stuck past its grace (pods.ts). Every change of verdict is reported: the live health stream
 * of apply and of the console.
 */
import type { ClusterSet } from '../cluster/cluster-set.js';
import { refOf, type KubeObject } from '../model/kube-object.js';
import { watchObjects, type WatchTarget } from '../cluster/watch.js';
import { currentPods, DEFAULT_GRACE_MS, nextGraceEnd, type HealthClock } from './pods.js';
import { assess, WORKLOADS, type Health } from './rules.js';

/** Follows an applied object's health; resolves with the verdict (Degraded at the timeout). */
export type HealthFollower = (
  cluster: string,
  object: KubeObject,
  options: {
    signal: AbortSignal;
    timeoutMs: number;
    /** How long a stuck pod is given from its creation (default 30 s). */
    graceMs?: number;
    onHealth: (h: Health) => void;
  },
) => Promise<Health>;

function labelSelector(o: KubeObject): string | undefined {
  const match =
    (o.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined)?.selector?.matchLabels ?? undefined;
  if (!match || Object.keys(match).length === 0) return undefined;
  return Object.entries(match)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

const same = (a: Health | undefined, b: Health) =>
  a?.state === b.state && a?.reason === b.reason && a?.message === b.message;

export function healthFollower(
  clusters: ClusterSet,
  timers: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout } = globalThis,
  now: () => number = Date.now,
): HealthFollower {
  return (cluster, object, { signal, timeoutMs, graceMs = DEFAULT_GRACE_MS, onHealth }) => {
    const firstSeen = new Map<string, number>();
    const clock = (): HealthClock => ({ now: now(), graceMs, firstSeen });
    // most kinds are healthy once they exist: no watch is needed to say so
    const first = assess(object, {}, clock());
    if (first.state === 'Healthy' && !WORKLOADS.has(String(object.kind))) {
      onHealth(first);
      return Promise.resolve(first);
    }
    return new Promise<Health>((resolve) => {
      const client = clusters.client(cluster);
      const kc = clusters.config(cluster);
      const ref = refOf(object);
      const controller = new AbortController();
      let latest: KubeObject = object;
      const pods = new Map<string, KubeObject>();
      let last: Health | undefined;
      let settled = false;
      /** A look again when a stuck pod's grace ends: a pod stuck for good may never change again. */
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      let graceDue: number | undefined;

      const finish = (h: Health) => {
        if (settled) return;
        settled = true;
        timers.clearTimeout(timer);
        if (graceTimer !== undefined) timers.clearTimeout(graceTimer);
        controller.abort();
        signal.removeEventListener('abort', onAbort);
        if (!same(last, h)) onHealth(h);
        resolve(h);
      };
      const evaluate = () => {
        const at = clock();
        const h = assess(latest, { pods: [...pods.values()] }, at);
        if (h.state !== 'Progressing') return finish(h);
        if (!same(last, h)) {
          last = h;
          onHealth(h);
        }
        const due = nextGraceEnd(currentPods(latest, [...pods.values()]), at);
        if (due !== undefined && due !== graceDue) {
          if (graceTimer !== undefined) timers.clearTimeout(graceTimer);
          graceDue = due;
          graceTimer = timers.setTimeout(
            () => {
              graceTimer = graceDue = undefined;
              if (!settled) evaluate();
            },
            Math.max(0, due - at.now),
          );
        }
      };
      const onAbort = () => finish(last ?? { state: 'Progressing', message: 'interrupted before it was healthy' });
      const timer = timers.setTimeout(() => {
        const why = last ? `${last.reason ? `${last.reason}: ` : ''}${last.message}` : 'no status reported';
        finish({
          state: 'Degraded',
          reason: last?.reason ?? 'Timeout',
          message: `not healthy after ${Math.round(timeoutMs / 1000)} s (${why})`,
        });
      }, timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });

      const watch = (target: WatchTarget, apply: (type: string, o: KubeObject) => void) =>
        watchObjects(
          client,
          kc,
          target,
          (e) => {
            if (settled) return;
            apply(e.type, e.object);
            evaluate();
          },
          { signal: controller.signal },
        ).catch(() => undefined);

      const namespace = ref.namespace;
      void watch(
        { apiVersion: ref.apiVersion, kind: ref.kind, namespace, fieldSelector: `metadata.name=${ref.name}` },
        (type, o) => {
          if (type === 'DELETED')
            finish({
              state: 'Degraded',
              reason: 'Deleted',
              message: `${ref.kind} ${ref.name} was deleted while kdeck waited for it`,
            });
          else latest = o;
        },
      );
      const selector = WORKLOADS.has(ref.kind) ? labelSelector(object) : undefined;
      if (selector) {
        void watch({ apiVersion: 'v1', kind: 'Pod', namespace, labelSelector: selector }, (type, o) => {
          const name = String(o.metadata?.name);
          const uid = String(o.metadata?.uid ?? '');
          if (!firstSeen.has(uid)) firstSeen.set(uid, now());
          if (type === 'DELETED') pods.delete(name);
          else pods.set(name, o);
        });
      }
      evaluate();
    });
  };
}
