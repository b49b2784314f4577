/**
 * The scale subresource: an autoscaling/v1 Scale view of a workload's replicas, read and
 * written (PUT or PATCH, as `kubectl scale` does) through the workload itself.
 */
import { clone, getPath, isMap, type JsonMap } from '../json.js';
import type { ApiContext, WriteOptions } from './context.js';
import { badRequest, conflict, notFound } from './errors.js';
import type { KubeObject } from './object.js';
import { decodePatch, type PatchType } from './patch.js';
import { applyJsonPatch, parseJsonPatch } from '../patch/json-patch.js';
import { mergePatch } from '../patch/merge-patch.js';
import { resourceKey, type ResourceType } from './resources.js';
import { commitUpdate, subjectOf } from './write.js';

/** Where a kind keeps its replica counts; custom resources name theirs in the CRD. */
export interface ScalePaths {
  spec: string[];
  status: string[];
  selector?: string[];
}

const BUILTIN: ScalePaths = { spec: ['spec', 'replicas'], status: ['status', 'replicas'] };

/** `a=b,c in (d,e)`: a LabelSelector in the string form Scale.status.selector carries. */
export function selectorString(sel: unknown): string {
  if (!isMap(sel)) return '';
  const parts: string[] = [];
  if (isMap(sel.matchLabels))
    for (const [k, v] of Object.entries(sel.matchLabels).sort()) parts.push(`${k}=${String(v)}`);
  if (Array.isArray(sel.matchExpressions)) {
    for (const e of sel.matchExpressions) {
      if (!isMap(e)) continue;
      const vals = Array.isArray(e.values) ? e.values.map(String).sort().join(',') : '';
      if (e.operator === 'In') parts.push(`${String(e.key)} in (${vals})`);
      else if (e.operator === 'NotIn') parts.push(`${String(e.key)} notin (${vals})`);
      else if (e.operator === 'Exists') parts.push(String(e.key));
      else if (e.operator === 'DoesNotExist') parts.push(`!${String(e.key)}`);
    }
  }
  return parts.join(',');
}

function scaleOf(o: KubeObject, paths: ScalePaths): JsonMap {
  const selector = paths.selector ? getPath(o, paths.selector) : selectorString(getPath(o, ['spec', 'selector']));
  const meta: JsonMap = {
    name: o.metadata.name,
    uid: o.metadata.uid,
    resourceVersion: o.metadata.resourceVersion,
    creationTimestamp: o.metadata.creationTimestamp,
  };
  if (o.metadata.namespace) meta.namespace = o.metadata.namespace;
  const status: JsonMap = { replicas: getPath(o, paths.status) ?? 0 };
  if (typeof selector === 'string' && selector !== '') status.selector = selector;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: meta,
    spec: { replicas: getPath(o, paths.spec) ?? 0 },
    status,
  };
}

function stored(ctx: ApiContext, r: ResourceType, namespace: string, name: string): KubeObject {
  const o = ctx.store.get(resourceKey(r), r.namespaced ? namespace : '', name);
  if (!o) throw notFound(subjectOf(r, name));
  return o;
}

export function getScale(
  ctx: ApiContext,
  r: ResourceType,
  namespace: string,
  name: string,
  paths: ScalePaths = BUILTIN,
): JsonMap {
  return scaleOf(stored(ctx, r, namespace, name), paths);
}

function writeReplicas(
  ctx: ApiContext,
  r: ResourceType,
  o: KubeObject,
  scale: unknown,
  paths: ScalePaths,
  opts: WriteOptions,
): JsonMap {
  if (!isMap(scale)) throw badRequest('the body must be a Scale object');
  const replicas = getPath(scale, ['spec', 'replicas']);
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw badRequest(
      `spec.replicas: Invalid value: ${JSON.stringify(replicas ?? null)}: must be a non-negative integer`,
    );
  }
  const rv = getPath(scale, ['metadata', 'resourceVersion']);
  if (typeof rv === 'string' && rv !== '' && rv !== o.metadata.resourceVersion)
    throw conflict(subjectOf(r, o.metadata.name ?? ''));
  const next = clone(o);
  let cur: JsonMap = next;
  for (const k of paths.spec.slice(0, -1)) {
    const child = cur[k];
    cur = isMap(child) ? child : (cur[k] = {});
  }
  cur[paths.spec[paths.spec.length - 1]!] = replicas;
  return scaleOf(commitUpdate(ctx, r, o, next, { ...opts, subresource: 'scale' }), paths);
}

export function updateScale(
  ctx: ApiContext,
  r: ResourceType,
  namespace: string,
  name: string,
  body: unknown,
  opts: WriteOptions,
  paths: ScalePaths = BUILTIN,
): JsonMap {
  const o = stored(ctx, r, namespace, name);
  return writeReplicas(ctx, r, o, body, paths, opts);
}

export function patchScale(
  ctx: ApiContext,
  r: ResourceType,
  namespace: string,
  name: string,
  type: PatchType,
  text: string,
  opts: WriteOptions,
  paths: ScalePaths = BUILTIN,
): JsonMap {
  const o = stored(ctx, r, namespace, name);
  const body = decodePatch(type, text);
  const current = scaleOf(o, paths);
  // a Scale has no lists that merge by key, so strategic merge and apply both merge as maps
  const patched = type === 'json' ? applyJsonPatch(current, parseJsonPatch(body)) : mergePatch(current, body);
  return writeReplicas(ctx, r, o, patched, paths, opts);
}
