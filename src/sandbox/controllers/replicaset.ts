/**
 * The ReplicaSet controller: keeps `spec.replicas` active pods (creating from the template,
 * deleting the least useful first), and reports replicas, ready and available counts. A pod
 * deleted by hand is replaced at once, while the old one still shows Terminating.
 */
import { omitZeros, withFields } from '../json.js';
import { resourceKey } from '../api/resources.js';
import { isPodActive, isPodReady, type Pod, type ReplicaSet } from './kinds.js';
import type { Controller } from './manager.js';
import {
  allKeys,
  byObject,
  byOwner,
  createFor,
  get,
  ownedPods,
  ownerRef,
  remove,
  typeOf,
  wake,
  writeStatus,
  type ControllerContext,
} from './runtime.js';
import { availableAt, deletionRank, isPodAvailable, podFromTemplate } from './workload-util.js';

/** At most this many pods are created or deleted in one pass, as the real controller's burst. */
const BURST = 500;

/**
 * The same controller serves ReplicationControllers (core v1), the ReplicaSet's predecessor,
 * whose selector is a plain label map and whose replicas default to 1.
 */
export function replicaSetController(
  ctx: ControllerContext,
  kind: 'ReplicaSet' | 'ReplicationController' = 'ReplicaSet',
): Controller {
  const legacy = kind === 'ReplicationController';
  const replicasets = legacy ? typeOf(ctx, '', 'replicationcontrollers') : typeOf(ctx, 'apps', 'replicasets');
  const source = legacy ? 'replication-controller' : 'replicaset-controller';
  const pods = typeOf(ctx, '', 'pods');
  const c: Controller = {
    name: legacy ? 'replicationcontroller' : 'replicaset',
    follows: { [resourceKey(replicasets)]: byObject(), '/pods': byOwner(kind) },
    initialKeys: () => allKeys(ctx, replicasets),
    // the pods it makes or deletes and the status it writes are counted as it goes
    settlesItsOwnWrites: true,
    reconcile(key) {
      const rs = get<ReplicaSet>(ctx, replicasets, key);
      if (!rs || rs.metadata.deletionTimestamp) return;
      const now = ctx.api.clock.now();
      const owned = ownedPods(ctx, rs);
      const active = owned.filter(isPodActive);
      const diff = (rs.spec.replicas ?? 1) - active.length;
      if (diff > 0) {
        for (let i = 0; i < Math.min(diff, BURST); i++) {
          const made = createFor<Pod>(ctx, pods, podFromTemplate(rs, rs.spec.template, { ref: ownerRef(rs) }), {
            object: rs,
            controller: c,
            key,
            source,
          });
          if (!made) break;
          ctx.events.record(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${made.metadata.name ?? ''}`, source);
          active.push(made);
        }
      } else if (diff < 0) {
        const doomed = [...active].sort(deletionRank).slice(0, Math.min(-diff, BURST));
        for (const p of doomed) {
          remove(ctx, pods, p);
          ctx.events.record(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${p.metadata.name ?? ''}`, source);
        }
        const gone = new Set(doomed);
        active.splice(0, active.length, ...active.filter((p) => !gone.has(p)));
      }
      // a burst's own writes do not bring it back for the rest
      if (Math.abs(diff) > BURST) wake(ctx, c, key, 0);
      const minReady = rs.spec.minReadySeconds ?? 0;
      const tplLabels = rs.spec.template.metadata?.labels ?? {};
      const status = withFields(rs.status, {
        replicas: active.length,
        fullyLabeledReplicas: active.filter((p) =>
          Object.entries(tplLabels).every(([k, v]) => p.metadata.labels?.[k] === v),
        ).length,
        readyReplicas: active.filter(isPodReady).length,
        availableReplicas: active.filter((p) => isPodAvailable(p, minReady, now)).length,
        // the pods it has just deleted are terminating now (their events do not bring it back)
        terminatingReplicas: (diff < 0 ? ownedPods(ctx, rs) : owned).filter(
          (p) =>
            p.metadata.deletionTimestamp !== undefined &&
            p.status?.phase !== 'Succeeded' &&
            p.status?.phase !== 'Failed',
        ).length,
        observedGeneration: rs.metadata.generation ?? 1,
      });
      writeStatus(
        ctx,
        replicasets,
        rs,
        omitZeros(status, ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'terminatingReplicas']),
      );
      // the next pod to pass minReadySeconds: those already past it must not hide it
      const soonest = Math.min(...active.map((p) => availableAt(p, minReady) ?? Infinity).filter((t) => t > now));
      if (soonest !== Infinity) wake(ctx, c, key, soonest - now);
    },
  };
  return c;
}
