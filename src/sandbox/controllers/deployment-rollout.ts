/**
 * The Deployment controller's decisions, pure: how far the new ReplicaSet may scale up and the
 * old ones down under maxSurge/maxUnavailable, and the status and conditions that follow — the
 * rules of the real controller (rolling.go, sync.go, progress.go), read and re-expressed.
 */
import { omitZeros } from '../json.js';
import { parseTime, rfc3339 } from '../time.js';
import { condition, type Condition, type Deployment, type ReplicaSet } from './kinds.js';
import { scaled } from './workload-util.js';

export function maxSurge(d: Deployment): number {
  if (d.spec.strategy.type !== 'RollingUpdate') return 0;
  const ru = d.spec.strategy.rollingUpdate ?? {};
  const surge = scaled(ru.maxSurge, d.spec.replicas, true);
  const unavailable = scaled(ru.maxUnavailable, d.spec.replicas, false);
  return surge === 0 && unavailable === 0 ? 0 : surge;
}

export function maxUnavailable(d: Deployment): number {
  if (d.spec.strategy.type !== 'RollingUpdate' || d.spec.replicas === 0) return 0;
  const ru = d.spec.strategy.rollingUpdate ?? {};
  const surge = scaled(ru.maxSurge, d.spec.replicas, true);
  let unavailable = scaled(ru.maxUnavailable, d.spec.replicas, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return Math.min(unavailable, d.spec.replicas);
}

const specReplicas = (rss: readonly ReplicaSet[]) => rss.reduce((n, rs) => n + rs.spec.replicas, 0);
const statusReplicas = (rss: readonly ReplicaSet[], f: 'replicas' | 'readyReplicas' | 'availableReplicas') =>
  rss.reduce((n, rs) => n + (rs.status?.[f] ?? 0), 0);

/** The new ReplicaSet's size for this step of a rolling update. */
export function newReplicaSetSize(d: Deployment, newRs: ReplicaSet | undefined, all: readonly ReplicaSet[]): number {
  const current = newRs?.spec.replicas ?? 0;
  if (d.spec.strategy.type === 'Recreate') return d.spec.replicas;
  if (current > d.spec.replicas) return d.spec.replicas;
  const maxTotal = d.spec.replicas + maxSurge(d);
  const total = specReplicas(all);
  if (total >= maxTotal) return current;
  return current + Math.min(maxTotal - total, d.spec.replicas - current);
}

const byAge = (a: ReplicaSet, b: ReplicaSet) =>
  (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
  (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');

/**
 * New sizes for old ReplicaSets this step: unhealthy replicas go first, then old ones oldest
 * first, never taking availability below `replicas − maxUnavailable`.
 */
export function oldReplicaSetSizes(
  d: Deployment,
  newRs: ReplicaSet,
  old: readonly ReplicaSet[],
): Map<ReplicaSet, number> {
  const sizes = new Map<ReplicaSet, number>(old.map((rs) => [rs, rs.spec.replicas]));
  if (specReplicas(old) === 0) return sizes;
  const all = [...old, newRs];
  const minAvailable = d.spec.replicas - maxUnavailable(d);
  const newUnavailable = newRs.spec.replicas - (newRs.status?.availableReplicas ?? 0);
  const maxScaledDown = specReplicas(all) - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return sizes;
  const sorted = [...old].sort(byAge);
  let cleaned = 0;
  for (const rs of sorted) {
    if (cleaned >= maxScaledDown) break;
    const size = sizes.get(rs)!;
    const available = rs.status?.availableReplicas ?? 0;
    if (size === 0 || size === available) continue;
    const down = Math.min(maxScaledDown - cleaned, size - available);
    sizes.set(rs, size - down);
    cleaned += down;
  }
  const available = statusReplicas(all, 'availableReplicas');
  if (available <= minAvailable) return sizes;
  let toScale = available - minAvailable;
  for (const rs of sorted) {
    if (toScale <= 0) break;
    const size = sizes.get(rs)!;
    if (size === 0) continue;
    const down = Math.min(size, toScale);
    sizes.set(rs, size - down);
    toScale -= down;
  }
  return sizes;
}

export type DeploymentStatus = NonNullable<Deployment['status']>;

/** Sets a condition the way the controller does: same status keeps its transition time. */
export function setCondition(conds: Condition[], c: Condition): Condition[] {
  const old = condition(conds, c.type);
  if (old && old.status === c.status && old.reason === c.reason) return conds;
  const next = { ...c };
  if (old && old.status === c.status) next.lastTransitionTime = old.lastTransitionTime ?? c.lastTransitionTime;
  return [...conds.filter((x) => x.type !== c.type), next];
}

export function newCondition(
  type: string,
  status: Condition['status'],
  reason: string,
  message: string,
  now: number,
): Condition {
  const t = rfc3339(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

export function calculateStatus(
  d: Deployment,
  newRs: ReplicaSet | undefined,
  all: readonly ReplicaSet[],
  now: number,
): DeploymentStatus {
  const available = statusReplicas(all, 'availableReplicas');
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation ?? 1,
    replicas: statusReplicas(all, 'replicas'),
    updatedReplicas: newRs ? (newRs.status?.replicas ?? 0) : 0,
    readyReplicas: statusReplicas(all, 'readyReplicas'),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, specReplicas(all) - available),
    conditions: [...(d.status?.conditions ?? [])],
  };
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  const ok = available >= d.spec.replicas - maxUnavailable(d);
  const avail = ok
    ? newCondition('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.', now)
    : newCondition(
        'Available',
        'False',
        'MinimumReplicasUnavailable',
        'Deployment does not have minimum availability.',
        now,
      );
  status.conditions = setCondition(status.conditions ?? [], avail);
  return omitZeros(status, [
    'replicas',
    'updatedReplicas',
    'readyReplicas',
    'availableReplicas',
    'unavailableReplicas',
  ]);
}

function complete(d: Deployment, s: DeploymentStatus): boolean {
  return (
    s.updatedReplicas === d.spec.replicas &&
    s.replicas === d.spec.replicas &&
    s.availableReplicas === d.spec.replicas &&
    (s.observedGeneration ?? 0) >= (d.metadata.generation ?? 1)
  );
}

function progressed(old: Deployment['status'], s: DeploymentStatus): boolean {
  const o = old ?? {};
  return (
    (s.updatedReplicas ?? 0) > (o.updatedReplicas ?? 0) ||
    (s.replicas ?? 0) < (o.replicas ?? 0) ||
    (s.readyReplicas ?? 0) > (o.readyReplicas ?? 0) ||
    (s.availableReplicas ?? 0) > (o.availableReplicas ?? 0)
  );
}

/**
 * The Progressing condition after this sync, and when the deadline would pass if nothing moves
 * (so the controller can look again then).
 */
export function progress(
  d: Deployment,
  newRs: ReplicaSet | undefined,
  s: DeploymentStatus,
  now: number,
): { status: DeploymentStatus; deadlineAt?: number } {
  const deadline = d.spec.progressDeadlineSeconds;
  if (deadline === undefined || deadline === null) {
    return { status: { ...s, conditions: (s.conditions ?? []).filter((c) => c.type !== 'Progressing') } };
  }
  const current = condition(s.conditions, 'Progressing');
  const rsName = newRs?.metadata.name ?? '';
  if (s.replicas === s.updatedReplicas && current?.reason === 'NewReplicaSetAvailable') return { status: s };
  let conds = s.conditions ?? [];
  if (complete(d, s)) {
    conds = setCondition(
      conds,
      newCondition(
        'Progressing',
        'True',
        'NewReplicaSetAvailable',
        `ReplicaSet "${rsName}" has successfully progressed.`,
        now,
      ),
    );
  } else if (progressed(d.status, s)) {
    const c = newCondition('Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "${rsName}" is progressing.`, now);
    if (current?.status === 'True') c.lastTransitionTime = current.lastTransitionTime ?? c.lastTransitionTime;
    conds = [...conds.filter((x) => x.type !== 'Progressing'), c];
  } else if (current && current.reason !== 'ProgressDeadlineExceeded') {
    const since = parseTime(current.lastUpdateTime) ?? now;
    const at = since + deadline * 1000;
    if (at < now)
      conds = setCondition(
        conds,
        newCondition(
          'Progressing',
          'False',
          'ProgressDeadlineExceeded',
          `ReplicaSet "${rsName}" has timed out progressing.`,
          now,
        ),
      );
    else return { status: { ...s, conditions: conds }, deadlineAt: at + 1000 };
  }
  const after = condition(conds, 'Progressing');
  const stillRunning = after?.status === 'True' && after.reason !== 'NewReplicaSetAvailable';
  const deadlineAt = stillRunning ? (parseTime(after.lastUpdateTime) ?? now) + deadline * 1000 + 1000 : undefined;
  return deadlineAt === undefined
    ? { status: { ...s, conditions: conds } }
    : { status: { ...s, conditions: conds }, deadlineAt };
}
