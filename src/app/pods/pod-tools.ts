/**
 * What the console does with pods beyond applying them: read their logs, open a shell in one,
 * forward a port to one. Logs go through the Kubernetes API (client-node's credentials); a shell
 * and a port-forward are kubectl's (`exec -it`, `port-forward`), run with the kubeconfig and
 * context the console uses, after asking the cluster whether it serves them at all (the embedded
 * sandbox runs no processes, so it serves neither, and says so at once rather than hang).
 */
import type { ClusterSet } from '../../cluster/cluster-set.js';
import { servesPodSubresource, streamPodLog } from '../../cluster/pod-log.js';
import { watchObjects } from '../../cluster/watch.js';
import { errorMessage } from '../../diagnostics/user-error.js';
import { LogFeed, type PodApi } from './log-feed.js';
import { apiVersionOf } from '../../model/kube-object.js';
import { PortForwards, type PortForward } from './port-forwards.js';
import {
  commandLine,
  execArgs,
  kubectlEnv,
  kubectlName,
  portForwardArgs,
  type KubectlBase,
  type PodTarget,
} from './target.js';

/** A command to run in the console's terminal, with the console suspended. */
export interface InteractiveCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
  /** As a person would type it. */
  line: string;
}

export type Refusal = { refused: string };

export interface PodTools {
  /** The kubeconfig files and context kubectl needs to do what the console does. */
  kubectl(context: string): KubectlBase;
  /** A started log feed; the caller closes it. */
  openLogs(target: PodTarget): LogFeed;
  /** `kubectl exec -it … -- sh`, or why not. */
  shell(target: PodTarget): Promise<InteractiveCommand | Refusal>;
  readonly portForwards: PortForwards;
  startPortForward(target: PodTarget, ports: readonly string[]): Promise<PortForward | Refusal>;
  /** Closes open log feeds and stops every port-forward. */
  close(): Promise<void>;
}

const KUBECTL = process.env.KDECK_KUBECTL ?? 'kubectl';

export type PodProcessSub = 'exec' | 'portforward';

/** Why a cluster that serves no `sub` (only the embedded sandbox leaves them out: it runs no processes) refuses. */
export function noProcesses(target: PodTarget, sub: PodProcessSub, line: string): string {
  const what = sub === 'exec' ? 'no shell in' : 'nothing listens in';
  return `the sandbox runs no processes: ${what} ${kubectlName(target)} (${target.context} serves no pods/${sub}; on a real cluster this runs ${line})`;
}

export class ClusterPodTools implements PodTools {
  readonly portForwards = new PortForwards(KUBECTL);
  private readonly feeds = new Set<LogFeed>();

  constructor(private readonly clusters: ClusterSet) {}

  kubectl(context: string): KubectlBase {
    return { kubeconfig: this.clusters.kubeconfig.files, context };
  }

  private api(context: string): PodApi {
    const client = this.clusters.client(context);
    return {
      getObject: (kind, namespace, name) => client.get({ apiVersion: apiVersionOf(kind), kind, namespace, name }),
      watchPods: (namespace, selector, onEvent, signal) =>
        watchObjects(client, { apiVersion: 'v1', kind: 'Pod', namespace, ...selector }, onEvent, { signal }),
      streamLog: (namespace, pod, opts, onLines) => streamPodLog(client.rest, namespace, pod, opts, onLines),
    };
  }

  openLogs(target: PodTarget): LogFeed {
    const feed = new LogFeed(this.api(target.context), target);
    this.feeds.add(feed);
    const close = feed.close.bind(feed);
    feed.close = () => {
      this.feeds.delete(feed);
      close();
    };
    void feed.start();
    return feed;
  }

  /** Whether the target's cluster serves `sub`; a sentence when it does not or cannot be asked. */
  private async refusal(target: PodTarget, sub: PodProcessSub, line: string) {
    try {
      if (await servesPodSubresource(this.clusters.client(target.context).rest, sub)) return undefined;
    } catch (e) {
      return `cannot ask ${target.context} whether it serves pods/${sub}: ${errorMessage(e)}`;
    }
    return noProcesses(target, sub, line);
  }

  async shell(target: PodTarget): Promise<InteractiveCommand | Refusal> {
    const base = this.kubectl(target.context);
    const args = execArgs(base, target);
    const line = commandLine(base, args);
    const refused = await this.refusal(target, 'exec', line);
    if (refused) return { refused };
    return { file: KUBECTL, args, env: kubectlEnv(base), line };
  }

  async startPortForward(target: PodTarget, ports: readonly string[]): Promise<PortForward | Refusal> {
    const base = this.kubectl(target.context);
    const line = commandLine(base, portForwardArgs(base, target, ports));
    const refused = await this.refusal(target, 'portforward', line);
    if (refused) return { refused };
    return this.portForwards.start(base, target, ports);
  }

  async close(): Promise<void> {
    for (const feed of [...this.feeds]) feed.close();
    await this.portForwards.stopAll();
  }
}
