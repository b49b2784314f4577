/**
 * The disruption controller: each PodDisruptionBudget's status — how many pods it expects
 * (the scale of their controllers), how many must stay healthy, how many are, and so how many
 * disruptions (evictions) are allowed now. Evictions read it (`../api/eviction.ts`).
 */
import { getPath } from '../json.js';
import { rfc3339 } from '../time.js';
import { resourceKey } from '../api/resources.js';
import { matchesLabels, selectorFromObject } from '../api/selectors.js';
import { isPodActive, isPodReady, type Pod, type PodDisruptionBudget } from './kinds.js';
import type { Controller } from './manager.js';
import { allKeys, byObject, get, keyOf, typeOf, writeStatus, type ControllerContext } from './runtime.js';
import { scaled } from './workload-util.js';

const SCALED_KINDS: Record<string, string> = {
  ReplicaSet: 'apps/replicasets',
  StatefulSet: 'apps/statefulsets',
  Deployment: 'apps/deployments',
  Job: 'batch/jobs',
};

export function disruptionController(ctx: ControllerContext): Controller {
  const pdbs = typeOf(ctx, 'policy', 'poddisruptionbudgets');

  /** The replicas the pods' controllers want, counting each controller once. */
  const expectedFromControllers = (pods: readonly Pod[]): number | undefined => {
    const seen = new Map<string, number>();
    for (const p of pods) {
      const ref = p.metadata.ownerReferences?.find((r) => r.controller === true);
      if (!ref) return undefined;
      let owner = SCALED_KINDS[ref.kind]
        ? ctx.api.store.get(SCALED_KINDS[ref.kind]!, p.metadata.namespace ?? '', ref.name)
        : undefined;
      if (!owner) return undefined;
      const up =
        owner.kind === 'ReplicaSet'
          ? owner.metadata.ownerReferences?.find((r) => r.controller === true && r.kind === 'Deployment')
          : undefined;
      if (up) owner = ctx.api.store.get('apps/deployments', p.metadata.namespace ?? '', up.name) ?? owner;
      const replicas = getPath(owner, ['spec', owner.kind === 'Job' ? 'parallelism' : 'replicas']);
      seen.set(owner.metadata.uid ?? '', typeof replicas === 'number' ? replicas : 1);
    }
    return [...seen.values()].reduce((a, b) => a + b, 0);
  };

  const c: Controller = {
    name: 'disruption',
    follows: {
      'policy/poddisruptionbudgets': byObject(),
      '/pods': (e) => {
        const ns = e.object.metadata.namespace ?? '';
        const labels = [e.object.metadata.labels, e.old?.metadata.labels];
        return ctx.api.store
          .list(resourceKey(pdbs), ns)
          .filter((b) => {
            const sel = selectorFromObject(getPath(b, ['spec', 'selector']));
            return sel !== undefined && labels.some((l) => l !== undefined && matchesLabels(sel, l));
          })
          .map(keyOf);
      },
      'apps/deployments': (e) => ctx.api.store.list(resourceKey(pdbs), e.object.metadata.namespace ?? '').map(keyOf),
      'apps/statefulsets': (e) => ctx.api.store.list(resourceKey(pdbs), e.object.metadata.namespace ?? '').map(keyOf),
    },
    initialKeys: () => allKeys(ctx, pdbs),
    reconcile(key) {
      const pdb = get<PodDisruptionBudget>(ctx, pdbs, key);
      if (!pdb || pdb.metadata.deletionTimestamp) return;
      const sel = selectorFromObject(pdb.spec.selector);
      const pods =
        sel === undefined
          ? []
          : (ctx.api.store.list('/pods', pdb.metadata.namespace ?? '') as Pod[]).filter(
              (p) => isPodActive(p) && matchesLabels(sel, p.metadata.labels),
            );
      const healthy = pods.filter(isPodReady).length;
      const { minAvailable, maxUnavailable } = pdb.spec;
      let expected = pods.length;
      let desired = 0;
      if (typeof minAvailable === 'number') desired = minAvailable;
      else {
        expected = expectedFromControllers(pods) ?? pods.length;
        desired =
          minAvailable !== undefined
            ? scaled(minAvailable, expected, true)
            : Math.max(0, expected - scaled(maxUnavailable, expected, true));
      }
      const allowed = Math.max(0, healthy - desired);
      const names = new Set(pods.map((p) => p.metadata.name ?? ''));
      const disrupted = Object.fromEntries(
        Object.entries((pdb.status?.disruptedPods as Record<string, string> | undefined) ?? {}).filter(([n]) =>
          names.has(n),
        ),
      );
      const old = (
        pdb.status?.conditions as { type: string; status: string; lastTransitionTime?: string }[] | undefined
      )?.find((x) => x.type === 'DisruptionAllowed');
      const condStatus = allowed > 0 ? 'True' : 'False';
      const status: Record<string, unknown> = {
        observedGeneration: pdb.metadata.generation ?? 1,
        disruptionsAllowed: allowed,
        currentHealthy: healthy,
        desiredHealthy: desired,
        expectedPods: expected,
        conditions: [
          {
            type: 'DisruptionAllowed',
            status: condStatus,
            reason: allowed > 0 ? 'SufficientPods' : 'InsufficientPods',
            message: '',
            observedGeneration: pdb.metadata.generation ?? 1,
            lastTransitionTime: old?.status === condStatus ? old.lastTransitionTime : rfc3339(ctx.api.clock.now()),
          },
        ],
      };
      if (Object.keys(disrupted).length > 0) status.disruptedPods = disrupted;
      writeStatus(ctx, pdbs, pdb, status);
    },
  };
  return c;
}
