/**
 * PATCH: the four patch types by Content-Type, applied to the stored object (or, for the status
 * subresource, to its status), then written through the common update path. Server-side apply
 * may also create the object.
 */
import YAML from 'yaml';
import { clone, dropNulls, isMap, type JsonMap } from '../json.js';
import { rfc3339 } from '../time.js';
import { serverSideApply } from '../patch/apply.js';
import { applyJsonPatch, parseJsonPatch } from '../patch/json-patch.js';
import { mergePatch } from '../patch/merge-patch.js';
import { rootCursor } from '../patch/schema.js';
import { strategicMerge } from '../patch/strategic-merge.js';
import type { ApiContext, WriteOptions } from './context.js';
import { badRequest, invalid, notFound, unsupportedMediaType } from './errors.js';
import type { KubeObject } from './object.js';
import { apiVersionOf, resourceKey, type ResourceType } from './resources.js';
import { checkShape } from './shapes.js';
import { commitCreate, commitUpdate, subjectOf } from './write.js';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

const CONTENT_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
  'application/apply-patch+cbor': 'apply',
};

export function patchTypeOf(contentType: string | undefined, custom: boolean): PatchType {
  const base = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const t = CONTENT_TYPES[base];
  // custom resources have no patch metadata, so the server refuses strategic merge for them
  if (t === undefined || (custom && t === 'strategic')) {
    const accepted = Object.keys(CONTENT_TYPES).filter(
      (k) => !k.endsWith('cbor') && !(custom && k.includes('strategic')),
    );
    throw unsupportedMediaType(accepted);
  }
  return t;
}

/** Every string literal of a JSON text in turn, and whether a colon makes it a key. */
const JSON_STRING = /"(?:[^"\\]|\\.)*"(\s*:)?/g;

/** The keys of every map in a parsed JSON value. */
function keyCount(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + keyCount(x), 0);
  if (!isMap(v)) return 0;
  let n = 0;
  for (const k of Object.keys(v)) n += 1 + keyCount(v[k]);
  return n;
}

/**
 * An apply document: YAML, but clients (kubectl, kdeck) send JSON, which YAML 1.2 contains and
 * JSON.parse reads many times faster than a YAML parser; the parse was the larger part of an
 * apply's cost. A key written twice is what JSON.parse forgives (the last wins) and YAML refuses,
 * so a text whose keys did not all survive the parse is read again as YAML, for YAML's error.
 */
function decodeApply(text: string): unknown {
  if (/^\s*\{/.test(text)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (value !== undefined) {
      let written = 0;
      for (const m of text.matchAll(JSON_STRING)) if (m[1] !== undefined) written++;
      if (written === keyCount(value)) return value;
    }
  }
  return YAML.parse(text, { schema: 'core' }) as unknown;
}

/** The patch document: JSON for three types, YAML (of which JSON is a part) for apply. */
export function decodePatch(type: PatchType, text: string): unknown {
  try {
    return type === 'apply' ? decodeApply(text) : (JSON.parse(text) as unknown);
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw badRequest(type === 'apply' ? `error decoding YAML: ${why}` : `error decoding patch: ${why}`);
  }
}

export interface PatchOptions extends WriteOptions {
  /** The `fieldManager` query parameter as given (apply requires it). */
  fieldManager?: string;
  force?: boolean;
  subresource?: 'status';
}

function requireMap(body: unknown, what: string): JsonMap {
  if (!isMap(body)) throw badRequest(`${what} must be a JSON object`);
  return body;
}

function applyPatch(type: Exclude<PatchType, 'apply'>, target: KubeObject, body: unknown, kind: string): unknown {
  switch (type) {
    case 'json':
      return applyJsonPatch(target, parseJsonPatch(body));
    case 'merge':
      return mergePatch(target, requireMap(body, 'a merge patch'));
    case 'strategic':
      return strategicMerge(target, requireMap(body, 'a strategic merge patch'), rootCursor(kind));
  }
}

/** A patched object must still be an object of the same identity, with fields of the right types. */
function asPatched(r: ResourceType, old: KubeObject, v: unknown): KubeObject {
  if (!isMap(v) || !isMap(v.metadata)) throw badRequest("the patch removed the object's metadata");
  checkShape(r, v);
  const o = dropNulls(v) as KubeObject;
  if (o.metadata.name !== old.metadata.name) {
    throw badRequest(
      `the name of the object (${String(o.metadata.name)}) does not match the name on the URL (${old.metadata.name ?? ''})`,
    );
  }
  if (o.apiVersion !== old.apiVersion || o.kind !== old.kind) {
    throw badRequest(
      `the API version or kind of the object (${String(o.apiVersion)}, ${String(o.kind)}) may not change from ${apiVersionOf(r)}, ${r.kind}`,
    );
  }
  return o;
}

export interface PatchResult {
  object: KubeObject;
  created: boolean;
}

export function patchObject(
  ctx: ApiContext,
  r: ResourceType,
  namespace: string,
  name: string,
  type: PatchType,
  body: unknown,
  opts: PatchOptions,
): PatchResult {
  if (type === 'apply') return apply(ctx, r, namespace, name, body, opts);
  if (opts.force)
    throw invalid('PatchOptions', 'meta.k8s.io', '', [
      { type: 'FieldValueForbidden', field: 'force', detail: 'may not be specified for non-apply patch' },
    ]);
  const ns = r.namespaced ? namespace : '';
  const old = ctx.store.get(resourceKey(r), ns, name);
  if (!old) throw notFound(subjectOf(r, name));
  const patched = asPatched(r, old, applyPatch(type, old, body, r.kind));
  const scope = opts.subresource === 'status' ? 'status' : 'main';
  const object = commitUpdate(ctx, r, old, patched, {
    manager: opts.manager,
    dryRun: opts.dryRun,
    scope,
    ...(opts.subresource ? { subresource: opts.subresource } : {}),
  });
  return { object, created: false };
}

function apply(
  ctx: ApiContext,
  r: ResourceType,
  namespace: string,
  name: string,
  body: unknown,
  opts: PatchOptions,
): PatchResult {
  if (!opts.fieldManager) {
    throw invalid('PatchOptions', 'meta.k8s.io', '', [
      { type: 'FieldValueRequired', field: 'fieldManager', detail: 'is required for apply patch' },
    ]);
  }
  const config = requireMap(body, 'an apply configuration');
  checkShape(r, config);
  const meta = isMap(config.metadata) ? config.metadata : {};
  if (config.apiVersion === undefined || config.apiVersion === '')
    throw badRequest('invalid object type: /, Kind=: apiVersion must be set');
  if (config.kind === undefined || config.kind === '')
    throw badRequest(`invalid object type: ${String(config.apiVersion)}, Kind=: kind must be set`);
  if (config.apiVersion !== apiVersionOf(r) || config.kind !== r.kind) {
    throw badRequest(
      `the API version in the data (${String(config.apiVersion)}) does not match the expected API version (${apiVersionOf(r)})`,
    );
  }
  if (meta.name !== undefined && meta.name !== name)
    throw badRequest(`the name of the object (${String(meta.name)}) does not match the name on the URL (${name})`);
  const ns = r.namespaced ? namespace : '';
  if (r.namespaced && meta.namespace !== undefined && meta.namespace !== ns) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const live = ctx.store.get(resourceKey(r), ns, name);
  const scope = opts.subresource === 'status' ? 'status' : 'main';
  if (!live && scope === 'status') throw notFound(subjectOf(r, name));
  const result = serverSideApply({
    live,
    config: { ...config, metadata: { ...meta, name, ...(r.namespaced ? { namespace: ns } : {}) } },
    kind: r.kind,
    manager: opts.fieldManager,
    force: opts.force === true,
    scope,
    ...(opts.subresource ? { subresource: opts.subresource } : {}),
    apiVersion: apiVersionOf(r),
    time: rfc3339(ctx.clock.now()),
  });
  const object = result.object as KubeObject;
  if (!live) {
    const created = commitCreate(ctx, r, clone(object), {
      manager: opts.fieldManager,
      dryRun: opts.dryRun,
      managedFields: result.managedFields,
    });
    return { object: created, created: true };
  }
  const wantRv = meta.resourceVersion;
  object.metadata.resourceVersion = typeof wantRv === 'string' ? wantRv : live.metadata.resourceVersion;
  const updated = commitUpdate(ctx, r, live, object, {
    manager: opts.fieldManager,
    dryRun: opts.dryRun,
    scope,
    managedFields: result.managedFields,
    ...(opts.subresource ? { subresource: opts.subresource } : {}),
  });
  return { object: updated, created: false };
}
