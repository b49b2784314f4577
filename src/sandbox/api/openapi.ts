/**
 * OpenAPI v3 (and v2) for kubectl. The schemas of every kind (see openapi-schemas.ts) serve
 * `kubectl explain`. Before `apply`, `create` or `replace` kubectl also reads
 * `/openapi/v3` to learn whether the server validates fields itself (the `fieldValidation`
 * parameter on each kind's PATCH). Saying yes makes kubectl leave validation to the server
 * instead of failing for want of schemas. Strategic merge is not listed among the PATCH bodies,
 * so kubectl computes its patches from its own built-in types rather than from schemas the
 * sandbox does not publish.
 */
import { createHash } from 'node:crypto';
import type { JsonMap } from '../json.js';
import { kindSchema, schemaName } from './openapi-schemas.js';
import type { ResourceRegistry, ResourceType } from './resources.js';

function gvPath(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

const QUERY = ['dryRun', 'fieldManager', 'fieldValidation', 'force', 'pretty'].map((name) => ({
  name,
  in: 'query',
  schema: { type: name === 'force' ? 'boolean' : 'string' },
}));

function patchOperation(r: ResourceType): JsonMap {
  const body = { schema: { type: 'object' } };
  return {
    operationId: `patch${r.kind}`,
    'x-kubernetes-action': 'patch',
    'x-kubernetes-group-version-kind': { group: r.group, version: r.version, kind: r.kind },
    parameters: QUERY,
    requestBody: {
      content: {
        'application/json-patch+json': body,
        'application/merge-patch+json': body,
        'application/apply-patch+yaml': body,
      },
    },
    responses: { '200': { description: 'OK' } },
  };
}

function objectPath(r: ResourceType): string {
  const base = `/${gvPath(r.group, r.version)}`;
  return r.namespaced ? `${base}/namespaces/{namespace}/${r.plural}/{name}` : `${base}/${r.plural}/{name}`;
}

export function openApiGroupVersion(reg: ResourceRegistry, group: string, version: string): JsonMap | undefined {
  const rs = reg.inGroupVersion(group, version);
  if (rs.length === 0) return undefined;
  const paths: JsonMap = {};
  const schemas: JsonMap = {};
  for (const r of rs) {
    if (!r.virtual) paths[objectPath(r)] = { patch: patchOperation(r) };
    schemas[schemaName(r)] = kindSchema(r);
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'sandbox' }, paths, components: { schemas } };
}

/** `/openapi/v3`: the group-versions, each with a URL whose hash changes when its types do. */
export function openApiIndex(reg: ResourceRegistry): JsonMap {
  const paths: JsonMap = {};
  for (const [g, vs] of reg.groupVersions()) {
    for (const v of vs) {
      const hash = createHash('sha256')
        .update(JSON.stringify(openApiGroupVersion(reg, g, v)))
        .digest('hex')
        .slice(0, 32)
        .toUpperCase();
      paths[gvPath(g, v)] = { serverRelativeURL: `/openapi/v3/${gvPath(g, v)}?hash=${hash}` };
    }
  }
  return { paths };
}

/** Rewrites a v3 schema for Swagger 2.0: the same JSON Schema, with v2's reference prefix. */
function v2Schema(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(v2Schema);
  if (s === null || typeof s !== 'object') return s;
  const out: JsonMap = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '$ref' && typeof v === 'string') out[k] = v.replace('#/components/schemas/', '#/definitions/');
    else out[k] = v2Schema(v);
  }
  return out;
}

/**
 * `/openapi/v2` (Swagger 2.0, JSON): the same definitions. Built-in kinds carry no
 * x-kubernetes-group-version-kind here, so kubectl's client-side apply, which reads patch
 * strategies from v2 when it finds a kind there, keeps using its own built-in types for them;
 * custom resources (merge-patched anyway) are tagged, for `kubectl explain --output
 * plaintext-openapiv2`.
 */
export function openApiV2(reg: ResourceRegistry): JsonMap {
  const definitions: JsonMap = {};
  for (const r of reg.all()) {
    const s = kindSchema(r);
    if (r.crd === undefined) delete s['x-kubernetes-group-version-kind'];
    definitions[schemaName(r)] = v2Schema(s);
  }
  return { swagger: '2.0', info: { title: 'Kubernetes', version: 'sandbox' }, paths: {}, definitions };
}
