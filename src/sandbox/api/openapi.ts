/**
 * Just enough OpenAPI v3 for kubectl: before `apply`, `create` or `replace` it reads
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
