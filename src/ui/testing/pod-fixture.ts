/**
 * Pods for screen tests and golden frames: the prod stack's frontend Deployment has three pods,
 * each with the frontend container (restarted once: its previous run crashed with exit code 1)
 * and a log-shipper sidecar. Log streams are scripted: each opens with a few lines, and a test
 * writes more while one follows. The clusters serve no exec or port-forward, as the sandbox.
 */
import type { KubeObject } from '../../model/kube-object.js';
import type { PodLogOptions, PodLogStream, PodLogEnd } from '../../cluster/pod-log.js';
import type { WatchEvent } from '../../cluster/watch.js';
import { LogFeed, type PodApi } from '../../app/pods/log-feed.js';
import { noProcesses, type InteractiveCommand, type PodTools, type Refusal } from '../../app/pods/pod-tools.js';
import { PortForwards, type PortForward } from '../../app/pods/port-forwards.js';
import { commandLine, execArgs, portForwardArgs, type KubectlBase, type PodTarget } from '../../app/pods/target.js';
import { T0 } from './fixture.js';

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');

function pod(name: string): KubeObject {
  const started = iso(T0 - 30_000);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'guestbook', labels: { app: 'frontend' } },
    spec: { nodeName: 'b-node-1', containers: [{ name: 'frontend' }, { name: 'log-shipper' }] },
    status: {
      containerStatuses: [
        {
          name: 'frontend',
          restartCount: 1,
          state: { running: { startedAt: started } },
          lastState: {
            terminated: {
              exitCode: 1,
              reason: 'Error',
              startedAt: iso(T0 - 60_000),
              finishedAt: iso(T0 - 35_000),
            },
          },
        },
        { name: 'log-shipper', restartCount: 0, state: { running: { startedAt: started } } },
      ],
    },
  };
}

export const FIXTURE_PODS = ['frontend-7d9-abc12', 'frontend-7d9-def34', 'frontend-7d9-ghi56'];

interface Open {
  pod: string;
  opts: PodLogOptions;
  push: (lines: string[]) => void;
  end: (e: PodLogEnd) => void;
  closed: boolean;
}

/** The scripted lines a stream opens with. */
function opening(podName: string, container: string, previous: boolean): string[] {
  if (previous)
    return [
      `${iso(T0 - 60_000)} ${container}: started (run 1)`,
      `${iso(T0 - 36_000)} ${container}: fatal error: cannot reach redis-leader:6379`,
      `${iso(T0 - 35_000)} ${container}: exiting with code 1`,
    ];
  return [
    `${iso(T0 - 30_000)} ${container}: started on ${podName} (run 2)`,
    `${iso(T0 - 25_000)} ${container}: GET /healthz 200`,
    `${iso(T0 - 20_000)} ${container}: GET / 200 (a long request line that tells where the time went: redis 2ms, render 5ms, total 7ms)`,
  ];
}

export class FixturePodApi implements PodApi {
  readonly open: Open[] = [];
  private readonly watchers = new Set<(e: WatchEvent) => void>();
  readonly pods = new Map(FIXTURE_PODS.map((n) => [n, pod(n)]));

  async getObject(kind: string, namespace: string, name: string): Promise<KubeObject | undefined> {
    if (kind === 'Deployment' && namespace === 'guestbook' && name === 'frontend')
      return { spec: { selector: { matchLabels: { app: 'frontend' } } } };
    return undefined;
  }

  async watchPods(
    _namespace: string,
    selector: { labelSelector?: string; fieldSelector?: string },
    onEvent: (e: WatchEvent) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const only = selector.fieldSelector?.replace('metadata.name=', '');
    const listener = (e: WatchEvent) => {
      if (!only || e.object.metadata?.name === only) onEvent(e);
    };
    for (const object of this.pods.values()) listener({ type: 'ADDED', object });
    this.watchers.add(listener);
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    this.watchers.delete(listener);
  }

  streamLog(
    _namespace: string,
    podName: string,
    opts: PodLogOptions,
    onLines: (lines: string[]) => void,
  ): PodLogStream {
    let end: (e: PodLogEnd) => void = () => {};
    const done = new Promise<PodLogEnd>((resolve) => (end = resolve));
    const o: Open = { pod: podName, opts, push: onLines, end, closed: false };
    this.open.push(o);
    queueMicrotask(() => {
      if (o.closed) return;
      onLines(opening(podName, opts.container ?? 'frontend', opts.previous === true));
      if (!opts.follow) {
        o.closed = true;
        end({ kind: 'ended' });
      }
    });
    return {
      close: () => {
        if (o.closed) return;
        o.closed = true;
        end({ kind: 'closed' });
      },
      done,
    };
  }

  /** A pod the Deployment's ReplicaSet makes (ADDED), or takes away (DELETED). */
  addPod(name: string): void {
    const object = pod(name);
    this.pods.set(name, object);
    for (const w of this.watchers) w({ type: 'ADDED', object });
  }

  deletePod(name: string): void {
    const object = this.pods.get(name);
    if (!object) return;
    this.pods.delete(name);
    for (const w of this.watchers) w({ type: 'DELETED', object });
  }

  /** Lines the container writes now, to every stream that follows it. */
  write(podName: string, container: string, text: string | string[], at = T0): void {
    const lines = (Array.isArray(text) ? text : [text]).map((t) => `${iso(at)} ${t}`);
    for (const o of this.open)
      if (!o.closed && o.pod === podName && (o.opts.container ?? 'frontend') === container && o.opts.follow)
        o.push(lines);
  }

  /** Streams still open. */
  get streaming(): number {
    return this.open.filter((o) => !o.closed).length;
  }
}

export class FixturePodTools implements PodTools {
  readonly portForwards = new PortForwards();
  readonly calls: string[] = [];

  constructor(readonly api = new FixturePodApi()) {}

  kubectl(context: string): KubectlBase {
    return { kubeconfig: ['/home/sre/.kube/config'], context };
  }

  openLogs(target: PodTarget): LogFeed {
    this.calls.push(`logs ${target.kind}/${target.name}`);
    const feed = new LogFeed(this.api, target);
    void feed.start();
    return feed;
  }

  async shell(target: PodTarget): Promise<InteractiveCommand | Refusal> {
    const base = this.kubectl(target.context);
    return { refused: noProcesses(target, 'exec', commandLine(base, execArgs(base, target))) };
  }

  async startPortForward(target: PodTarget, ports: readonly string[]): Promise<PortForward | Refusal> {
    const base = this.kubectl(target.context);
    return { refused: noProcesses(target, 'portforward', commandLine(base, portForwardArgs(base, target, ports))) };
  }

  async close(): Promise<void> {}
}
