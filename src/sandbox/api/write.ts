/**
 * The write path every create and update goes through, whoever asks (an HTTP client, a
 * controller, a patch, an apply): server-owned metadata, defaults, validation, generation,
 * managed fields, no-op detection, dry run, and finalization of objects being deleted.
 */
import { randomUUID } from 'node:crypto';
import { assignOrRemove, clone, deepEqual, isMap } from '../json.js';
import { rfc3339 } from '../time.js';
import { recordUpdate, type UpdateRecord } from '../patch/managed-fields.js';
import type { Scope } from '../patch/fieldset.js';
import type { ApiContext, WriteOptions } from './context.js';
import { checkQuota, mutateOnCreate } from './admission.js';
import { applyDefaults } from './defaults.js';
import { alreadyExists, ApiError, badRequest, conflict, forbidden, invalid, notFound, type Subject } from './errors.js';
import { checkAgainstSchema } from './crd-schema.js';
import { unknownBuiltinFields } from './strict-fields.js';
import { prepareCreate, prepareUpdate, serviceAddresses } from './kind-hooks.js';
import type { KubeObject, ManagedFieldsEntry } from './object.js';
import { apiVersionOf, hasStatus, resourceKey, type ResourceType } from './resources.js';
import { validate } from './validation.js';

export function subjectOf(r: ResourceType, name: string): Subject {
  return { resource: r.plural, group: r.group, name };
}

export interface CreateOptions extends WriteOptions {
  /** Ownership computed by server-side apply, instead of the creator owning every field. */
  managedFields?: ManagedFieldsEntry[];
}

export interface UpdateOptions extends CreateOptions {
  scope?: Scope;
  /** The subresource written through (`status`, `scale`), recorded in managedFields. */
  subresource?: string;
  /**
   * The scheduler binding a pod to a node: the one spec change a pod allows, written with the
   * status the binding gives it (PodScheduled), in one write, as the API server's binding does.
   */
  binding?: boolean;
  /** A DELETE that must wait (grace period, finalizers): the server's deletion stamp. */
  deletion?: { timestamp: string; graceSeconds: number };
}

/**
 * The ownership a write starts from. A client may set managedFields itself (kubectl does, to move
 * client-side-apply ownership over to server-side apply); left out, or empty, they stay as
 * stored; `[{}]` clears them.
 */
function givenManagedFields(
  given: unknown,
  stored: ManagedFieldsEntry[] | undefined,
): ManagedFieldsEntry[] | undefined {
  if (!Array.isArray(given) || given.length === 0) return stored;
  // a writer that copied the object sends them back as they were: the stored ones are the same
  if (stored && deepEqual(given, stored)) return stored;
  if (given.length === 1 && isMap(given[0]) && Object.keys(given[0]).length === 0) return [];
  const ok = given.every(
    (e) =>
      isMap(e) &&
      typeof e.manager === 'string' &&
      (e.operation === 'Apply' || e.operation === 'Update') &&
      isMap(e.fieldsV1),
  );
  return ok ? (given as ManagedFieldsEntry[]) : stored;
}

/** Fields outside metadata and status: a change to them is a new generation. */
function specChanged(a: KubeObject, b: KubeObject): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (k === 'metadata' || k === 'status' || k === 'apiVersion' || k === 'kind') continue;
    if (!deepEqual(a[k], b[k])) return true;
  }
  return false;
}

/** 404 when the namespace of a new object is missing, 403 when it is being deleted. */
function checkNamespace(ctx: ApiContext, r: ResourceType, o: KubeObject): void {
  if (!r.namespaced) return;
  const ns = o.metadata.namespace ?? '';
  const nsObj = ctx.store.get('/namespaces', '', ns);
  if (!nsObj) throw notFound({ resource: 'namespaces', group: '', name: ns });
  if (nsObj.metadata.deletionTimestamp !== undefined) {
    throw forbidden(
      subjectOf(r, o.metadata.name ?? ''),
      `unable to create new content in namespace ${ns} because it is being terminated`,
      [{ reason: 'NamespaceTerminating', message: `namespace ${ns} is being terminated`, field: 'metadata.namespace' }],
    );
  }
}

function generateName(ctx: ApiContext, r: ResourceType, o: KubeObject): void {
  if (o.metadata.name || !o.metadata.generateName) return;
  const prefix = o.metadata.generateName.slice(0, 58);
  for (let i = 0; i < 8; i++) {
    const name = prefix + ctx.random.suffix();
    if (!ctx.store.get(resourceKey(r), o.metadata.namespace ?? '', name)) {
      o.metadata.name = name;
      return;
    }
  }
  o.metadata.name = prefix + ctx.random.suffix();
}

/**
 * A custom resource against its CRD's schema: unknown fields pruned, or refused under
 * `fieldValidation=Strict` with the decoder's words; then 422 for what the schema forbids.
 */
function checkCustom(r: ResourceType, o: KubeObject, opts: WriteOptions): void {
  if (opts.fieldValidation === 'Strict' && r.crd === undefined) {
    const unknown = unknownBuiltinFields(r, o);
    if (unknown.length > 0)
      throw badRequest(
        `${r.kind} in version "${r.version}" cannot be handled as a ${r.kind}: strict decoding error: ${unknown.map((u) => `unknown field "${u}"`).join(', ')}`,
      );
  }
  if (!r.schema) return;
  const result = checkAgainstSchema(r.schema, o);
  if (result.unknown.length > 0 && opts.fieldValidation === 'Strict')
    throw badRequest(
      `${r.kind} in version "${r.version}" cannot be handled as a ${r.kind}: strict decoding error: ${result.unknown.map((u) => `unknown field "${u}"`).join(', ')}`,
    );
  if (result.errors.length > 0)
    throw invalid(r.kind, r.group, o.metadata.name || o.metadata.generateName || '', result.errors);
}

/**
 * etcd's own limit on one request (--max-request-bytes, 1.5 MiB by default): a valid object sent
 * in a bigger body (the API server itself takes up to 3 MiB) fails in storage, in etcd's words.
 */
const ETCD_REQUEST_LIMIT = 1.5 * 1024 * 1024;

function throwIfInvalid(r: ResourceType, o: KubeObject, old?: KubeObject, binding = false, requestBytes = 0): void {
  const errs = validate(o, r, old, binding);
  if (errs.length > 0) throw invalid(r.kind, r.group, o.metadata.name || o.metadata.generateName || '', errs);
  if (requestBytes > ETCD_REQUEST_LIMIT)
    throw new ApiError(500, 'InternalError', 'etcdserver: request is too large', {});
}

/** Stores a new object (or, with dryRun, shows what would be stored). `o` is a fresh copy. */
export function commitCreate(ctx: ApiContext, r: ResourceType, o: KubeObject, opts: CreateOptions): KubeObject {
  generateName(ctx, r, o);
  const now = ctx.clock.now();
  const meta = o.metadata;
  if (!r.namespaced) delete meta.namespace;
  for (const k of [
    'uid',
    'resourceVersion',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'selfLink',
    'managedFields',
  ] as const)
    delete meta[k];
  meta.uid = randomUUID();
  meta.creationTimestamp = rfc3339(now);
  assignOrRemove(meta, 'generation', r.generation ? 1 : undefined);
  o.apiVersion = apiVersionOf(r);
  o.kind = r.kind;
  if (hasStatus(r)) delete o.status;
  checkNamespace(ctx, r, o);
  applyDefaults(o);
  mutateOnCreate(ctx, r, o);
  checkCustom(r, o, opts);
  throwIfInvalid(r, o, undefined, false, opts.requestBytes);
  if (ctx.store.get(resourceKey(r), meta.namespace ?? '', meta.name ?? ''))
    throw alreadyExists(subjectOf(r, meta.name ?? ''));
  checkQuota(ctx, r, o);
  prepareCreate(o, ctx.addresses, rfc3339(now));
  const fields =
    opts.managedFields ??
    recordUpdate(undefined, undefined, o, r.kind, {
      manager: opts.manager,
      apiVersion: o.apiVersion,
      time: rfc3339(now),
      scope: 'main',
    });
  if (fields.length > 0) meta.managedFields = fields;
  if (opts.dryRun) {
    const { ip, ports } = serviceAddresses(o);
    if (o.kind === 'Service') ctx.addresses.release(ip, ports);
    return o;
  }
  return ctx.store.create(resourceKey(r), o);
}

/**
 * Stores a new state of an existing object. `next` is built for this write and becomes the
 * store's: the caller must not touch it afterwards (it may share parts with stored objects,
 * which nobody changes). What it may change depends on the scope (`main`: all but status;
 * `status`: status only).
 */
export function commitUpdate(
  ctx: ApiContext,
  r: ResourceType,
  old: KubeObject,
  next: KubeObject,
  opts: UpdateOptions,
): KubeObject {
  const scope = opts.scope ?? 'main';
  const deletion = opts.deletion;
  const subject = subjectOf(r, old.metadata.name ?? '');
  const wantRv = next.metadata.resourceVersion;
  if (wantRv !== undefined && wantRv !== '' && wantRv !== old.metadata.resourceVersion) throw conflict(subject);
  let o: KubeObject;
  if (scope === 'status') {
    // the new state shares spec and the rest with the old one: a status write copies only what it changes
    o = { ...old, metadata: { ...old.metadata } };
    assignOrRemove(o, 'status', next.status);
  } else {
    o = next;
    // copied for the checks below, which may default it; a deletion runs none of them
    if (hasStatus(r) && !opts.binding) assignOrRemove(o, 'status', deletion ? old.status : clone(old.status));
  }
  const meta = o.metadata;
  const oldMeta = old.metadata;
  meta.name = oldMeta.name;
  assignOrRemove(meta, 'namespace', r.namespaced ? oldMeta.namespace : undefined);
  meta.uid = oldMeta.uid;
  meta.creationTimestamp = oldMeta.creationTimestamp;
  assignOrRemove(meta, 'deletionTimestamp', deletion ? deletion.timestamp : oldMeta.deletionTimestamp);
  assignOrRemove(
    meta,
    'deletionGracePeriodSeconds',
    deletion ? deletion.graceSeconds : oldMeta.deletionGracePeriodSeconds,
  );
  assignOrRemove(meta, 'generateName', oldMeta.generateName);
  if (deletion && r.kind === 'Namespace') o.status = { ...(isMap(old.status) ? old.status : {}), phase: 'Terminating' };
  const baseFields = givenManagedFields(meta.managedFields, oldMeta.managedFields);
  assignOrRemove(meta, 'managedFields', oldMeta.managedFields);
  o.apiVersion = apiVersionOf(r);
  o.kind = r.kind;
  if (oldMeta.deletionTimestamp !== undefined) {
    const added = (meta.finalizers ?? []).filter((f) => !(oldMeta.finalizers ?? []).includes(f));
    if (added.length > 0) {
      throw invalid(r.kind, r.group, subject.name, [
        {
          type: 'FieldValueForbidden',
          field: 'metadata.finalizers',
          detail: `no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`,
        },
      ]);
    }
  }
  // a deletion only marks the stored object (its deletion fields, finalizers): the API server's
  // delete neither defaults nor validates it again, nor records it in the managed fields
  if (scope === 'main' && !deletion) {
    prepareUpdate(o, old, ctx.addresses);
    applyDefaults(o);
    checkCustom(r, o, opts);
    throwIfInvalid(r, o, old, opts.binding, opts.requestBytes);
  }
  if (r.generation) meta.generation = (oldMeta.generation ?? 1) + (specChanged(o, old) ? 1 : 0);
  meta.resourceVersion = oldMeta.resourceVersion;
  // a write that changes nothing changes no ownership either: it is known before the managed
  // fields are worked out, whoever sends it (a controller with nothing new, a client's replace)
  if (!opts.managedFields && baseFields === oldMeta.managedFields && deepEqual(o, old)) return old;
  const now = rfc3339(ctx.clock.now());
  // built whole rather than spread: this runs on every write
  const record = (writeScope: Scope, subresource: string | undefined): UpdateRecord => ({
    manager: opts.manager,
    apiVersion: o.apiVersion,
    time: now,
    scope: writeScope,
    subresource,
  });
  let fields =
    opts.managedFields ??
    (deletion ? (baseFields ?? []) : recordUpdate(baseFields, old, o, r.kind, record(scope, opts.subresource)));
  // the status a binding writes is owned as if written through the status subresource
  if (opts.binding && !opts.managedFields) fields = recordUpdate(fields, old, o, r.kind, record('status', 'status'));
  assignOrRemove(meta, 'managedFields', fields.length > 0 ? fields : undefined);
  if (deepEqual(o, old)) return old;
  if (opts.dryRun) return o;
  const key = resourceKey(r);
  if (meta.deletionTimestamp !== undefined && (meta.finalizers ?? []).length === 0 && finishesOnLastFinalizer(o)) {
    return ctx.store.remove(key, meta.namespace ?? '', meta.name ?? '') ?? o;
  }
  return ctx.store.update(key, o);
}

/**
 * An object being deleted goes once its last finalizer is removed. A pod still shutting down
 * (its grace period running) waits for its kubelet instead, and a namespace for the namespace
 * controller to clear `spec.finalizers`.
 */
function finishesOnLastFinalizer(o: KubeObject): boolean {
  if (o.kind === 'Namespace')
    return !(isMap(o.spec) && Array.isArray(o.spec.finalizers) && o.spec.finalizers.length > 0);
  if (o.kind !== 'Pod') return true;
  const phase = isMap(o.status) ? o.status.phase : undefined;
  return (o.metadata.deletionGracePeriodSeconds ?? 0) === 0 || phase === 'Succeeded' || phase === 'Failed';
}
