/**
 * OpenAPI schemas of the kinds the sandbox serves, generated from what the sandbox itself knows
 * of their types — the protobuf field tables (names and scalar types of the messages kubectl
 * sends), the JSON shapes it checks bodies against, and the list-merge rules of its strategic
 * merge patch — and, for custom resources, from their CRD's openAPIV3Schema. A kind the sandbox
 * knows little of gets an object that keeps whatever it is given.
 */
import { isMap, type JsonMap } from '../json.js';
import { MESSAGES, type FieldSpec } from '../http/protobuf-schema.js';
import { fieldCursor, itemCursor, listKind, rootCursor, type SchemaCursor } from '../patch/schema.js';
import type { ResourceType } from './resources.js';
import { kindShape, type Shape } from './shapes.js';

/** The schema name of a kind, as the API server's documents name it (`io.k8s.api.apps.v1.Deployment`). */
export function schemaName(r: Pick<ResourceType, 'group' | 'version' | 'kind' | 'crd'>): string {
  if (r.crd !== undefined) return `${r.group.split('.').reverse().join('.')}.${r.version}.${r.kind}`;
  const g = r.group === '' ? 'core' : r.group.replace(/\.k8s\.io$/, '').replace(/\.authorization$/, '');
  return `io.k8s.api.${g}.${r.version}.${r.kind}`;
}

function scalar(type: string): JsonMap {
  switch (type) {
    case 'string':
      return { type: 'string' };
    case 'bytes':
      return { type: 'string', format: 'byte' };
    case 'bool':
      return { type: 'boolean' };
    case 'int32':
    case 'int64':
      return { type: 'integer', format: type };
    case 'time':
      return { type: 'string', format: 'date-time' };
    case 'quantity':
      return { 'x-kubernetes-int-or-string': true, description: 'a resource quantity, like 500m or 1Gi' };
    case 'intOrString':
      return { 'x-kubernetes-int-or-string': true, format: 'int-or-string' };
    default:
      return {};
  }
}

/** Marks an array with how its items merge, as the API server's schemas do. */
function withListRules(schema: JsonMap, c: SchemaCursor, field: string): SchemaCursor {
  const l = listKind(c, field);
  if (l.type === 'map') {
    schema['x-kubernetes-list-type'] = 'map';
    schema['x-kubernetes-list-map-keys'] = [...l.keys];
    schema['x-kubernetes-patch-merge-key'] = l.mergeKey;
    schema['x-kubernetes-patch-strategy'] = 'merge';
  } else if (l.type === 'set') {
    schema['x-kubernetes-list-type'] = 'set';
    schema['x-kubernetes-patch-strategy'] = 'merge';
  } else schema['x-kubernetes-list-type'] = 'atomic';
  return itemCursor(c, l);
}

function fromMessage(name: string, c: SchemaCursor): JsonMap {
  const fields = MESSAGES[name];
  if (!fields) return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const properties: JsonMap = {};
  for (const spec of Object.values(fields) as FieldSpec[]) {
    const [json, type, flags = ''] = spec;
    const fc = fieldCursor(c, json);
    let s: JsonMap;
    if (type.startsWith('msg:')) s = fromMessage(type.slice(4), fc);
    else if (type.startsWith('map:')) s = { type: 'object', additionalProperties: scalar(type.slice(4)) };
    else s = scalar(type);
    if (flags.includes('i') && isMap(s.properties)) {
      Object.assign(properties, s.properties);
      continue;
    }
    if (flags.includes('r')) {
      const arr: JsonMap = { type: 'array' };
      const ic = withListRules(arr, c, json);
      arr.items = type.startsWith('msg:') ? fromMessage(type.slice(4), ic) : s;
      s = arr;
    }
    properties[json] = s;
  }
  return { type: 'object', properties };
}

function fromShape(shape: Shape, c: SchemaCursor, field: string): JsonMap {
  if (typeof shape === 'string') return scalar(shape === 'bool' ? 'bool' : shape);
  if ('map' in shape) return { type: 'object', additionalProperties: scalar(shape.map) };
  if ('list' in shape) {
    const arr: JsonMap = { type: 'array' };
    const ic = withListRules(arr, c, field);
    arr.items = fromShape(shape.list, ic, field);
    return arr;
  }
  // the protobuf tables describe a struct more fully than the shapes do, where they know it
  if (MESSAGES[shape.struct]) return fromMessage(shape.struct, c);
  const properties: JsonMap = {};
  for (const [k, f] of Object.entries(shape.fields)) properties[k] = fromShape(f, fieldCursor(c, k), k);
  return { type: 'object', properties };
}

const TYPE_META: JsonMap = {
  apiVersion: {
    type: 'string',
    description:
      'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.',
  },
  kind: {
    type: 'string',
    description:
      'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase.',
  },
};

function objectMeta(): JsonMap {
  const meta = fromMessage('ObjectMeta', fieldCursor(rootCursor(''), 'metadata'));
  meta.description = "Standard object's metadata.";
  return meta;
}

/** The whole schema of a built-in kind, tagged with its group, version and kind. */
function builtinSchema(r: ResourceType): JsonMap {
  const root = rootCursor(r.kind);
  const properties: JsonMap = { ...TYPE_META, metadata: objectMeta() };
  const fromProto = MESSAGES[r.kind];
  // the protobuf table of HorizontalPodAutoscaler is autoscaling/v1's
  if (fromProto && !(r.kind === 'HorizontalPodAutoscaler' && r.version !== 'v1')) {
    const made = fromMessage(r.kind, root);
    Object.assign(properties, made.properties, { metadata: objectMeta() });
  }
  for (const [k, shape] of Object.entries(kindShape(r.kind) ?? {}))
    if (properties[k] === undefined) properties[k] = fromShape(shape, fieldCursor(root, k), k);
  if (r.kind === 'Pod') properties.spec = fromMessage('PodSpec', fieldCursor(root, 'spec'));
  const known = Object.keys(properties).length > 3;
  const schema: JsonMap = {
    type: 'object',
    description: `${r.kind} (${r.group === '' ? 'core' : r.group}/${r.version}), as the kdeck sandbox serves it.`,
    properties,
  };
  // what the sandbox does not model it still stores: say so rather than call the kind empty
  if (!known) {
    properties.spec = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    properties.status = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  }
  return schema;
}

function customSchema(r: ResourceType): JsonMap {
  const given = r.schema ? structuredClone(r.schema) : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const properties = isMap(given.properties) ? given.properties : {};
  given.properties = { ...TYPE_META, metadata: objectMeta(), ...properties };
  given.type ??= 'object';
  return given;
}

/** The schema of a kind at its served version, with its x-kubernetes-group-version-kind. */
export function kindSchema(r: ResourceType): JsonMap {
  const s = r.crd !== undefined ? customSchema(r) : builtinSchema(r);
  s['x-kubernetes-group-version-kind'] = [{ group: r.group, version: r.version, kind: r.kind }];
  return s;
}
