/**
 * What a log, a shell or a port-forward is aimed at: one pod, or a workload (all its pods), in a
 * context and namespace; and the kubectl command line that does the same, with the kubeconfig
 * the console uses, for the footer and help (on the command line these are kubectl's job).
 */
import { WORKLOADS } from '../../health/rules.js';

export interface PodTarget {
  context: string;
  namespace: string;
  /** `Pod`, or a workload kind: Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, Service. */
  kind: string;
  name: string;
  container?: string;
}

/** Whether `enter` lists the object's pods: a workload's, or those behind a Service. */
export const listsPods = (kind: string): boolean => WORKLOADS.has(kind) || kind === 'Service';

/** Whether `l` and `s` apply: a pod, or an object that has pods. */
export const hasPods = (kind: string): boolean => kind === 'Pod' || listsPods(kind);

/** `pod/web-1`, `deployment/web`: how kubectl names an object on its command line. */
export function kubectlName(t: Pick<PodTarget, 'kind' | 'name'>): string {
  return `${t.kind.toLowerCase()}/${t.name}`;
}

/** The kubeconfig files the console reads and the context: kubectl's first words. */
export interface KubectlBase {
  kubeconfig: readonly string[];
  context: string;
}

/** Arguments before kubectl's verb; several kubeconfig files go through KUBECONFIG instead (kubectlEnv). */
export function kubectlArgs(base: KubectlBase, namespace: string | undefined): string[] {
  const file = base.kubeconfig.length === 1 ? ['--kubeconfig', base.kubeconfig[0]!] : [];
  return [...file, '--context', base.context, ...(namespace ? ['-n', namespace] : [])];
}

export function kubectlEnv(base: KubectlBase): Record<string, string> {
  return base.kubeconfig.length > 1 ? { KUBECONFIG: base.kubeconfig.join(':') } : {};
}

const quoted = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

/** A command line as a person would type it. */
export function commandLine(base: KubectlBase, args: readonly string[]): string {
  const env = Object.entries(kubectlEnv(base)).map(([k, v]) => `${k}=${quoted(v)} `);
  return `${env.join('')}kubectl ${args.map(quoted).join(' ')}`;
}

/**
 * The kubectl command for `args` on a cluster (a context) and namespace, with the kubeconfig
 * files the console reads: what a per-object view or action does, as it is done by hand.
 */
export function kubectlCommand(
  kubeconfig: readonly string[],
  where: { cluster: string; namespace?: string },
  args: readonly string[],
): string {
  const base = { kubeconfig, context: where.cluster };
  return commandLine(base, [...kubectlArgs(base, where.namespace), ...args]);
}

export interface LogCommandOptions {
  follow: boolean;
  previous: boolean;
  tailLines?: number;
  /** The label selector of a workload's pods (`kubectl logs -l … --prefix`). */
  selector?: string;
}

export function logsArgs(base: KubectlBase, t: PodTarget, o: LogCommandOptions): string[] {
  const what = t.kind === 'Pod' ? [kubectlName(t)] : o.selector ? ['-l', o.selector, '--prefix'] : [kubectlName(t)];
  return [
    ...kubectlArgs(base, t.namespace),
    'logs',
    ...(o.follow && !o.previous ? ['-f'] : []),
    ...(o.previous ? ['--previous'] : []),
    ...(o.tailLines !== undefined ? [`--tail=${o.tailLines}`] : []),
    ...what,
    ...(t.container ? ['-c', t.container] : []),
  ];
}

export function execArgs(base: KubectlBase, t: PodTarget): string[] {
  return [
    ...kubectlArgs(base, t.namespace),
    'exec',
    '-it',
    kubectlName(t),
    ...(t.container ? ['-c', t.container] : []),
    '--',
    'sh',
  ];
}

export function portForwardArgs(base: KubectlBase, t: PodTarget, ports: readonly string[]): string[] {
  return [...kubectlArgs(base, t.namespace), 'port-forward', kubectlName(t), ...ports];
}
