/**
 * Pod eviction (POST pods/<name>/eviction, as `kubectl drain` uses it): a delete that asks the
 * pod's PodDisruptionBudget first. A budget with no disruptions left answers 429; an allowed
 * eviction spends one disruption and records the pod in the budget's status, in the same step.
 */
import { clone, getPath, isMap, type JsonMap } from '../json.js';
import { rfc3339 } from '../time.js';
import type { ApiContext, WriteOptions } from './context.js';
import { deleteObject, deleteOptionsFrom } from './delete.js';
import { ApiError, badRequest, internalError, notFound } from './errors.js';
import type { KubeObject } from './object.js';
import type { ResourceType } from './resources.js';
import { matchesLabels, selectorFromObject } from './selectors.js';
import { commitUpdate } from './write.js';

function budgetError(cause: string): ApiError {
  return new ApiError(429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", {
    causes: [{ reason: 'DisruptionBudget', message: cause }],
  });
}

function podReady(pod: KubeObject): boolean {
  const conds = getPath(pod, ['status', 'conditions']);
  return Array.isArray(conds) && conds.some((c) => isMap(c) && c.type === 'Ready' && c.status === 'True');
}

function skipsBudget(pod: KubeObject): boolean {
  const phase = getPath(pod, ['status', 'phase']);
  return (
    phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp !== undefined
  );
}

export interface EvictionResult {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success';
  code: 201;
}

export function evictPod(
  ctx: ApiContext,
  pods: ResourceType,
  namespace: string,
  name: string,
  body: unknown,
  opts: WriteOptions,
): EvictionResult {
  const pod = ctx.store.get('/pods', namespace, name);
  if (!pod) throw notFound({ resource: 'pods', group: '', name });
  if (!isMap(body) || (body.kind !== undefined && body.kind !== 'Eviction'))
    throw badRequest('the body of an eviction must be a policy/v1 Eviction');
  const bodyName = getPath(body, ['metadata', 'name']);
  if (bodyName !== undefined && bodyName !== name)
    throw badRequest(`name in URL does not match name in Eviction object`);
  const deleteOpts = deleteOptionsFrom(
    new URLSearchParams(),
    isMap(body.deleteOptions) ? body.deleteOptions : {},
    opts,
  );
  const done: EvictionResult = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

  if (!skipsBudget(pod)) {
    const pdbs = ctx.store.list('policy/poddisruptionbudgets', namespace).filter((p) => {
      const sel = selectorFromObject(getPath(p, ['spec', 'selector']));
      return sel !== undefined && matchesLabels(sel, pod.metadata.labels);
    });
    if (pdbs.length > 1)
      throw internalError(
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      );
    const pdb = pdbs[0];
    if (pdb) spendDisruption(ctx, pdb, pod, opts);
  }
  deleteObject(ctx, pods, namespace, name, deleteOpts);
  return done;
}

function spendDisruption(ctx: ApiContext, pdb: KubeObject, pod: KubeObject, opts: WriteOptions): void {
  const pdbName = pdb.metadata.name ?? '';
  const status: JsonMap = isMap(pdb.status) ? pdb.status : {};
  const observed = typeof status.observedGeneration === 'number' ? status.observedGeneration : 0;
  if (observed < (pdb.metadata.generation ?? 1))
    throw budgetError(`The disruption budget ${pdbName} is still being processed by the server.`);
  const current = typeof status.currentHealthy === 'number' ? status.currentHealthy : 0;
  const desired = typeof status.desiredHealthy === 'number' ? status.desiredHealthy : 0;
  const unhealthyPolicy = getPath(pdb, ['spec', 'unhealthyPodEvictionPolicy']);
  const phase = getPath(pod, ['status', 'phase']);
  // a running pod that is not ready may go when the policy says so, or when the budget is met anyway
  if (phase === 'Running' && !podReady(pod) && (unhealthyPolicy === 'AlwaysAllow' || current >= desired)) return;
  const allowed = typeof status.disruptionsAllowed === 'number' ? status.disruptionsAllowed : 0;
  if (allowed <= 0)
    throw budgetError(`The disruption budget ${pdbName} needs ${desired} healthy pods and has ${current} currently`);
  if (opts.dryRun) return;
  const next = clone(pdb);
  const nextStatus: JsonMap = isMap(next.status) ? next.status : (next.status = {});
  nextStatus.disruptionsAllowed = allowed - 1;
  nextStatus.disruptedPods = {
    ...(isMap(status.disruptedPods) ? status.disruptedPods : {}),
    [pod.metadata.name ?? '']: rfc3339(ctx.clock.now()),
  };
  const pdbType = ctx.resources.lookup('policy', 'v1', 'poddisruptionbudgets')!;
  commitUpdate(ctx, pdbType, pdb, next, { manager: opts.manager, scope: 'status', subresource: 'status' });
}
