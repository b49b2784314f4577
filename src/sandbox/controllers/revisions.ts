/**
 * ControllerRevisions: the template history StatefulSets and DaemonSets keep, one revision per
 * distinct pod template (named `<owner>-<hash>`, numbered in order of use), so `kubectl rollout
 * history` and undo have something to read.
 */
import { clone } from '../json.js';
import type { KubeObject } from '../api/object.js';
import type { PodTemplate } from './kinds.js';
import { controlledBy, create, ownerRef, remove, typeOf, update, type ControllerContext } from './runtime.js';
import { templateHash } from './workload-util.js';

export const REVISION_HASH = 'controller-revision-hash';

export interface Revision {
  /** `<owner>-<hash>`: what pods carry in their controller-revision-hash label. */
  name: string;
  revision: number;
}

export function ownedRevisions(ctx: ControllerContext, owner: KubeObject): KubeObject[] {
  return controlledBy(ctx, owner, 'apps/controllerrevisions');
}

const revisionNumber = (r: KubeObject) => (typeof r.revision === 'number' ? r.revision : 0);

/** The revision of the owner's current template, made (or renumbered as the newest) if needed. */
export function currentRevision(
  ctx: ControllerContext,
  owner: KubeObject,
  template: PodTemplate,
  selectorLabels: Record<string, string>,
): Revision | undefined {
  const revisions = typeOf(ctx, 'apps', 'controllerrevisions');
  const hash = templateHash(template);
  const name = `${owner.metadata.name ?? ''}-${hash}`;
  const all = ownedRevisions(ctx, owner);
  const newest = Math.max(0, ...all.map(revisionNumber));
  const mine = all.find((r) => r.metadata.name === name);
  if (mine) {
    if (revisionNumber(mine) === newest) return { name, revision: newest };
    const next = clone(mine);
    next.revision = newest + 1;
    update(ctx, revisions, mine, next);
    return { name, revision: newest + 1 };
  }
  const made = create(ctx, revisions, {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      namespace: owner.metadata.namespace ?? '',
      labels: { ...selectorLabels, [REVISION_HASH]: hash },
      ownerReferences: [ownerRef(owner)],
    },
    data: { spec: { template: { ...clone(template), $patch: 'replace' } } },
    revision: newest + 1,
  });
  return made ? { name, revision: newest + 1 } : undefined;
}

/** Drops revisions beyond the history limit, oldest first, never one still in use. */
export function pruneRevisions(
  ctx: ControllerContext,
  owner: KubeObject,
  limit: number,
  inUse: ReadonlySet<string>,
): void {
  const revisions = typeOf(ctx, 'apps', 'controllerrevisions');
  const idle = ownedRevisions(ctx, owner)
    .filter((r) => !inUse.has(r.metadata.name ?? ''))
    .sort((a, b) => revisionNumber(a) - revisionNumber(b));
  for (const r of idle.slice(0, Math.max(0, idle.length - limit))) remove(ctx, revisions, r);
}
