/**
 * Following the health of every resource of an apply from a few shared watches: one per (cluster,
 * kind, namespace) for the objects, and one per (cluster, namespace) for the pods that explain a
 * workload, opened when the first resource needs them and closed when the apply ends. A stack of
 * hundreds of Deployments waits on a handful of watches instead of two per Deployment, so the
 * waits cost the API server (and the slots of the executor) nothing while readiness takes its time.
 *
 * The verdicts are the health rules' (`assess`), judged as health/follow.ts judges them for one
 * object: Healthy or Degraded ends the wait, the timeout turns it Degraded, deletion too, and a
 * pod stuck past its grace (pods.ts) fails its workload; when a grace ends the verdict is looked
 * at again, since a pod stuck for good may never change again.
 */
import { setMaxListeners } from 'node:events';
import type { ClusterSet } from '../cluster/cluster-set.js';
import { refOf, type KubeObject } from '../model/kube-object.js';
import { watchObjects, type WatchEventType, type WatchTarget } from '../cluster/watch.js';
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

export interface WatchedHealth {
  readonly follow: HealthFollower;
  /** Closes every watch; the waits still open end as if interrupted. */
  close(): void;
}

interface Subscriber {
  event(type: WatchEventType, o: KubeObject): void;
  /** The feed listed again (after a dropped watch): what was seen before may be gone. */
  resync(): void;
}

const nameOf = (o: KubeObject) => String(o.metadata?.name ?? '');

/** The objects of one kind in one namespace, kept by one resilient watch, told to whoever follows them. */
class Feed {
  readonly objects = new Map<string, KubeObject>();
  /** Subscribers that follow one name. */
  private readonly byName = new Map<string, Set<Subscriber>>();
  /**
   * Subscribers that follow the objects carrying a label (a workload's pod selector), by one
   * `key\u0000value` of their selector: a pod's event reaches the workloads that may select it,
   * not every workload of the namespace.
   */
  private readonly byLabel = new Map<string, Set<Subscriber>>();
  private listing = true;

  constructor(clusters: ClusterSet, cluster: string, target: WatchTarget, signal: AbortSignal) {
    void watchObjects(
      clusters.client(cluster),
      target,
      (e) => {
        const name = nameOf(e.object);
        if (e.type === 'DELETED') this.objects.delete(name);
        else this.objects.set(name, e.object);
        // a list's objects come in one burst: subscribers resync once, after it
        if (this.listing) return;
        for (const s of this.byName.get(name) ?? []) s.event(e.type, e.object);
        for (const [k, v] of Object.entries(e.object.metadata?.labels ?? {}))
          for (const s of this.byLabel.get(labelKey(k, v)) ?? []) s.event(e.type, e.object);
      },
      {
        signal,
        onList: () => {
          this.objects.clear();
          this.listing = true;
          // the listed objects follow within this turn
          queueMicrotask(() => {
            this.listing = false;
            for (const set of [...this.byName.values(), ...this.byLabel.values()]) for (const s of set) s.resync();
          });
        },
      },
    ).catch(() => undefined);
  }

  /** Subscribes to one object by name; returns the way to stop. */
  subscribe(s: Subscriber, name: string): () => void {
    return joined(this.byName, name, s);
  }

  /** Subscribes to the objects labelled `key: value` (the subscriber filters by the rest of its selector). */
  subscribeLabel(s: Subscriber, key: string, value: string): () => void {
    return joined(this.byLabel, labelKey(key, value), s);
  }
}

const labelKey = (key: string, value: string) => `${key}\u0000${value}`;

/** Adds `s` to the set of `at`; returns the way to take it out again. */
function joined(sets: Map<string, Set<Subscriber>>, at: string, s: Subscriber): () => void {
  const set = sets.get(at) ?? new Set<Subscriber>();
  sets.set(at, set);
  set.add(s);
  return () => {
    set.delete(s);
    if (set.size === 0) sets.delete(at);
  };
}

const same = (a: Health | undefined, b: Health) =>
  a?.state === b.state && a?.reason === b.reason && a?.message === b.message;

function matchLabelsOf(o: KubeObject): Record<string, string> | undefined {
  const match = (o.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined)?.selector?.matchLabels;
  return match && Object.keys(match).length ? match : undefined;
}

const matches = (pod: KubeObject, labels: Record<string, string>) => {
  const have = (pod.metadata?.labels ?? {}) as Record<string, string>;
  return Object.entries(labels).every(([k, v]) => have[k] === v);
};

const generationOf = (o: KubeObject) => Number(o.metadata?.generation ?? 0);

/** What runs when a signal aborts, behind one listener per signal (see whenAborted). */
const abortCallbacks = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Runs `callback` when `signal` aborts (not if it has already, as addEventListener); the function
 * returned stops it. Every wait of an apply listens on the same signals, and EventTarget finds
 * the listener to remove by walking the list of them: with a listener per wait, each wait that
 * ended walked the others', and the last Deployments of a large apply, which end together, spent
 * milliseconds doing so. One listener per signal runs the waits' callbacks from a set.
 */
function whenAborted(signal: AbortSignal, callback: () => void): () => void {
  const callbacks = abortCallbacks.get(signal) ?? listenOnce(signal);
  callbacks.add(callback);
  return () => callbacks.delete(callback);
}

/** The set of a signal's callbacks, and the one listener that runs them. */
function listenOnce(signal: AbortSignal): Set<() => void> {
  const callbacks = new Set<() => void>();
  // a callback that stops itself (or another) while they run is left out, as a Set's loop allows
  signal.addEventListener('abort', () => callbacks.forEach((c) => c()), { once: true });
  abortCallbacks.set(signal, callbacks);
  return callbacks;
}

export function watchedHealth(
  clusters: ClusterSet,
  timers: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout } = globalThis,
  now: () => number = Date.now,
): WatchedHealth {
  const controller = new AbortController();
  // every feed listens for the close, and a stack may span many kinds and namespaces
  setMaxListeners(0, controller.signal);
  const feeds = new Map<string, Feed>();
  const feed = (cluster: string, target: WatchTarget): Feed => {
    const key = [cluster, target.apiVersion, target.kind, target.namespace ?? ''].join('\u0000');
    let f = feeds.get(key);
    if (!f) {
      f = new Feed(clusters, cluster, target, controller.signal);
      feeds.set(key, f);
    }
    return f;
  };

  const follow: HealthFollower = (cluster, object, { signal, timeoutMs, graceMs = DEFAULT_GRACE_MS, onHealth }) => {
    const firstSeen = new Map<string, number>();
    const clock = (): HealthClock => ({ now: now(), graceMs, firstSeen });
    // most kinds are healthy once they exist: no watch is needed to say so
    const first = assess(object, {}, clock());
    if (first.state === 'Healthy' && !WORKLOADS.has(String(object.kind))) {
      onHealth(first);
      return Promise.resolve(first);
    }
    return new Promise<Health>((resolve) => {
      const ref = refOf(object);
      const uid = object.metadata?.uid;
      const generation = generationOf(object);
      let latest: KubeObject = object;
      let seen = false;
      const pods = new Map<string, KubeObject>();
      let last: Health | undefined;
      let settled = false;
      const stops: (() => void)[] = [];
      /** A look again when a stuck pod's grace ends. */
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      let graceDue: number | undefined;

      const finish = (h: Health) => {
        if (settled) return;
        settled = true;
        timers.clearTimeout(timer);
        if (graceTimer !== undefined) timers.clearTimeout(graceTimer);
        for (const stop of stops) stop();
        if (!same(last, h)) onHealth(h);
        resolve(h);
      };
      const evaluate = () => {
        if (settled) return;
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
              evaluate();
            },
            Math.max(0, due - at.now),
          );
        }
      };
      const sawPod = (p: KubeObject) => {
        const uid = String(p.metadata?.uid ?? '');
        if (!firstSeen.has(uid)) firstSeen.set(uid, now());
      };
      const gone = () =>
        finish({
          state: 'Degraded',
          reason: 'Deleted',
          message: `${ref.kind} ${ref.name} was deleted while kdeck waited for it`,
        });
      /** A version of the object from the watch: newer than the applied one unless it is older than its spec. */
      const consider = (o: KubeObject): boolean => {
        // another incarnation of the name (the one before a delete and create), or a version from
        // before this apply changed the spec: neither says anything about what was applied
        if (uid && o.metadata?.uid && o.metadata.uid !== uid) return false;
        if (generationOf(o) < generation) return false;
        latest = o;
        seen = true;
        return true;
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
      stops.push(whenAborted(signal, onAbort), whenAborted(controller.signal, onAbort));

      const objects = feed(cluster, { apiVersion: ref.apiVersion, kind: ref.kind, namespace: ref.namespace });
      const fromFeed = () => {
        const o = objects.objects.get(ref.name);
        if (o) consider(o);
        else if (seen) return gone();
      };
      stops.push(
        objects.subscribe(
          {
            event: (type, o) => {
              if (type === 'DELETED') {
                if (!uid || o.metadata?.uid === uid) gone();
                return;
              }
              if (consider(o)) evaluate();
            },
            resync: () => {
              fromFeed();
              evaluate();
            },
          },
          ref.name,
        ),
      );
      const labels = WORKLOADS.has(ref.kind) ? matchLabelsOf(object) : undefined;
      if (labels) {
        const podFeed = feed(cluster, { apiVersion: 'v1', kind: 'Pod', namespace: ref.namespace });
        const podsFromFeed = () => {
          pods.clear();
          for (const p of podFeed.objects.values())
            if (matches(p, labels)) {
              sawPod(p);
              pods.set(nameOf(p), p);
            }
        };
        podsFromFeed();
        stops.push(
          podFeed.subscribeLabel(
            {
              event: (type, p) => {
                if (!matches(p, labels)) return;
                sawPod(p);
                if (type === 'DELETED') pods.delete(nameOf(p));
                else pods.set(nameOf(p), p);
                evaluate();
              },
              resync: () => {
                podsFromFeed();
                evaluate();
              },
            },
            ...Object.entries(labels)[0]!,
          ),
        );
      }
      fromFeed();
      evaluate();
    });
  };

  return {
    follow,
    close: () => controller.abort(),
  };
}
