/**
 * A live log of a pod or of every pod of a workload, as `kubectl logs [-f] [--previous]
 * [-l SELECTOR --prefix] [-c CONTAINER]` reads it: one log stream per pod, merged into one
 * bounded buffer, each line marked with its pod and container. The pods are watched, so a new
 * pod's log joins and a deleted pod's stream ends; a followed container that restarts is read
 * again from where its last line was. Every option change starts the streams afresh; `close`
 * ends them all (and the watch), so a closed view leaves no connection open.
 */
import type { KubeObject } from '../../model/kube-object.js';
import type { PodLogEnd, PodLogOptions, PodLogStream } from '../../cluster/pod-log.js';
import type { WatchEvent } from '../../cluster/watch.js';
import { errorMessage } from '../../diagnostics/user-error.js';
import { Store } from '../console/state.js';
import { appended, emptyBuffer, LOG_LIMIT, splitTimestamp, type LogBuffer } from './log-buffer.js';
import {
  containerNames,
  defaultContainer,
  lastTermination,
  podName,
  restartCount,
  runStartedAt,
  waitingReason,
  type Termination,
} from './objects.js';
import { podSelectorOf } from './owned-pods.js';
import { kubectlName, type PodTarget } from './target.js';

/** What the log feed needs of a cluster; pod-tools.ts gives it over client-node, tests may fake it. */
export interface PodApi {
  /** The workload (or Service) a target names, undefined when there is none. */
  getObject(kind: string, namespace: string, name: string): Promise<KubeObject | undefined>;
  /** Pod events until `signal` aborts; the current pods first, as ADDED. */
  watchPods(
    namespace: string,
    selector: { labelSelector?: string; fieldSelector?: string },
    onEvent: (e: WatchEvent) => void,
    signal: AbortSignal,
  ): Promise<void>;
  streamLog(namespace: string, pod: string, opts: PodLogOptions, onLines: (lines: string[]) => void): PodLogStream;
}

export type SourceState = 'waiting' | 'streaming' | 'ended' | 'refused';

/** One pod's container the feed reads. */
export interface LogSource {
  /** `pod/web-1/app` */
  key: string;
  pod: string;
  container: string;
  state: SourceState;
  /** Why it waits or was refused, in the cluster's words. */
  message?: string;
  restarts: number;
  /** How its previous run ended. */
  termination?: Termination;
}

export interface LogFeedState {
  target: PodTarget;
  /** The workload's pod selector (`kubectl logs -l`), once read. */
  selector?: string;
  follow: boolean;
  previous: boolean;
  /** The container asked for; each pod's default container when none is. */
  container?: string;
  /** Every container name of the pods, for the picker. */
  containers: readonly string[];
  sources: readonly LogSource[];
  buffer: LogBuffer;
  /** Lines each source reads at first (kubectl --tail). */
  tailLines: number;
  /** The target cannot be read (not found, no selector, cluster unreachable). */
  error?: string;
  /** The pods have not been listed yet. */
  loading: boolean;
}

interface Reader {
  stream?: PodLogStream;
  /** The run (its start time) read or being read; `previous` in previous mode. */
  run?: string;
  /** The timestamp of the last line taken, to start a later read after it. */
  lastAt?: string;
}

export class LogFeed {
  readonly store: Store<LogFeedState>;
  private readonly pods = new Map<string, KubeObject>();
  private readonly readers = new Map<string, Reader>();
  private readonly watch = new AbortController();
  /** Bumped by every option change: lines of streams from before it are not taken. */
  private epoch = 0;
  private closed = false;

  constructor(
    private readonly api: PodApi,
    target: PodTarget,
    options: { follow?: boolean; limit?: number } = {},
  ) {
    this.limit = options.limit ?? LOG_LIMIT;
    this.store = new Store<LogFeedState>({
      target,
      follow: options.follow ?? true,
      previous: false,
      ...(target.container ? { container: target.container } : {}),
      containers: [],
      sources: [],
      buffer: emptyBuffer,
      tailLines: this.limit,
      loading: true,
    });
  }

  private readonly limit: number;

  /** Finds the pods and starts reading; resolves once the watch runs (errors go into the state). */
  async start(): Promise<void> {
    const { target } = this.store.get();
    try {
      const selector = await this.podSelector(target);
      if (this.closed) return;
      if (selector.labelSelector) this.store.update((s) => ({ ...s, selector: selector.labelSelector }));
      void this.api
        .watchPods(target.namespace, selector, (e) => this.onPod(e), this.watch.signal)
        .catch((e: unknown) => this.fail(errorMessage(e)));
    } catch (e) {
      this.fail(errorMessage(e));
    }
  }

  private async podSelector(t: PodTarget): Promise<{ labelSelector?: string; fieldSelector?: string }> {
    if (t.kind === 'Pod') return { fieldSelector: `metadata.name=${t.name}` };
    const o = await this.api.getObject(t.kind, t.namespace, t.name);
    if (!o)
      throw new Error(
        `${kubectlName(t)} is not in namespace ${t.namespace} on ${t.context}; apply the stack first, or check the name`,
      );
    const labelSelector = podSelectorOf(o);
    if (!labelSelector) throw new Error(`${kubectlName(t)} has no pod selector, so it has no pods to read`);
    return { labelSelector };
  }

  private fail(message: string): void {
    this.store.update((s) => ({ ...s, error: message, loading: false }));
  }

  private onPod(e: WatchEvent): void {
    if (this.closed) return;
    const name = podName(e.object);
    if (e.type === 'DELETED') {
      this.pods.delete(name);
      for (const [key, r] of this.readers) if (key.startsWith(`pod/${name}/`)) r.stream?.close();
      this.update();
      return;
    }
    this.pods.set(name, e.object);
    this.sync(name);
    this.update();
  }

  /** The container read in `pod`: the one asked for when the pod has it, else its default. */
  private containerOf(pod: KubeObject): string | undefined {
    const asked = this.store.get().container;
    if (asked) return containerNames(pod).includes(asked) ? asked : undefined;
    return defaultContainer(pod);
  }

  /** Opens the stream a pod's container needs now, if it needs one. */
  private sync(name: string): void {
    const pod = this.pods.get(name);
    if (!pod) return;
    const container = this.containerOf(pod);
    if (!container) return;
    const key = `pod/${name}/${container}`;
    const reader = this.readers.get(key) ?? {};
    this.readers.set(key, reader);
    if (reader.stream) return;
    const { follow, previous, target } = this.store.get();
    let opts: PodLogOptions;
    if (previous) {
      if (reader.run) return;
      reader.run = 'previous';
      opts = { container, previous: true, timestamps: true, tailLines: this.limit };
    } else {
      const run = runStartedAt(pod, container);
      // a container that never ran has no log yet; its next status change says when it has
      if (!run || (reader.run !== undefined && (!follow || reader.run === run))) return;
      opts = {
        container,
        follow,
        timestamps: true,
        ...(reader.lastAt ? { sinceTime: reader.lastAt } : { tailLines: this.limit }),
      };
      reader.run = run;
    }
    const epoch = this.epoch;
    const after = reader.lastAt;
    const stream = this.api.streamLog(target.namespace, name, opts, (raw) => {
      if (epoch !== this.epoch || this.closed) return;
      // a read that starts at the last line's time (sinceTime) gives that line again
      const lines = raw.map(splitTimestamp).filter((l) => !after || !l.at || l.at > after);
      if (lines.length === 0) return;
      reader.lastAt = lines[lines.length - 1]!.at ?? reader.lastAt;
      this.store.update((s) => ({ ...s, buffer: appended(s.buffer, key, lines, this.limit) }));
    });
    reader.stream = stream;
    this.outcome.set(key, { state: 'streaming' });
    void stream.done.then((end) => this.ended(key, reader, stream, end, epoch));
  }

  private readonly outcome = new Map<string, { state: SourceState; message?: string }>();

  private ended(key: string, reader: Reader, stream: PodLogStream, end: PodLogEnd, epoch: number): void {
    if (reader.stream === stream) delete reader.stream;
    if (this.closed || epoch !== this.epoch) return;
    this.outcome.set(key, end.kind === 'refused' ? { state: 'refused', message: end.message } : { state: 'ended' });
    // a followed container may have started again while its last run was being read
    const pod = key.split('/')[1]!;
    this.sync(pod);
    this.update();
  }

  /** The sources and container names, from the pods and the readers. */
  private update(): void {
    const sources: LogSource[] = [];
    const containers = new Set<string>();
    for (const [name, pod] of [...this.pods].sort(([a], [b]) => a.localeCompare(b))) {
      for (const c of containerNames(pod)) containers.add(c);
      const container = this.containerOf(pod);
      if (!container) continue;
      const key = `pod/${name}/${container}`;
      const out = this.outcome.get(key);
      const waiting = waitingReason(pod, container);
      const termination = lastTermination(pod, container);
      sources.push({
        key,
        pod: name,
        container,
        state: out?.state ?? 'waiting',
        // a refusal in the cluster's words, else why the container is not running (CrashLoopBackOff…)
        ...(out?.message
          ? { message: out.message }
          : out?.state !== 'streaming' && waiting
            ? { message: waiting }
            : {}),
        restarts: restartCount(pod, container),
        ...(termination ? { termination } : {}),
      });
    }
    this.store.update((s) => ({ ...s, sources, containers: [...containers], loading: false }));
  }

  /** Starts every stream again under changed options; `keep` keeps the lines read so far. */
  private restart(change: Partial<Pick<LogFeedState, 'follow' | 'previous' | 'container'>>, keep: boolean): void {
    if (this.closed) return;
    this.epoch++;
    for (const r of this.readers.values()) r.stream?.close();
    if (!keep) this.readers.clear();
    else for (const r of this.readers.values()) delete r.run;
    this.outcome.clear();
    this.store.update((s) => {
      const next = { ...s, ...change, ...(keep ? {} : { buffer: emptyBuffer }) };
      if (change.container === undefined && 'container' in change) delete next.container;
      return next;
    });
    for (const name of this.pods.keys()) this.sync(name);
    this.update();
  }

  /**
   * Following on reads on from each container's last line; off closes the streams and keeps
   * what was read (kubectl logs without -f).
   */
  setFollow(follow: boolean): void {
    if (follow === this.store.get().follow) return;
    if (!follow) {
      this.epoch++;
      for (const r of this.readers.values()) r.stream?.close();
      for (const key of this.outcome.keys()) this.outcome.set(key, { state: 'ended' });
      this.store.update((s) => ({ ...s, follow: false }));
      this.update();
      return;
    }
    this.restart({ follow: true }, !this.store.get().previous);
  }

  /** The previous run of each container (kubectl logs --previous), or back to the current one. */
  setPrevious(previous: boolean): void {
    if (previous === this.store.get().previous) return;
    this.restart({ previous }, false);
  }

  /** One container of every pod, or (undefined) each pod's default container. */
  setContainer(container: string | undefined): void {
    if (container === this.store.get().container) return;
    this.restart({ container }, false);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.watch.abort();
    for (const r of this.readers.values()) r.stream?.close();
  }
}
