/**
 * The pod or workload a command aims at: a `pod/NAME`-like word of the command line in the
 * selected stack's namespace and cluster (keys aim at the selected object: selection.ts).
 */
import type { PodTarget } from '../app/pods/target.js';
import type { StackEntry } from '../app/console/state.js';
import { idParts } from '../model/ids.js';
import type { ResourceRow } from './derive.js';

/** kubectl's resource words for the kinds that have pods. */
const KINDS: Record<string, string> = {
  pod: 'Pod',
  po: 'Pod',
  pods: 'Pod',
  deployment: 'Deployment',
  deploy: 'Deployment',
  deployments: 'Deployment',
  statefulset: 'StatefulSet',
  sts: 'StatefulSet',
  daemonset: 'DaemonSet',
  ds: 'DaemonSet',
  replicaset: 'ReplicaSet',
  rs: 'ReplicaSet',
  job: 'Job',
  service: 'Service',
  svc: 'Service',
};

/** The namespace a command's target is in: the selected row's, else the stack's first. */
function namespaceOf(stack: StackEntry | undefined, row: ResourceRow | undefined): string | undefined {
  const ids = [row?.id, ...(stack?.spec?.resources ?? []).map((r) => r.id)];
  for (const id of ids) {
    const ns = id ? idParts(id).namespace : undefined;
    if (ns) return ns;
  }
  return undefined;
}

/** `pod/web-1`, `deploy/web`, `svc/web`: a target in the selected stack's namespace and cluster, or why not. */
export function namedPodTarget(
  word: string,
  at: { stack?: StackEntry; row?: ResourceRow; context?: string },
): PodTarget | { error: string } {
  const [type = '', name = ''] = word.split('/');
  const kind = KINDS[type.toLowerCase()];
  if (!kind || !name || word.split('/').length !== 2)
    return { error: `${word} is not TYPE/NAME (pod/web-1, deploy/web, sts/db, svc/web)` };
  const namespace = namespaceOf(at.stack, at.row);
  const context = at.row?.cluster || at.stack?.stack.cluster || at.context;
  if (!namespace || !context)
    return {
      error: `the selected stack names no namespace or cluster to look for ${word} in; select a stack with :stack`,
    };
  return { context, namespace, kind, name };
}
