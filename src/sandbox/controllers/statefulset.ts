/**
 * The StatefulSet controller: pods `<name>-<ordinal>` with stable names, made in order (with
 * OrderedReady, each waits for the one before to be Running and Ready), removed from the highest
 * ordinal down, and rolled to a new template from the highest ordinal down to the partition,
 * one pod at a time, each recreated at the new revision.
 */
import { getPath, isMap, omitZeros } from '../json.js';
import { isPodActive, isPodReady, type Pod, type PodTemplate, type StatefulSet } from './kinds.js';
import type { Controller } from './manager.js';
import { currentRevision, ownedRevisions, pruneRevisions, REVISION_HASH } from './revisions.js';
import {
  allKeys,
  byObject,
  byOwner,
  createFor,
  keyOf,
  get,
  ownedPods,
  ownerRef,
  remove,
  typeOf,
  writeStatus,
  type ControllerContext,
} from './runtime.js';
import { isPodAvailable } from './workload-util.js';

function ordinalOf(sts: StatefulSet, p: Pod): number {
  const name = p.metadata.name ?? '';
  const prefix = `${sts.metadata.name ?? ''}-`;
  const n = name.startsWith(prefix) ? Number(name.slice(prefix.length)) : NaN;
  return Number.isInteger(n) ? n : -1;
}

export function statefulSetController(ctx: ControllerContext): Controller {
  const statefulsets = typeOf(ctx, 'apps', 'statefulsets');
  const pods = typeOf(ctx, '', 'pods');
  const claims = typeOf(ctx, '', 'persistentvolumeclaims');

  /** The template a revision recorded (for pods below the partition, still at the old one). */
  const templateOf = (sts: StatefulSet, revision: string): PodTemplate => {
    const cr = ownedRevisions(ctx, sts).find((r) => r.metadata.name === revision);
    const t = getPath(cr, ['data', 'spec', 'template']);
    if (!isMap(t)) return sts.spec.template;
    const { $patch: _p, ...template } = t;
    return template as unknown as PodTemplate;
  };

  /**
   * The claims of a pod's volumeClaimTemplates (`<template>-<sts>-<ordinal>`), made before the
   * pod if missing and kept after it, and the pod's volumes pointing at them.
   */
  const claimVolumes = (sts: StatefulSet, ordinal: number, pod: Pod): void => {
    const templates = getPath(sts, ['spec', 'volumeClaimTemplates']);
    if (!Array.isArray(templates)) return;
    const ns = sts.metadata.namespace ?? '';
    const stsName = sts.metadata.name ?? '';
    const deleteWithSet = getPath(sts, ['spec', 'persistentVolumeClaimRetentionPolicy', 'whenDeleted']) === 'Delete';
    const volumes = ((pod.spec as { volumes?: unknown[] }).volumes ?? []).filter(isMap);
    for (const t of templates.filter(isMap)) {
      const meta = isMap(t.metadata) ? t.metadata : {};
      const tplName = String(meta.name ?? '');
      const claimName = `${tplName}-${stsName}-${ordinal}`;
      if (!ctx.api.store.get('/persistentvolumeclaims', ns, claimName)) {
        const claim = {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: {
            name: claimName,
            namespace: ns,
            labels: {
              ...(isMap(meta.labels) ? (meta.labels as Record<string, string>) : {}),
              ...sts.spec.selector.matchLabels,
            },
            ...(deleteWithSet ? { ownerReferences: [ownerRef(sts)] } : {}),
          },
          spec: structuredClone(isMap(t.spec) ? t.spec : {}),
        };
        if (
          createFor(ctx, claims, claim, {
            object: sts,
            controller: c,
            key: keyOf(sts),
            source: 'statefulset-controller',
          })
        )
          ctx.events.record(
            sts,
            'Normal',
            'SuccessfulCreate',
            `create Claim ${claimName} Pod ${pod.metadata.name ?? ''} in StatefulSet ${stsName} success`,
            'statefulset-controller',
          );
      }
      const volume = { name: tplName, persistentVolumeClaim: { claimName } };
      const at = volumes.findIndex((v) => v.name === tplName);
      if (at >= 0) volumes[at] = volume;
      else volumes.push(volume);
    }
    (pod.spec as { volumes?: unknown[] }).volumes = volumes;
  };

  const makePod = (sts: StatefulSet, ordinal: number, revision: string, template: PodTemplate) => {
    const name = `${sts.metadata.name ?? ''}-${ordinal}`;
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: sts.metadata.namespace ?? '',
        labels: {
          ...template.metadata?.labels,
          [REVISION_HASH]: revision,
          'statefulset.kubernetes.io/pod-name': name,
          'apps.kubernetes.io/pod-index': String(ordinal),
        },
        ownerReferences: [ownerRef(sts)],
      },
      spec: {
        ...structuredClone(template.spec),
        hostname: name,
        ...(sts.spec.serviceName ? { subdomain: sts.spec.serviceName } : {}),
      },
    };
    if (template.metadata?.annotations) pod.metadata.annotations = { ...template.metadata.annotations };
    claimVolumes(sts, ordinal, pod);
    const owner = { object: sts, controller: c, key: keyOf(sts), source: 'statefulset-controller' };
    if (createFor(ctx, pods, pod, owner))
      ctx.events.record(
        sts,
        'Normal',
        'SuccessfulCreate',
        `create Pod ${name} in StatefulSet ${sts.metadata.name ?? ''} successful`,
        'statefulset-controller',
      );
  };

  const c: Controller = {
    name: 'statefulset',
    follows: { 'apps/statefulsets': byObject(), '/pods': byOwner('StatefulSet') },
    initialKeys: () => allKeys(ctx, statefulsets),
    reconcile(key) {
      const sts = get<StatefulSet>(ctx, statefulsets, key);
      if (!sts || sts.metadata.deletionTimestamp) return;
      const now = ctx.api.clock.now();
      const update = currentRevision(ctx, sts, sts.spec.template, sts.spec.selector.matchLabels ?? {});
      if (!update) return;
      const oldCurrent = typeof sts.status?.currentRevision === 'string' ? sts.status.currentRevision : update.name;
      const owned = ownedPods(ctx, sts);
      const byOrdinal = new Map(owned.map((p) => [ordinalOf(sts, p), p]));
      const replicas = sts.spec.replicas;
      const ordered = sts.spec.podManagementPolicy !== 'Parallel';
      const rolling = sts.spec.updateStrategy.type === 'RollingUpdate';
      const partition = rolling ? (sts.spec.updateStrategy.rollingUpdate?.partition ?? 0) : 0;
      const healthy = (p: Pod | undefined) =>
        p !== undefined && !p.metadata.deletionTimestamp && p.status?.phase === 'Running' && isPodReady(p);

      let blocked = false;
      for (let i = 0; i < replicas; i++) {
        const p = byOrdinal.get(i);
        if (!p) {
          const revision = rolling && i < partition ? oldCurrent : update.name;
          makePod(sts, i, revision, revision === update.name ? sts.spec.template : templateOf(sts, revision));
          if (ordered) {
            blocked = true;
            break;
          }
          continue;
        }
        // a failed pod is replaced; with OrderedReady, nothing further moves until this one is healthy
        if (p.status?.phase === 'Failed' && !p.metadata.deletionTimestamp) remove(ctx, pods, p);
        if (ordered && !healthy(p)) {
          blocked = true;
          break;
        }
      }
      const condemned = owned
        .filter((p) => ordinalOf(sts, p) >= replicas || ordinalOf(sts, p) < 0)
        .sort((a, b) => ordinalOf(sts, b) - ordinalOf(sts, a));
      if (!blocked) {
        for (const p of condemned) {
          if (!p.metadata.deletionTimestamp) remove(ctx, pods, p);
          if (ordered) {
            blocked = true;
            break;
          }
        }
      }
      if (!blocked && rolling && condemned.length === 0) {
        for (let i = replicas - 1; i >= partition; i--) {
          const p = byOrdinal.get(i);
          if (!p || p.metadata.labels?.[REVISION_HASH] === update.name) continue;
          if (!p.metadata.deletionTimestamp) remove(ctx, pods, p);
          break;
        }
      }

      const active = ownedPods(ctx, sts).filter(isPodActive);
      const at = (rev: string) => active.filter((p) => p.metadata.labels?.[REVISION_HASH] === rev).length;
      const ready = active.filter(isPodReady).length;
      const updated = at(update.name);
      const done = updated === replicas && ready >= replicas;
      const current = done ? update.name : oldCurrent;
      const status = {
        observedGeneration: sts.metadata.generation ?? 1,
        replicas: active.length,
        readyReplicas: ready,
        availableReplicas: active.filter((p) => isPodAvailable(p, sts.spec.minReadySeconds ?? 0, now)).length,
        currentReplicas: at(current),
        updatedReplicas: updated,
        currentRevision: current,
        updateRevision: update.name,
        collisionCount: 0,
      };
      writeStatus(ctx, statefulsets, sts, omitZeros(status, ['readyReplicas', 'currentReplicas', 'updatedReplicas']));
      pruneRevisions(ctx, sts, sts.spec.revisionHistoryLimit, new Set([current, update.name]));
    },
  };
  return c;
}
