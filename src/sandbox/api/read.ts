/**
 * GET and LIST: one object, or a page of a collection filtered by label and field selectors,
 * with `limit`/`continue` paging and the resourceVersion rules of the API server.
 */
import { badRequest, expired, notFound, tooLargeResourceVersion } from './errors.js';
import type { ApiContext } from './context.js';
import type { KubeObject } from './object.js';
import { apiVersionOf, resourceKey, type ResourceType } from './resources.js';
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector } from './selectors.js';
import { subjectOf } from './write.js';

/** The stored object as served at the version asked for (custom resources store one for all). */
export function served(r: ResourceType, o: KubeObject): KubeObject {
  const v = apiVersionOf(r);
  return o.apiVersion === v ? o : { ...o, apiVersion: v };
}

export function getObject(ctx: ApiContext, r: ResourceType, namespace: string, name: string): KubeObject {
  const o = ctx.store.get(resourceKey(r), r.namespaced ? namespace : '', name);
  if (!o) throw notFound(subjectOf(r, name));
  return served(r, o);
}

export interface ListQuery {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: string;
  continue?: string;
  resourceVersion?: string;
}

export interface ObjectList {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: Record<string, unknown>[];
}

interface ContinueToken {
  rv: number;
  start: string;
}

function encodeContinue(t: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: t.rv, start: t.start })).toString('base64');
}

function decodeContinue(text: string): ContinueToken {
  try {
    const t = JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as { rv?: unknown; start?: unknown };
    if (typeof t.rv === 'number' && typeof t.start === 'string') return { rv: t.rv, start: t.start };
  } catch {
    // falls through to the 400 below
  }
  throw badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
}

export function parseResourceVersion(text: string | undefined, current: number): number | undefined {
  if (text === undefined || text === '' || text === '0') return undefined;
  if (!/^[0-9]+$/.test(text)) throw badRequest(`resourceVersion: Invalid value: "${text}": invalid resource version`);
  const rv = Number(text);
  if (rv > current) throw tooLargeResourceVersion(rv, current);
  return rv;
}

function keyOf(o: KubeObject): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
}

/** The objects of a collection that pass the query's selectors, unpaged. */
export function selectObjects(
  ctx: ApiContext,
  r: ResourceType,
  namespace: string | undefined,
  q: Pick<ListQuery, 'labelSelector' | 'fieldSelector'>,
): KubeObject[] {
  const labels = parseLabelSelector(q.labelSelector);
  const fields = parseFieldSelector(q.fieldSelector, r.kind);
  return ctx.store
    .list(resourceKey(r), r.namespaced ? namespace : undefined)
    .filter((o) => matchesLabels(labels, o.metadata.labels) && matchesFields(fields, o));
}

export function listObjects(ctx: ApiContext, r: ResourceType, namespace: string | undefined, q: ListQuery): ObjectList {
  const current = ctx.store.resourceVersion;
  parseResourceVersion(q.resourceVersion, current);
  let items = selectObjects(ctx, r, namespace, q);
  let rv = current;
  if (q.continue) {
    const token = decodeContinue(q.continue);
    if (token.rv < ctx.store.lastCompaction) {
      const rest = items.find((o) => keyOf(o) > token.start);
      throw expired(
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
        rest === undefined ? undefined : encodeContinue({ rv: current, start: token.start }),
      );
    }
    items = items.filter((o) => keyOf(o) > token.start);
    rv = token.rv;
  }
  const limit = q.limit === undefined || q.limit === '' ? 0 : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 0)
    throw badRequest(`limit: Invalid value: "${q.limit}": must be a non-negative integer`);
  const metadata: ObjectList['metadata'] = { resourceVersion: String(rv) };
  if (limit > 0 && items.length > limit) {
    const remaining = items.length - limit;
    items = items.slice(0, limit);
    metadata.continue = encodeContinue({ rv, start: keyOf(items[items.length - 1]!) });
    if (!q.labelSelector && !q.fieldSelector) metadata.remainingItemCount = remaining;
  }
  const custom = r.crd !== undefined;
  const apiVersion = apiVersionOf(r);
  return {
    apiVersion,
    kind: `${r.kind}List`,
    metadata,
    // the real server leaves kind and apiVersion off built-in list items
    items: items.map((o) => {
      if (custom) return { ...o, apiVersion };
      const { apiVersion: _v, kind: _k, ...rest } = o;
      return rest;
    }),
  };
}
