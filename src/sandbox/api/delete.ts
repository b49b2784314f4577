/**
 * DELETE: preconditions, graceful pod termination, namespaces that terminate, finalizers that
 * hold an object back, and the three propagation policies. Background and Foreground deletion
 * of dependents is the garbage collector's work (`../controllers/garbage-collector.ts`); orphaning
 * happens here, at once.
 */
import { assignOrRemove, clone, isMap, withFields } from '../json.js';
import { rfc3339 } from '../time.js';
import type { ApiContext, WriteOptions } from './context.js';
import { badRequest, conflict, forbidden, notFound, successStatus, type Status } from './errors.js';
import { serviceAddresses } from './kind-hooks.js';
import type { KubeObject } from './object.js';
import { resourceKey, type ResourceType } from './resources.js';
import { commitUpdate, subjectOf } from './write.js';
import { served } from './read.js';

export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

export interface DeleteOptions extends WriteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy;
  preconditions?: { uid?: string; resourceVersion?: string };
}

/** The query parameters and DeleteOptions body of a DELETE, merged (the body wins). */
export function deleteOptionsFrom(query: URLSearchParams, body: unknown, base: WriteOptions): DeleteOptions {
  const opts: DeleteOptions = { ...base };
  const b = isMap(body) ? body : {};
  const grace = b.gracePeriodSeconds ?? query.get('gracePeriodSeconds') ?? undefined;
  if (grace !== undefined && grace !== null) {
    const n = Number(grace);
    if (!Number.isInteger(n)) throw badRequest(`gracePeriodSeconds: Invalid value: "${String(grace)}"`);
    opts.gracePeriodSeconds = Math.max(0, n);
  }
  const orphan = b.orphanDependents ?? query.get('orphanDependents') ?? undefined;
  const policy =
    b.propagationPolicy ??
    query.get('propagationPolicy') ??
    (orphan === true || orphan === 'true' ? 'Orphan' : undefined);
  if (policy !== undefined && policy !== null) {
    if (policy !== 'Foreground' && policy !== 'Background' && policy !== 'Orphan') {
      throw badRequest(
        `propagationPolicy: Unsupported value: "${String(policy)}": supported values: "Foreground", "Background", "Orphan"`,
      );
    }
    opts.propagationPolicy = policy;
  }
  if (isMap(b.preconditions)) {
    const p = b.preconditions;
    opts.preconditions = {};
    if (typeof p.uid === 'string') opts.preconditions.uid = p.uid;
    if (typeof p.resourceVersion === 'string') opts.preconditions.resourceVersion = p.resourceVersion;
  }
  const dry = b.dryRun;
  if (Array.isArray(dry) && dry.includes('All')) opts.dryRun = true;
  return opts;
}

const UNDELETABLE_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

function isTerminal(o: KubeObject): boolean {
  const phase = isMap(o.status) ? o.status.phase : undefined;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** Removes this owner from its dependents' ownerReferences (the Orphan policy). */
function orphanDependents(ctx: ApiContext, owner: KubeObject, opts: WriteOptions): void {
  for (const d of ctx.store.dependents(owner.metadata.uid ?? '')) {
    const r = ctx.resources.all().find((t) => resourceKey(t) === d.resource);
    if (!r) continue;
    const next = clone(d.object);
    next.metadata.ownerReferences = (next.metadata.ownerReferences ?? []).filter((o) => o.uid !== owner.metadata.uid);
    if (next.metadata.ownerReferences.length === 0) delete next.metadata.ownerReferences;
    commitUpdate(ctx, r, d.object, next, { manager: 'kube-controller-manager', dryRun: opts.dryRun });
  }
}

/** What a finished delete answers: the object for some kinds, a Success Status for the rest. */
function deletedAnswer(r: ResourceType, o: KubeObject): KubeObject | Status {
  if (r.returnsDeletedObject) return served(r, o);
  return successStatus({ name: o.metadata.name ?? '', group: r.group, kind: r.plural, uid: o.metadata.uid ?? '' });
}

/** Marks an object as being deleted, adding finalizers; it stays until they are gone. */
function markDeleting(
  ctx: ApiContext,
  r: ResourceType,
  o: KubeObject,
  finalizers: string[],
  grace: number,
  opts: WriteOptions,
): KubeObject {
  const have = o.metadata.finalizers ?? [];
  const all = [...have, ...finalizers.filter((f) => !have.includes(f))];
  // the write shares what it leaves alone with the stored object, which nobody changes; an
  // empty list is not set only to be deleted again (V8 makes such a map a slow dictionary)
  const metadata = withFields(o.metadata, {});
  assignOrRemove(metadata, 'finalizers', all.length > 0 ? all : undefined);
  const next = withFields(o, { metadata });
  const deletion = { timestamp: rfc3339(ctx.clock.now() + grace * 1000), graceSeconds: grace };
  return commitUpdate(ctx, r, o, next, { manager: opts.manager, dryRun: opts.dryRun, deletion });
}

export function deleteObject(
  ctx: ApiContext,
  r: ResourceType,
  namespace: string,
  name: string,
  opts: DeleteOptions,
): KubeObject | Status {
  const key = resourceKey(r);
  const ns = r.namespaced ? namespace : '';
  const o = ctx.store.get(key, ns, name);
  if (!o) throw notFound(subjectOf(r, name));
  const pre = opts.preconditions;
  if (pre?.uid !== undefined && pre.uid !== o.metadata.uid) {
    throw conflict(
      subjectOf(r, name),
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${o.metadata.uid ?? ''}`,
    );
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== o.metadata.resourceVersion) {
    throw conflict(
      subjectOf(r, name),
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${o.metadata.resourceVersion ?? ''}`,
    );
  }
  if (r.kind === 'Namespace' && UNDELETABLE_NAMESPACES.has(name))
    throw forbidden(subjectOf(r, name), 'this namespace may not be deleted');

  const policy = opts.propagationPolicy ?? (r.group === 'batch' && r.kind === 'Job' ? 'Orphan' : 'Background');
  if (o.metadata.deletionTimestamp !== undefined) {
    // a second delete may only shorten a pod's grace period
    if (r.kind === 'Pod' && opts.gracePeriodSeconds === 0 && !opts.dryRun) return finishDelete(ctx, r, o);
    return served(r, o);
  }
  if (policy === 'Orphan') orphanDependents(ctx, o, opts);

  if (r.kind === 'Pod') {
    const spec = isMap(o.spec) ? o.spec : {};
    const grace =
      opts.gracePeriodSeconds ??
      (typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 30);
    const scheduled = typeof spec.nodeName === 'string' && spec.nodeName !== '';
    if (grace > 0 && scheduled && !isTerminal(o)) {
      return served(r, markDeleting(ctx, r, o, policy === 'Foreground' ? ['foregroundDeletion'] : [], grace, opts));
    }
  }
  if (r.kind === 'Namespace') return served(r, markDeleting(ctx, r, o, [], 0, opts));
  if (policy === 'Foreground' && ctx.store.dependents(o.metadata.uid ?? '').length > 0) {
    return served(r, markDeleting(ctx, r, o, ['foregroundDeletion'], 0, opts));
  }
  if ((o.metadata.finalizers ?? []).length > 0) return served(r, markDeleting(ctx, r, o, [], 0, opts));
  if (opts.dryRun) return deletedAnswer(r, o);
  return finishDelete(ctx, r, o);
}

/** Takes an object out of the store for good. */
export function finishDelete(ctx: ApiContext, r: ResourceType, o: KubeObject): KubeObject | Status {
  const gone = ctx.store.remove(resourceKey(r), o.metadata.namespace ?? '', o.metadata.name ?? '') ?? o;
  if (r.kind === 'Service') {
    const { ip, ports } = serviceAddresses(gone);
    ctx.addresses.release(ip, ports);
  }
  return deletedAnswer(r, gone);
}
