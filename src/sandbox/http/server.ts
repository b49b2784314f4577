/**
 * One cluster's API server on 127.0.0.1 (HTTPS, and plain HTTP on the same port): bearer-token
 * authentication, injected faults, routing to discovery and to the resource verbs, JSON
 * responses, and Status errors for every failure — a request can fail, the server cannot. Every
 * request is bounded: bodies by size, requests by time, watches by their timeout and the
 * server's limit.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiContext } from '../api/context.js';
import {
  aggregatedAsked,
  aggregatedDiscovery,
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
} from '../api/discovery.js';
import { ApiError, internalError, resourceNotFound, unauthorized } from '../api/errors.js';
import { openApiGroupVersion, openApiIndex, openApiV2 } from '../api/openapi.js';
import { parseResourceVersion } from '../api/read.js';
import { parseFieldSelector, parseLabelSelector } from '../api/selectors.js';
import type { Faults } from '../faults.js';
import { readBody } from './body.js';
import { LoopbackListener } from './listener.js';
import { handleResource, stored, type Reply, type ResourceRequest } from './handlers.js';
import { followLog, wantsFollow } from './pod-log.js';
import { resourceKey } from '../api/resources.js';
import { routeOf, type Route } from './routes.js';
import { asTable, includeObjectOf, tableEventLine, wantsTable } from './table.js';
import type { TlsIdentity } from './self-signed.js';
import { cut } from './cut.js';
import { serveWatch, watchParams, type WatchLimits } from './watch-stream.js';

export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
}

/** The sandbox's own endpoints under `/__sandbox/`. */
export type AdminHandler = (method: string, path: string[], body: string) => Reply;

export interface ServerDeps {
  ctx: ApiContext;
  token: string;
  faults: Faults;
  version: VersionInfo;
  admin: AdminHandler;
  watch: WatchLimits;
}

const JSON_TYPE = 'application/json';

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  contentType = JSON_TYPE,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = typeof body === 'string' && contentType !== JSON_TYPE ? body : JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': contentType,
    'Cache-Control': 'no-cache, private',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function sendError(res: ServerResponse, e: unknown): void {
  const err = e instanceof ApiError ? e : internalError(e instanceof Error ? e.message : String(e));
  send(res, err.code, err.toStatus(), JSON_TYPE, err.headers);
}

function authorized(req: IncomingMessage, token: string): boolean {
  const h = req.headers.authorization ?? '';
  // the auth scheme is case-insensitive (RFC 7235), as the API server reads it
  if (h.slice(0, 7).toLowerCase() !== 'bearer ') return false;
  const given = Buffer.from(h.slice(7).trim());
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

/** The verb of a request as fault rules name them. */
function verbOf(method: string, route: Route, query: URLSearchParams): string {
  const named = route.type === 'resource' && route.name !== undefined;
  switch (method) {
    case 'GET':
      if (query.get('watch') === 'true' || query.get('watch') === '1') return 'watch';
      return named ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return named ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}

const PUBLIC: ReadonlySet<Route['type']> = new Set(['version', 'health']);

/** The answer to exec, attach and port-forward, which need containers the sandbox does not run. */
function noUpgrade(): string {
  const body = JSON.stringify(
    new ApiError(
      400,
      'BadRequest',
      'the kdeck sandbox runs no containers: exec, attach and port-forward are not available',
    ).toStatus(),
  );
  return `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** How long an unresponsive cluster holds a request before dropping the connection. */
const MAX_HOLD_MS = 300_000;

export class ApiHttpServer {
  private readonly listener: LoopbackListener;
  /** Requests a silent (unresponsive) cluster is holding, dropped when it answers again. */
  private readonly held = new Set<ServerResponse>();

  constructor(
    private readonly deps: ServerDeps,
    identity: TlsIdentity,
  ) {
    this.listener = new LoopbackListener(
      identity,
      (req, res) => this.onRequest(req, res),
      () => noUpgrade(),
    );
    deps.faults.onChange(() => {
      if (deps.faults.current.unresponsive) return;
      for (const res of this.held) cut(res);
      this.held.clear();
    });
  }

  /** How many requests a silent cluster is holding. */
  get heldRequests(): number {
    return this.held.size;
  }

  /** Listens on 127.0.0.1 (port 0: a free one), HTTPS and HTTP; resolves to the port. */
  listen(port = 0): Promise<number> {
    return this.listener.listen(port);
  }

  /** Stops listening and drops every connection, watches included. */
  async close(): Promise<void> {
    for (const res of this.held) cut(res);
    this.held.clear();
    await this.listener.close();
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    this.handle(req, res).catch((e: unknown) => sendError(res, e));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { deps } = this;
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const route = routeOf(deps.ctx.resources, url.pathname);
    if (route.type !== 'admin' && deps.faults.current.unresponsive) {
      this.held.add(res);
      // even a silent cluster lets go of a request in the end
      const limit = setTimeout(() => cut(res), MAX_HOLD_MS);
      limit.unref();
      res.on('close', () => {
        clearTimeout(limit);
        this.held.delete(res);
      });
      req.resume();
      return;
    }
    if (!PUBLIC.has(route.type) && !authorized(req, deps.token)) {
      req.resume();
      return sendError(res, unauthorized());
    }
    const method = req.method ?? 'GET';
    if (route.type === 'resource') {
      const injected = deps.faults.apiErrorFor(verbOf(method, route, url.searchParams), route.resource.plural);
      if (injected) {
        req.resume();
        return sendError(res, injected);
      }
    }
    const body = method === 'GET' || method === 'HEAD' ? (req.resume(), Buffer.alloc(0)) : await readBody(req);
    if (route.type === 'resource') return this.resource(req, res, route, url.searchParams, method, body);
    if (route.type === 'admin') return this.reply(res, deps.admin(method, route.path, body.toString('utf8')));
    // a path the server does not serve is 404 whatever the method, as the API server answers
    if (route.type === 'notFound') return sendError(res, resourceNotFound());
    if (method !== 'GET' && method !== 'HEAD')
      return sendError(
        res,
        new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {}),
      );
    this.discovery(req, res, route);
  }

  private discovery(req: IncomingMessage, res: ServerResponse, route: Route): void {
    const { ctx } = this.deps;
    const reg = ctx.resources;
    const aggregated = aggregatedAsked(req.headers.accept);
    switch (route.type) {
      case 'version':
        return send(res, 200, {
          ...this.deps.version,
          gitCommit: 'sandbox',
          gitTreeState: 'clean',
          buildDate: '2026-01-01T00:00:00Z',
          goVersion: 'go1.24.0',
          compiler: 'gc',
          platform: 'linux/amd64',
        });
      case 'health':
        return send(res, 200, 'ok', 'text/plain; charset=utf-8');
      case 'coreVersions':
      case 'groups':
        if (aggregated) {
          return send(
            res,
            200,
            aggregatedDiscovery(reg, route.type === 'coreVersions', aggregated),
            `application/json;g=apidiscovery.k8s.io;v=${aggregated};as=APIGroupDiscoveryList`,
          );
        }
        return send(
          res,
          200,
          route.type === 'coreVersions' ? apiVersions(`127.0.0.1:${req.socket.localPort ?? 0}`) : apiGroupList(reg),
        );
      case 'group': {
        const doc = apiGroup(reg, route.group);
        return doc ? send(res, 200, doc) : sendError(res, resourceNotFound());
      }
      case 'resources': {
        const doc = apiResourceList(reg, route.group, route.version);
        return doc ? send(res, 200, doc) : sendError(res, resourceNotFound());
      }
      case 'openapiV2': {
        // kubectl asks for protobuf first and takes JSON after a 406
        const accept = req.headers.accept ?? '*/*';
        if (!/json|\*\/\*/.test(accept))
          return sendError(
            res,
            new ApiError(406, 'NotAcceptable', 'only application/json is served for /openapi/v2', {}),
          );
        return send(res, 200, openApiV2(reg));
      }
      case 'openapiIndex':
        return send(res, 200, openApiIndex(reg));
      case 'openapi': {
        const doc = openApiGroupVersion(reg, route.group, route.version);
        return doc ? send(res, 200, doc) : sendError(res, resourceNotFound());
      }
      default:
        return sendError(res, resourceNotFound());
    }
  }

  private resource(
    req: IncomingMessage,
    res: ServerResponse,
    route: Extract<Route, { type: 'resource' }>,
    query: URLSearchParams,
    method: string,
    body: Buffer,
  ): void {
    const { ctx } = this.deps;
    const rr: ResourceRequest = { method, resource: route.resource, query, body };
    if (route.namespace !== undefined) rr.namespace = route.namespace;
    if (route.name !== undefined) rr.name = route.name;
    if (route.subresource !== undefined) rr.subresource = route.subresource;
    if (req.headers['content-type'] !== undefined) rr.contentType = req.headers['content-type'];
    if (req.headers['user-agent'] !== undefined) rr.userAgent = req.headers['user-agent'];
    if (route.subresource === 'log' && route.name !== undefined && method === 'GET' && wantsFollow(query)) {
      const pod = stored(ctx, route.resource, rr);
      const key = { resource: resourceKey(route.resource), namespace: route.namespace ?? '', name: route.name };
      return followLog(res, ctx, key, pod, query);
    }
    const reply = handleResource(ctx, rr);
    if (!('watch' in reply)) {
      const table = wantsTable(req.headers.accept)
        ? asTable(route.resource, reply.body, ctx.clock.now(), includeObjectOf(query))
        : undefined;
      return table ? send(res, reply.status, table, JSON_TYPE, reply.headers ?? {}) : this.reply(res, reply);
    }
    const r = route.resource;
    const fields = [query.get('fieldSelector') ?? '', route.name !== undefined ? `metadata.name=${route.name}` : '']
      .filter((s) => s !== '')
      .join(',');
    const filter = {
      resource: r,
      labels: parseLabelSelector(query.get('labelSelector') ?? undefined),
      fields: parseFieldSelector(fields, r.kind),
      ...(r.namespaced && route.namespace !== undefined ? { namespace: route.namespace } : {}),
    };
    const params = watchParams(query);
    const resume = parseResourceVersion(params.resourceVersion, ctx.store.resourceVersion);
    const include = includeObjectOf(query);
    const mapLine = wantsTable(req.headers.accept)
      ? (l: string) => tableEventLine(r, l, ctx.clock.now(), include)
      : undefined;
    serveWatch(res, ctx.store, this.deps.faults, filter, params, resume, this.deps.watch, mapLine);
  }

  private reply(res: ServerResponse, reply: Reply): void {
    if ('watch' in reply) return sendError(res, resourceNotFound());
    send(res, reply.status, reply.body, reply.contentType ?? JSON_TYPE, reply.headers ?? {});
  }
}
