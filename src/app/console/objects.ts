/**
 * The console's per-object views and actions, over the clusters: what a page about one object
 * shows, followed live (the object itself, a workload's or a Service's pods, the events of the
 * object and of those pods, newest first), and the actions on it (restart, scale, delete a pod)
 * carried out through the cluster layer. One page is followed at a time: showing another stops
 * the watches of the one before.
 */
import type { ObjectSource } from '../../cluster/object-source.js';
import type { WatchTarget } from '../../cluster/watch.js';
import { UserError } from '../../diagnostics/user-error.js';
import type { KubeObject } from '../../model/kube-object.js';
import { asObject } from '../../model/resource.js';
import { kubectlCommand, kubectlName, listsPods } from '../pods/target.js';
import { actionArgs, actionRefusal, restartPatch, scalePatch, type ObjectActionRequest } from './object-actions.js';
import { podsBehind, podSelectorOf, podsOfWorkload } from '../pods/owned-pods.js';
import type { SelectedObject } from './selected-object.js';
import { WORKLOADS } from '../../health/rules.js';
import { Store } from './state.js';

export type ObjectPage = 'pods' | 'describe' | 'yaml';

export interface ObjectRequest {
  page: ObjectPage;
  of: SelectedObject;
}

export interface ObjectView {
  request: ObjectRequest;
  /** The live object, once read; absent while reading and when it does not exist. */
  object?: KubeObject;
  /** The object was read and does not exist (or no longer). */
  gone: boolean;
  /** A workload's or a Service's pods (on the pods and describe pages). */
  pods: KubeObject[];
  /** Events of the object and of its pods, newest first (on the describe page). */
  events: KubeObject[];
  /** Still waiting for the first reading. */
  loading: boolean;
  /** What could not be read, a sentence each. */
  errors: string[];
}

/** What the screen may ask about objects; ConsoleObjects over clusters, a fixture in screen tests. */
export interface ObjectControl {
  readonly view: Store<ObjectView | undefined>;
  /** Secret values are shown (`kdeck ui --show-secrets`). */
  readonly showSecrets: boolean;
  now(): number;
  /** Follows what `request` shows, instead of what was followed. */
  follow(request: ObjectRequest): void;
  stop(): void;
  /** The kubectl command line that does `args` to the object, with the console's kubeconfig and context. */
  kubectl(of: Pick<SelectedObject, 'cluster' | 'namespace'>, args: readonly string[]): string;
  readonly kubeconfigFiles: readonly string[];
  /** Carries out a confirmed action; resolves with what was done, rejects with a sentence. */
  act(request: ObjectActionRequest): Promise<string>;
}

export interface ObjectsOptions {
  source: ObjectSource;
  readOnly: boolean;
  showSecrets: boolean;
  now?: () => number;
}

const timeOf = (e: KubeObject): number => {
  const t = e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? asObject(e.metadata).creationTimestamp;
  return typeof t === 'string' ? Date.parse(t) || 0 : 0;
};

/** Events about `uids` (or, for events that carry none, about the object by kind and name), newest first. */
export function eventsAbout(
  events: readonly KubeObject[],
  object: SelectedObject,
  uids: ReadonlySet<string>,
): KubeObject[] {
  return events
    .filter((e) => {
      const about = asObject(e.involvedObject ?? e.regarding);
      if (typeof about.uid === 'string' && about.uid !== '') return uids.has(about.uid);
      return about.kind === object.kind && about.name === object.name;
    })
    .sort((a, b) => timeOf(b) - timeOf(a));
}

export class ConsoleObjects implements ObjectControl {
  readonly view = new Store<ObjectView | undefined>(undefined);
  readonly showSecrets: boolean;
  private stops: (() => void)[] = [];
  private readonly clock: () => number;

  constructor(private readonly options: ObjectsOptions) {
    this.showSecrets = options.showSecrets;
    this.clock = options.now ?? Date.now;
  }

  now(): number {
    return this.clock();
  }

  get kubeconfigFiles(): readonly string[] {
    return this.options.source.kubeconfigFiles;
  }

  kubectl(of: Pick<SelectedObject, 'cluster' | 'namespace'>, args: readonly string[]): string {
    return kubectlCommand(this.kubeconfigFiles, of, args);
  }

  follow(request: ObjectRequest): void {
    this.stop();
    const { of, page } = request;
    const source = this.options.source;
    let view: ObjectView = { request, gone: false, pods: [], events: [], loading: true, errors: [] };
    const publish = (change: Partial<ObjectView>) => {
      view = { ...view, ...change };
      this.view.update(() => view);
    };
    publish({});
    const stops: (() => void)[] = [];
    this.stops = stops;
    const live = () => this.stops === stops;
    const failed = (text: string) => live() && publish({ errors: [...view.errors, text], loading: false });
    const watch = (target: WatchTarget, onChange: (objects: KubeObject[]) => void) =>
      stops.push(source.follow(of.cluster, target, (objects) => live() && onChange(objects), failed));

    // the pods, once the object's selector is known; a Deployment's through its ReplicaSets
    let pods: KubeObject[] = [];
    let owners: KubeObject[] = [];
    let events: KubeObject[] = [];
    let podsStarted = false;
    const uids = () =>
      new Set([
        String(asObject(view.object?.metadata).uid ?? ''),
        ...view.pods.map((p) => String(asObject(p.metadata).uid ?? '')),
      ]);
    const recompute = () => {
      const object = view.object;
      const mine = !object
        ? []
        : of.kind === 'Service'
          ? podsBehind(owners, pods)
          : podsOfWorkload(object, pods, owners);
      view = { ...view, pods: mine };
      publish({ events: page === 'describe' ? eventsAbout(events, of, uids()) : [] });
    };
    const followPods = (object: KubeObject) => {
      podsStarted = true;
      const selector = podSelectorOf(object);
      if (of.kind === 'Service' && !selector) return recompute();
      const ns = { namespace: of.namespace ?? String(object.metadata?.namespace ?? 'default') };
      watch({ apiVersion: 'v1', kind: 'Pod', ...ns, ...(selector ? { labelSelector: selector } : {}) }, (items) => {
        pods = items;
        recompute();
      });
      if (of.kind === 'Deployment')
        watch(
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', ...ns, ...(selector ? { labelSelector: selector } : {}) },
          (items) => {
            owners = items;
            recompute();
          },
        );
      if (of.kind === 'Service')
        watch(
          {
            apiVersion: 'discovery.k8s.io/v1',
            kind: 'EndpointSlice',
            ...ns,
            labelSelector: `kubernetes.io/service-name=${of.name}`,
          },
          (items) => {
            owners = items;
            recompute();
          },
        );
    };

    watch(
      {
        apiVersion: of.apiVersion,
        kind: of.kind,
        ...(of.namespace ? { namespace: of.namespace } : {}),
        fieldSelector: `metadata.name=${of.name}`,
      },
      (items) => {
        const object = items.find((o) => o.metadata?.name === of.name);
        view = { ...view, loading: false, gone: !object, ...(object ? { object } : { object: undefined }) };
        if (object && !podsStarted && (page === 'pods' || page === 'describe') && listsPods(of.kind))
          followPods(object);
        recompute();
      },
    );
    if (page === 'describe' && of.namespace)
      watch({ apiVersion: 'v1', kind: 'Event', namespace: of.namespace }, (items) => {
        events = items;
        recompute();
      });
  }

  stop(): void {
    for (const stop of this.stops) stop();
    this.stops = [];
    this.view.update(() => undefined);
  }

  async act(r: ObjectActionRequest): Promise<string> {
    const command = this.kubectl(r.of, actionArgs(r));
    if (this.options.readOnly)
      throw new UserError(
        `${r.action} changes the cluster and is refused in --read-only mode (it would be: ${command})`,
      );
    const refusal = actionRefusal(r);
    if (refusal) throw new UserError(refusal);
    const ref = {
      apiVersion: r.of.apiVersion,
      kind: r.of.kind,
      name: r.of.name,
      ...(r.of.namespace ? { namespace: r.of.namespace } : {}),
    };
    const source = this.options.source;
    switch (r.action) {
      case 'restart':
        await source.mergePatch(r.of.cluster, ref, restartPatch(new Date(this.now())));
        return `${kubectlName(r.of)} restarted on ${r.of.cluster}: its pods roll anew`;
      case 'scale':
        await source.mergePatch(r.of.cluster, ref, scalePatch(r.replicas ?? 0));
        return `${kubectlName(r.of)} scaled to ${r.replicas} on ${r.of.cluster}`;
      case 'delete': {
        const pod = await source.get(r.of.cluster, ref);
        const owned = (
          Array.isArray(asObject(pod?.metadata).ownerReferences)
            ? (asObject(pod?.metadata).ownerReferences as unknown[])
            : []
        ).some((o) => asObject(o).controller === true && WORKLOADS.has(String(asObject(o).kind)));
        const gone = !(await source.delete(r.of.cluster, ref));
        if (gone) return `${kubectlName(r.of)} was already gone`;
        return `${kubectlName(r.of)} deleted on ${r.of.cluster}${owned ? '; its controller makes a new one' : ' (no controller owns it: nothing replaces it)'}`;
      }
    }
  }
}
