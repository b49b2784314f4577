/**
 * The Deployment controller: one ReplicaSet per pod template (named `<deployment>-<hash>`,
 * the hash also in its selector and pods), rolled from old to new under the strategy's rules,
 * revisions numbered on the ReplicaSets and the Deployment, old ReplicaSets kept up to
 * `revisionHistoryLimit`, and the status kubectl's rollout rules read.
 */
import { clone, withFields } from '../json.js';
import type { KubeObject } from '../api/object.js';
import { condition, type Deployment, type ReplicaSet } from './kinds.js';
import type { Controller } from './manager.js';
import {
  allKeys,
  byObject,
  byOwner,
  controlledBy,
  create,
  get,
  keyOf,
  ownedPods,
  ownerRef,
  remove,
  typeOf,
  update,
  wake,
  writeStatus,
  type ControllerContext,
} from './runtime.js';
import {
  calculateStatus,
  maxSurge,
  newCondition,
  newReplicaSetSize,
  oldReplicaSetSizes,
  progress,
  setCondition,
} from './deployment-rollout.js';
import { POD_TEMPLATE_HASH, sameTemplate, templateHash } from './workload-util.js';

const REVISION = 'deployment.kubernetes.io/revision';
const DESIRED = 'deployment.kubernetes.io/desired-replicas';
const MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas';
const COMPONENT = 'deployment-controller';

/** Annotations of a Deployment its controller does not copy to the ReplicaSets it makes. */
const NOT_COPIED = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  'deployment.kubernetes.io/revision',
  'deployment.kubernetes.io/revision-history',
  'deployment.kubernetes.io/desired-replicas',
  'deployment.kubernetes.io/max-replicas',
  'deprecated.deployment.rollback.to',
]);

/**
 * The Deployment's own annotations, copied to its new ReplicaSet (as the controller's
 * SetNewReplicaSetAnnotations does): `kubernetes.io/change-cause` is how `rollout history` tells
 * revisions apart.
 */
function copiedAnnotations(d: Deployment): Record<string, string> {
  return Object.fromEntries(Object.entries(d.metadata.annotations ?? {}).filter(([k]) => !NOT_COPIED.has(k)));
}

function revisionOf(o: KubeObject): number {
  return Number(o.metadata.annotations?.[REVISION] ?? '0') || 0;
}

export function deploymentController(ctx: ControllerContext): Controller {
  const deployments = typeOf(ctx, 'apps', 'deployments');
  const replicasets = typeOf(ctx, 'apps', 'replicasets');

  const scale = (d: Deployment, rs: ReplicaSet, size: number, annotate: boolean): ReplicaSet => {
    if (rs.spec.replicas === size && !annotate) return rs;
    const next = clone(rs);
    next.spec.replicas = size;
    if (annotate) {
      next.metadata.annotations = {
        ...next.metadata.annotations,
        [DESIRED]: String(d.spec.replicas),
        [MAX_REPLICAS]: String(d.spec.replicas + maxSurge(d)),
      };
    }
    const written = update(ctx, replicasets, rs, next);
    if (rs.spec.replicas !== size) {
      const verb = size > rs.spec.replicas ? 'up' : 'down';
      ctx.events.record(
        d,
        'Normal',
        'ScalingReplicaSet',
        `Scaled ${verb} replica set ${rs.metadata.name ?? ''} from ${rs.spec.replicas} to ${size}`,
        COMPONENT,
      );
    }
    return written;
  };

  const c: Controller = {
    name: 'deployment',
    follows: { 'apps/deployments': byObject(), 'apps/replicasets': byOwner('Deployment') },
    initialKeys: () => allKeys(ctx, deployments),
    // it rolls its ReplicaSets as far as they let it and works out the status from what it wrote
    settlesItsOwnWrites: true,
    reconcile(key) {
      let d = get<Deployment>(ctx, deployments, key);
      if (!d || d.metadata.deletionTimestamp) return;
      const now = ctx.api.clock.now();
      let all = controlledBy<ReplicaSet>(ctx, d, 'apps/replicasets');
      let newRs = all.find((rs) => sameTemplate(rs.spec.template, d!.spec.template));
      let conds = d.status?.conditions ?? [];
      const maxOld = Math.max(0, ...all.filter((rs) => rs !== newRs).map(revisionOf));

      if (d.spec.paused) {
        conds = setCondition(
          conds,
          newCondition('Progressing', 'Unknown', 'DeploymentPaused', 'Deployment is paused', now),
        );
      } else if (!newRs) {
        newRs = createNewReplicaSet(d, all, maxOld + 1);
        if (!newRs) return;
        all = [...all, newRs];
        conds = setCondition(
          conds,
          newCondition(
            'Progressing',
            'True',
            'NewReplicaSetCreated',
            `Created new replica set "${newRs.metadata.name ?? ''}"`,
            now,
          ),
        );
      } else {
        const copied = copiedAnnotations(d);
        const stale = Object.entries(copied).some(([k, v]) => newRs!.metadata.annotations?.[k] !== v);
        if (revisionOf(newRs) <= maxOld || stale) {
          const next = clone(newRs);
          next.metadata.annotations = {
            ...next.metadata.annotations,
            ...copied,
            [REVISION]: String(Math.max(revisionOf(newRs), maxOld + 1)),
          };
          newRs = update(ctx, replicasets, newRs, next);
          all = all.map((rs) => (rs.metadata.uid === newRs!.metadata.uid ? newRs! : rs));
        }
        if (!condition(conds, 'Progressing') && d.spec.progressDeadlineSeconds !== undefined) {
          conds = setCondition(
            conds,
            newCondition(
              'Progressing',
              'True',
              'FoundNewReplicaSet',
              `Found new replica set "${newRs.metadata.name ?? ''}"`,
              now,
            ),
          );
        }
      }
      const revision = newRs ? String(revisionOf(newRs)) : d.metadata.annotations?.[REVISION];
      if (revision !== undefined && d.metadata.annotations?.[REVISION] !== revision) {
        const next = clone(d);
        next.metadata.annotations = { ...next.metadata.annotations, [REVISION]: revision };
        d = update(ctx, deployments, d, next);
      }
      if (!d.spec.paused && newRs) {
        all = rollout(d, newRs, all);
        newRs = all.find((rs) => rs.metadata.uid === newRs!.metadata.uid);
        cleanupHistory(d, all, newRs);
      }
      const status = calculateStatus(
        withFields(d, { status: withFields(d.status, { conditions: conds }) }),
        newRs,
        all,
        now,
      );
      const { status: withProgress, deadlineAt } = d.spec.paused
        ? { status, deadlineAt: undefined }
        : progress(d, newRs, status, now);
      writeStatus(ctx, deployments, d, withProgress);
      if (deadlineAt !== undefined && deadlineAt > now) wake(ctx, c, key, deadlineAt - now);
    },
  };

  function createNewReplicaSet(d: Deployment, all: readonly ReplicaSet[], revision: number): ReplicaSet | undefined {
    const collisions = d.status?.collisionCount ?? 0;
    const hash = templateHash(d.spec.template, collisions);
    const template = clone(d.spec.template);
    template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, [POD_TEMPLATE_HASH]: hash } };
    const selector = clone(d.spec.selector);
    selector.matchLabels = { ...selector.matchLabels, [POD_TEMPLATE_HASH]: hash };
    const size = newReplicaSetSize(d, undefined, all);
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${d.metadata.name ?? ''}-${hash}`,
        namespace: d.metadata.namespace ?? '',
        labels: { ...d.spec.template.metadata?.labels, [POD_TEMPLATE_HASH]: hash },
        annotations: {
          ...copiedAnnotations(d),
          [REVISION]: String(revision),
          [DESIRED]: String(d.spec.replicas),
          [MAX_REPLICAS]: String(d.spec.replicas + maxSurge(d)),
        },
        ownerReferences: [ownerRef(d)],
      },
      spec: { replicas: size, selector, template, minReadySeconds: d.spec.minReadySeconds ?? 0 },
    };
    const made = create<ReplicaSet>(ctx, replicasets, rs);
    if (!made) {
      if (!ctx.api.store.get('apps/replicasets', rs.metadata.namespace ?? '', rs.metadata.name ?? '')) return undefined;
      // a ReplicaSet of that name with another template: count a collision and hash again
      writeStatus(ctx, deployments, d, { ...d.status, collisionCount: collisions + 1 });
      wake(ctx, c, keyOf(d), 0);
      return undefined;
    }
    ctx.events.record(
      d,
      'Normal',
      'ScalingReplicaSet',
      `Scaled up replica set ${made.metadata.name ?? ''} from 0 to ${size}`,
      COMPONENT,
    );
    return made;
  }

  /** One step of the rollout; returns the ReplicaSets as they now are. */
  function rollout(d: Deployment, newRs: ReplicaSet, all: readonly ReplicaSet[]): ReplicaSet[] {
    const old = all.filter((rs) => rs.metadata.uid !== newRs.metadata.uid);
    if (d.spec.strategy.type === 'Recreate') {
      const scaledOld = old.map((rs) => scale(d, rs, 0, false));
      const oldPodsLeft = old.some((rs) =>
        ownedPods(ctx, rs).some((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed'),
      );
      const nextNew = oldPodsLeft
        ? newRs
        : scale(d, newRs, d.spec.replicas, newRs.metadata.annotations?.[DESIRED] !== String(d.spec.replicas));
      return [...scaledOld, nextNew];
    }
    const size = newReplicaSetSize(d, newRs, all);
    const nextNew = scale(d, newRs, size, newRs.metadata.annotations?.[DESIRED] !== String(d.spec.replicas));
    const sizes = oldReplicaSetSizes(d, nextNew, old);
    return [...old.map((rs) => scale(d, rs, sizes.get(rs) ?? rs.spec.replicas, false)), nextNew];
  }

  /** Deletes old, empty ReplicaSets beyond the history limit, oldest revision first. */
  function cleanupHistory(d: Deployment, all: readonly ReplicaSet[], newRs: ReplicaSet | undefined): void {
    const idle = all
      .filter(
        (rs) =>
          rs !== newRs && rs.spec.replicas === 0 && (rs.status?.replicas ?? 0) === 0 && !rs.metadata.deletionTimestamp,
      )
      .sort((a, b) => revisionOf(a) - revisionOf(b));
    const excess = idle.length - d.spec.revisionHistoryLimit;
    for (const rs of idle.slice(0, Math.max(0, excess))) remove(ctx, replicasets, rs);
  }

  return c;
}
