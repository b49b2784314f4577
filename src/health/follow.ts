/**
 * Following an applied object until it is Healthy, Degraded or out of time, from watches: the
 * object itself and, for a workload, its pods, which explain a slow rollout. Every change of
 * verdict is reported: the live health stream of apply and of the console.
 */
import type { ClusterSet } from '../cluster/cluster-set.js';
import { refOf, type KubeObject } from '../model/kube-object.js';
import { watchObjects, type WatchTarget } from '../cluster/watch.js';
import { assess, WORKLOADS, type Health } from './rules.js';

/** Follows an applied object's health; resolves with the verdict (Degraded at the timeout). */
export type HealthFollower = (
  cluster: string,
  object: KubeObject,
  options: { signal: AbortSignal; timeoutMs: number; onHealth: (h: Health) => void },
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
): HealthFollower {
  return (cluster, object, { signal, timeoutMs, onHealth }) => {
    // most kinds are healthy once they exist: no watch is needed to say so
    const first = assess(object);
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

      const finish = (h: Health) => {
        if (settled) return;
        settled = true;
        timers.clearTimeout(timer);
        controller.abort();
        signal.removeEventListener('abort', onAbort);
        if (!same(last, h)) onHealth(h);
        resolve(h);
      };
      const evaluate = () => {
        const h = assess(latest, { pods: [...pods.values()] });
        if (h.state !== 'Progressing') return finish(h);
        if (!same(last, h)) {
          last = h;
          onHealth(h);
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
          if (type === 'DELETED') pods.delete(name);
          else pods.set(name, o);
        });
      }
      evaluate();
    });
  };
}
