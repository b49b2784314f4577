/**
 * The verbs on a resource route: HTTP method, path and query to the API operation, and its
 * result to a status code and body. Watches are handed back to the server, which streams them.
 */
import { clone, dropNulls, getPath, isMap } from '../json.js';
import type { ApiContext, WriteOptions } from '../api/context.js';
import { deleteObject, deleteOptionsFrom } from '../api/delete.js';
import { badRequest, invalid, methodNotAllowed, notFound } from '../api/errors.js';
import { evictPod } from '../api/eviction.js';
import { checkShape } from '../api/shapes.js';
import type { KubeObject } from '../api/object.js';
import { decodePatch, patchObject, patchTypeOf } from '../api/patch.js';
import { getObject, listObjects, selectObjects, served } from '../api/read.js';
import { apiVersionOf, resourceKey, type ResourceType, type SubresourceName } from '../api/resources.js';
import { getScale, patchScale, updateScale } from '../api/scale.js';
import { commitCreate, commitUpdate, subjectOf } from '../api/write.js';
import { parseBody } from './body.js';
import { converterFor, convertReply, type Converter } from '../api/conversion.js';
import { answerReview, requestToken } from '../api/reviews.js';
import { podLog } from './pod-log.js';

export interface ResourceRequest {
  method: string;
  resource: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: SubresourceName;
  query: URLSearchParams;
  /** The body as received (JSON, YAML or protobuf). */
  body: Buffer;
  contentType?: string;
  userAgent?: string;
}

export type Reply =
  { status: number; body: unknown; contentType?: string; headers?: Record<string, string> } | { watch: true };

/** The manager of a write: `?fieldManager`, else the client's program name from User-Agent. */
function managerOf(req: ResourceRequest): string {
  const fm = req.query.get('fieldManager');
  if (fm) return fm;
  const ua = (req.userAgent ?? '').split('/')[0]!.trim();
  return ua === '' ? 'unknown' : ua.slice(0, 128);
}

function writeOptions(req: ResourceRequest, verbOptions: string): WriteOptions {
  const dry = req.query.getAll('dryRun');
  const bad = dry.find((d) => d !== 'All');
  if (bad !== undefined) {
    throw invalid(verbOptions, 'meta.k8s.io', '', [
      { type: 'FieldValueNotSupported', field: 'dryRun[0]', value: bad, detail: 'supported values: "All"' },
    ]);
  }
  const opts: WriteOptions = { manager: managerOf(req), requestBytes: req.body.length };
  const fv = req.query.get('fieldValidation');
  if (fv === 'Strict' || fv === 'Warn' || fv === 'Ignore') opts.fieldValidation = fv;
  if (dry.length > 0) opts.dryRun = true;
  return opts;
}

/**
 * A request body that must be an object of the route's kind. Like the API server, the sandbox
 * takes a missing apiVersion or kind from the URL (typed clients leave them out).
 */
function objectBody(req: ResourceRequest, r: ResourceType): KubeObject {
  const body = parseBody(req.body, req.contentType);
  if (!isMap(body)) {
    const what = Array.isArray(body) ? 'array' : body === undefined ? 'empty body' : typeof body;
    throw badRequest(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${what} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const want = apiVersionOf(r);
  if (body.apiVersion === undefined || body.apiVersion === '') body.apiVersion = want;
  if (body.kind === undefined || body.kind === '') body.kind = r.kind;
  if (body.apiVersion !== want)
    throw badRequest(
      `the API version in the data (${String(body.apiVersion)}) does not match the expected API version (${want})`,
    );
  if (body.kind !== r.kind)
    throw badRequest(
      `${String(body.kind)} in version "${r.version}" cannot be handled as a ${r.kind}: the kind of the body does not match the URL`,
    );
  checkShape(r, body);
  const o = dropNulls(body) as KubeObject;
  o.metadata ??= {};
  const ns = req.namespace ?? '';
  if (r.namespaced) {
    if (o.metadata.namespace && o.metadata.namespace !== ns)
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    o.metadata.namespace = ns;
  }
  if (req.name !== undefined && o.metadata.name !== undefined && o.metadata.name !== req.name) {
    throw badRequest(`the name of the object (${o.metadata.name}) does not match the name on the URL (${req.name})`);
  }
  if (req.name !== undefined) o.metadata.name = req.name;
  return o;
}

function ok(body: unknown, status = 200): Reply {
  return { status, body };
}

export function stored(ctx: ApiContext, r: ResourceType, req: ResourceRequest): KubeObject {
  const o = ctx.store.get(resourceKey(r), r.namespaced ? (req.namespace ?? '') : '', req.name ?? '');
  if (!o) throw notFound(subjectOf(r, req.name ?? ''));
  return o;
}

function get(ctx: ApiContext, req: ResourceRequest): Reply {
  const r = req.resource;
  const watch = req.query.get('watch');
  if (watch === 'true' || watch === '1') return { watch: true };
  if (req.name === undefined) return ok(listObjects(ctx, r, req.namespace, queryOf(req.query)));
  switch (req.subresource) {
    case undefined:
    case 'status':
      return ok(getObject(ctx, r, req.namespace ?? '', req.name));
    case 'scale':
      return ok(getScale(ctx, r, req.namespace ?? '', req.name, r.scalePaths));
    case 'log':
      return { status: 200, body: podLog(stored(ctx, r, req), req.query, ctx.clock.now()), contentType: 'text/plain' };
    default:
      throw methodNotAllowed();
  }
}

function queryOf(q: URLSearchParams) {
  const out: {
    labelSelector?: string;
    fieldSelector?: string;
    limit?: string;
    continue?: string;
    resourceVersion?: string;
  } = {};
  for (const k of ['labelSelector', 'fieldSelector', 'limit', 'continue', 'resourceVersion'] as const) {
    const v = q.get(k);
    if (v !== null) out[k] = v;
  }
  return out;
}

function post(ctx: ApiContext, req: ResourceRequest): Reply {
  const r = req.resource;
  if (r.virtual && req.name === undefined) return ok(answerReview(ctx, r, objectBody(req, r)), 201);
  if (req.subresource === 'token' && req.name !== undefined)
    return ok(requestToken(ctx, req.namespace ?? '', req.name, parseBody(req.body, req.contentType)), 201);
  if (req.name === undefined) {
    const o = objectBody(req, r);
    return ok(served(r, commitCreate(ctx, r, o, writeOptions(req, 'CreateOptions'))), 201);
  }
  if (req.subresource === 'eviction') {
    return ok(
      evictPod(
        ctx,
        r,
        req.namespace ?? '',
        req.name,
        parseBody(req.body, req.contentType),
        writeOptions(req, 'CreateOptions'),
      ),
      201,
    );
  }
  throw methodNotAllowed();
}

function put(ctx: ApiContext, req: ResourceRequest): Reply {
  const r = req.resource;
  if (req.name === undefined) throw methodNotAllowed();
  const opts = writeOptions(req, 'UpdateOptions');
  if (req.subresource === 'scale')
    return ok(
      updateScale(ctx, r, req.namespace ?? '', req.name, parseBody(req.body, req.contentType), opts, r.scalePaths),
    );
  const old = stored(ctx, r, req);
  const next = objectBody(req, r);
  if (req.subresource === 'finalize') {
    const finalizers = getPath(next, ['spec', 'finalizers']);
    const merged = clone(old);
    merged.metadata.resourceVersion = next.metadata.resourceVersion;
    merged.spec = { ...(isMap(old.spec) ? old.spec : {}), finalizers: Array.isArray(finalizers) ? finalizers : [] };
    return ok(served(r, commitUpdate(ctx, r, old, merged, { ...opts, subresource: 'finalize' })));
  }
  if (req.subresource !== undefined && req.subresource !== 'status') throw methodNotAllowed();
  const scope = req.subresource === 'status' ? 'status' : 'main';
  return ok(
    served(
      r,
      commitUpdate(ctx, r, old, next, { ...opts, scope, ...(req.subresource ? { subresource: req.subresource } : {}) }),
    ),
  );
}

function patch(ctx: ApiContext, req: ResourceRequest): Reply {
  const r = req.resource;
  if (req.name === undefined) throw methodNotAllowed();
  const type = patchTypeOf(req.contentType, r.crd !== undefined);
  const opts = writeOptions(req, 'PatchOptions');
  if (req.subresource === 'scale')
    return ok(patchScale(ctx, r, req.namespace ?? '', req.name, type, req.body.toString('utf8'), opts, r.scalePaths));
  if (req.subresource !== undefined && req.subresource !== 'status') throw methodNotAllowed();
  const force = req.query.get('force');
  const fieldManager = req.query.get('fieldManager');
  const result = patchObject(
    ctx,
    r,
    req.namespace ?? '',
    req.name,
    type,
    decodePatch(type, req.body.toString('utf8')),
    {
      ...opts,
      ...(fieldManager ? { fieldManager } : {}),
      force: force === 'true' || force === '1',
      ...(req.subresource === 'status' ? { subresource: 'status' as const } : {}),
    },
  );
  return ok(served(r, result.object), result.created ? 201 : 200);
}

function del(ctx: ApiContext, req: ResourceRequest): Reply {
  const r = req.resource;
  if (req.subresource !== undefined) throw methodNotAllowed();
  const opts = deleteOptionsFrom(req.query, parseBody(req.body, req.contentType), writeOptions(req, 'DeleteOptions'));
  if (req.name !== undefined) return ok(deleteObject(ctx, r, req.namespace ?? '', req.name, opts));
  const gone = selectObjects(ctx, r, req.namespace, queryOf(req.query)).map((o) => {
    const result = deleteObject(ctx, r, o.metadata.namespace ?? '', o.metadata.name ?? '', opts);
    return result.kind === 'Status' ? served(r, o) : result;
  });
  return ok({
    apiVersion: apiVersionOf(r),
    kind: `${r.kind}List`,
    metadata: { resourceVersion: String(ctx.store.resourceVersion) },
    items: gone,
  });
}

/** The `Warning` headers the API server adds to some answers (kubectl prints them). */
function warnings(req: ResourceRequest): string[] {
  const out: string[] = [];
  const r = req.resource;
  if (r.group === '' && r.plural === 'endpoints')
    out.push('v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice');
  if (
    r.group === 'batch' &&
    r.plural === 'jobs' &&
    req.method === 'DELETE' &&
    !req.query.has('propagationPolicy') &&
    !req.body.toString('utf8').includes('propagationPolicy')
  ) {
    out.push(
      'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning',
    );
  }
  return out;
}

/**
 * A request to a version served from another version's storage: the body goes in converted, the
 * verb runs on the stored version, and the answer comes back in the version asked for.
 */
function converted(ctx: ApiContext, req: ResourceRequest, c: Converter): Reply {
  const storage = ctx.resources.forKind(c.storage, req.resource.kind);
  if (!storage) throw notFound(subjectOf(req.resource, req.name ?? ''));
  const next: ResourceRequest = { ...req, resource: storage };
  if ((req.method === 'POST' || req.method === 'PUT') && req.subresource === undefined && req.body.length > 0) {
    const body = parseBody(req.body, req.contentType);
    if (isMap(body) && (body.apiVersion === undefined || body.apiVersion === apiVersionOf(req.resource))) {
      next.body = Buffer.from(
        JSON.stringify(c.toStorage({ ...body, apiVersion: apiVersionOf(req.resource) } as KubeObject)),
      );
      next.contentType = 'application/json';
    }
  }
  const reply = verb(ctx, next);
  if ('watch' in reply) return reply;
  return { ...reply, body: convertReply(c, reply.body, req.resource.kind) };
}

export function handleResource(ctx: ApiContext, req: ResourceRequest): Reply {
  const conv = converterFor(req.resource);
  const reply = conv ? converted(ctx, req, conv) : verb(ctx, req);
  const w = warnings(req);
  if ('watch' in reply || w.length === 0) return reply;
  return { ...reply, headers: { ...reply.headers, Warning: w.map((text) => `299 - "${text}"`).join(', ') } };
}

function verb(ctx: ApiContext, req: ResourceRequest): Reply {
  // a namespaced resource without a namespace in the path is only listed and watched
  if (req.resource.namespaced && req.namespace === undefined && req.method !== 'GET' && req.method !== 'HEAD')
    throw methodNotAllowed();
  // a review is only ever created
  if (req.resource.virtual && req.method !== 'POST') throw methodNotAllowed();
  switch (req.method) {
    case 'GET':
    case 'HEAD':
      return get(ctx, req);
    case 'POST':
      return post(ctx, req);
    case 'PUT':
      return put(ctx, req);
    case 'PATCH':
      return patch(ctx, req);
    case 'DELETE':
      return del(ctx, req);
    default:
      throw methodNotAllowed();
  }
}
