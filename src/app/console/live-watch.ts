/**
 * The console's watch on the clusters: one resilient watch per (cluster, kind) that a stack
 * uses, across namespaces, started the first time a plan names the kind. Events are gathered
 * and handed over in batches, so a rollout's burst of status updates redraws the screen a few
 * times a second rather than once per event.
 */
import { setMaxListeners } from 'node:events';
import type { ClusterSet } from '../../cluster/cluster-set.js';
import type { KubeObject } from '../../model/kube-object.js';
import { watchObjects, type WatchEventType } from '../../cluster/watch.js';
import { errorMessage } from '../../diagnostics/user-error.js';

export interface LiveEvent {
  cluster: string;
  type: WatchEventType;
  object: KubeObject;
}

export class LiveWatch {
  private readonly watched = new Set<string>();
  private readonly controller = new AbortController();
  private readonly signal = this.controller.signal;
  private batch: LiveEvent[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly clusterSet: ClusterSet,
    private readonly onEvents: (events: LiveEvent[]) => void,
    private readonly onNote: (text: string) => void,
    private readonly flushMs = 100,
  ) {
    // one listener per watch on the shared signal
    setMaxListeners(0, this.signal);
  }

  /** Watches `kind` on `cluster` unless it is watched already. */
  ensure(cluster: string, apiVersion: string, kind: string): void {
    const key = `${cluster}\u0000${apiVersion}\u0000${kind}`;
    if (this.watched.has(key) || this.signal.aborted) return;
    this.watched.add(key);
    let client;
    try {
      client = this.clusterSet.client(cluster);
    } catch (e) {
      this.watched.delete(key);
      this.onNote(`cannot watch ${kind} on ${cluster}: ${errorMessage(e)}`);
      return;
    }
    watchObjects(client, { apiVersion, kind }, (e) => this.push({ cluster, type: e.type, object: e.object }), {
      signal: this.signal,
      onReconnect: (why) => this.onNote(`watch of ${kind} on ${cluster}: ${why}`),
    }).catch((e: unknown) => {
      // a kind the cluster does not serve yet (its CRD is not applied): the next plan tries again
      this.watched.delete(key);
      if (!this.signal.aborted) this.onNote(`cannot watch ${kind} on ${cluster}: ${errorMessage(e)}`);
    });
  }

  private push(e: LiveEvent): void {
    this.batch.push(e);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      const events = this.batch;
      this.batch = [];
      this.onEvents(events);
    }, this.flushMs);
  }

  close(): void {
    this.controller.abort();
    if (this.timer) clearTimeout(this.timer);
  }
}
