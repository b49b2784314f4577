/**
 * A recovery runbook's compiled output to a RecoveryPlan: the targets grouped by cluster, cut
 * into batches that never take more than `maxUnavailable` replicas of one workload at once, the
 * blast radius per workload, and the kubectl commands that would do the same by hand. Pure.
 */
import { asObject } from '../model/resource.js';
import { parseDuration } from '../model/duration.js';
import { UserError } from '../diagnostics/user-error.js';

export type RecoveryAction = 'delete' | 'evict' | 'rollout-restart';
export type OnFailure = 'pause' | 'abort' | 'continue';

export interface RecoveryTarget {
  cluster: string;
  namespace: string;
  /** Pod for delete and evict; Deployment, StatefulSet or DaemonSet for a rollout restart. */
  kind: string;
  name: string;
  /** The hostname that led to it, when it came from the CMDB. */
  hostname?: string;
  owner?: { kind: string; name: string };
}

export interface RecoveryStrategy {
  batchSize: number;
  maxUnavailable: number;
  clusterConcurrency: number;
  healthTimeout: string;
  onFailure: OnFailure;
}

export interface Runbook {
  name: string;
  action: RecoveryAction;
  strategy: RecoveryStrategy;
  targets: RecoveryTarget[];
  unresolved: string[];
}

export interface Batch {
  cluster: string;
  /** 1-based within its cluster. */
  index: number;
  targets: RecoveryTarget[];
}

export interface RecoveryPlan {
  runbook: Runbook;
  batches: Batch[];
  /** Per owning workload (cluster/namespace/kind/name): its targets and the most touched at once. */
  blastRadius: BlastRadius[];
}

export interface BlastRadius {
  workload: string;
  targets: number;
  atOnce: number;
  /** The workload's replicas when the plan was made; unknown when the hostnames came from a CMDB file. */
  replicas?: { desired: number; ready: number };
}

function str(o: Record<string, unknown>, key: string, where: string): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '')
    throw new UserError(
      `the runbook output has no ${where}.${key}; a runbook is a recovery.PodRecovery or recovery.WorkloadRestart`,
    );
  return v;
}

/** Reads the `runbook` value a runbook file outputs. */
export function runbookOf(output: unknown): Runbook {
  const rb = asObject(asObject(output).runbook);
  if (Object.keys(rb).length === 0)
    throw new UserError(
      'the runbook file outputs no `runbook`: assign a recovery.PodRecovery or recovery.WorkloadRestart to `runbook`',
    );
  const s = asObject(rb.strategy);
  const action = str(rb, 'action', 'runbook') as RecoveryAction;
  const targets = (Array.isArray(rb.targets) ? rb.targets : []).map((t, i) => {
    const o = asObject(t);
    const where = `runbook.targets[${i}]`;
    const owner = asObject(o.owner);
    return {
      cluster: str(o, 'cluster', where),
      namespace: str(o, 'namespace', where),
      kind: str(o, 'kind', where),
      name: str(o, 'name', where),
      ...(typeof o.hostname === 'string' ? { hostname: o.hostname } : {}),
      ...(typeof owner.kind === 'string' && typeof owner.name === 'string'
        ? { owner: { kind: owner.kind, name: owner.name } }
        : {}),
    };
  });
  // a hostname given twice, or two hostnames of one pod (its name and its node), restart it once
  const unique = [...new Map(targets.map((t) => [`${t.cluster}/${t.namespace}/${t.kind}/${t.name}`, t])).values()];
  return {
    name: str(rb, 'name', 'runbook'),
    action,
    strategy: {
      batchSize: Number(s.batchSize ?? 1),
      maxUnavailable: Number(s.maxUnavailable ?? 1),
      clusterConcurrency: Number(s.clusterConcurrency ?? 2),
      healthTimeout: String(s.healthTimeout ?? '5m'),
      onFailure: (s.onFailure ?? 'pause') as OnFailure,
    },
    targets: unique,
    unresolved: Array.isArray(rb.unresolved) ? rb.unresolved.map(String) : [],
  };
}

/** The workload a target belongs to (its owner, else itself), as the blast radius names it. */
export const workloadOf = (t: RecoveryTarget) =>
  `${t.cluster}/${t.namespace}/${t.owner ? `${t.owner.kind}/${t.owner.name}` : `${t.kind}/${t.name}`}`;

/**
 * Batches per cluster, in target order: a batch takes up to `batchSize` targets, and no more
 * than `maxUnavailable` of one workload; a target that does not fit waits for a later batch.
 */
export function planRecovery(runbook: Runbook): RecoveryPlan {
  const { batchSize, maxUnavailable } = runbook.strategy;
  const batches: Batch[] = [];
  const atOnce = new Map<string, number>();
  const clusters = [...new Set(runbook.targets.map((t) => t.cluster))].sort();
  for (const cluster of clusters) {
    let waiting = runbook.targets.filter((t) => t.cluster === cluster);
    for (let index = 1; waiting.length; index++) {
      const taken: RecoveryTarget[] = [];
      const perWorkload = new Map<string, number>();
      const left: RecoveryTarget[] = [];
      for (const t of waiting) {
        const w = workloadOf(t);
        if (taken.length < batchSize && (perWorkload.get(w) ?? 0) < maxUnavailable) {
          taken.push(t);
          perWorkload.set(w, (perWorkload.get(w) ?? 0) + 1);
        } else left.push(t);
      }
      for (const [w, n] of perWorkload) atOnce.set(w, Math.max(atOnce.get(w) ?? 0, n));
      batches.push({ cluster, index, targets: taken });
      waiting = left;
    }
  }
  const blastRadius = [...atOnce]
    .map(([workload, n]) => ({
      workload,
      targets: runbook.targets.filter((t) => workloadOf(t) === workload).length,
      atOnce: n,
    }))
    .sort((a, b) => (a.workload < b.workload ? -1 : 1));
  return { runbook, batches, blastRadius };
}

/** What an operator would type to do one step by hand. */
export function kubectlCommand(action: RecoveryAction, t: RecoveryTarget): string {
  const base = `kubectl --context ${t.cluster} -n ${t.namespace}`;
  switch (action) {
    case 'delete':
      return `${base} delete pod ${t.name} --wait=false`;
    case 'evict':
      return `${base} create --raw /api/v1/namespaces/${t.namespace}/pods/${t.name}/eviction -f - <<< '{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"${t.name}","namespace":"${t.namespace}"}}'`;
    case 'rollout-restart':
      return `${base} rollout restart ${t.kind.toLowerCase()}/${t.name}`;
  }
}

/** The runbook's health timeout in milliseconds (the runbook model checked its form). */
export function durationOf(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new UserError(`strategy.healthTimeout ${text} is not a duration such as 90s or 5m`);
  return ms;
}
