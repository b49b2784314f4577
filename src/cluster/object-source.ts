/**
 * Reads and writes of single objects and small sets of them for the console's per-object views
 * and actions (a workload's pods, an object's events, its live YAML, a restart, a scale, a pod
 * deleted), over every context of a kubeconfig. Following a set is a resilient watch (list,
 * then events; a relist replaces everything) whose whole current set is handed over after
 * every change, so a view simply redraws it.
 */
import { setMaxListeners } from 'node:events';
import type { ClusterSet } from './cluster-set.js';
import type { KubeObject, ObjectRef } from '../model/kube-object.js';
import { errorMessage } from '../diagnostics/user-error.js';
import { watchObjects, type WatchTarget } from './watch.js';

export interface ObjectSource {
  /** The kubeconfig files the clusters come from, for the kubectl commands the console shows. */
  readonly kubeconfigFiles: readonly string[];
  get(cluster: string, ref: ObjectRef): Promise<KubeObject | undefined>;
  /**
   * Follows the objects `target` names: `onChange` gets the whole current set after the first
   * list and after every change; `onError` a sentence when the kind cannot be watched. Returns
   * the way to stop.
   */
  follow(
    cluster: string,
    target: WatchTarget,
    onChange: (objects: KubeObject[]) => void,
    onError: (text: string) => void,
  ): () => void;
  mergePatch(cluster: string, ref: ObjectRef, patch: Record<string, unknown>): Promise<KubeObject>;
  /** Deletes the object (background propagation); false when it was already gone. */
  delete(cluster: string, ref: ObjectRef): Promise<boolean>;
}

export class ClusterObjectSource implements ObjectSource {
  constructor(private readonly clusters: ClusterSet) {}

  get kubeconfigFiles(): readonly string[] {
    return this.clusters.kubeconfig.files;
  }

  get(cluster: string, ref: ObjectRef): Promise<KubeObject | undefined> {
    return this.clusters.client(cluster).get(ref);
  }

  follow(
    cluster: string,
    target: WatchTarget,
    onChange: (objects: KubeObject[]) => void,
    onError: (text: string) => void,
  ): () => void {
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    const objects = new Map<string, KubeObject>();
    const keyOf = (o: KubeObject) => String(o.metadata?.uid ?? `${o.metadata?.namespace}/${o.metadata?.name}`);
    let listing = false;
    const changed = () => {
      if (!controller.signal.aborted) onChange([...objects.values()]);
    };
    try {
      const client = this.clusters.client(cluster);
      watchObjects(
        client,
        target,
        (e) => {
          if (e.type === 'DELETED') objects.delete(keyOf(e.object));
          else objects.set(keyOf(e.object), e.object);
          if (!listing) changed();
        },
        {
          signal: controller.signal,
          onList: () => {
            // a (re)list's objects follow within this turn: they are handed over once, after it
            objects.clear();
            listing = true;
            queueMicrotask(() => {
              listing = false;
              changed();
            });
          },
        },
      ).catch((e: unknown) => {
        if (!controller.signal.aborted) onError(`cannot watch ${target.kind} on ${cluster}: ${errorMessage(e)}`);
      });
    } catch (e) {
      onError(`cannot watch ${target.kind} on ${cluster}: ${errorMessage(e)}`);
    }
    return () => controller.abort();
  }

  mergePatch(cluster: string, ref: ObjectRef, patch: Record<string, unknown>): Promise<KubeObject> {
    return this.clusters.client(cluster).mergePatch(ref, patch);
  }

  delete(cluster: string, ref: ObjectRef): Promise<boolean> {
    return this.clusters.client(cluster).delete(ref);
  }
}
