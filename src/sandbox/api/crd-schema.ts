/**
 * A custom resource checked against its CRD's structural schema, as the apiextensions server
 * checks it: unknown fields pruned (or, with `fieldValidation=Strict`, refused), then types,
 * required fields, enums, patterns, lengths, bounds and item counts, each failure a field error
 * in the API server's words (`spec.size in body must be of type integer: "string"`).
 */
import { deepEqual, isMap, type JsonMap } from '../json.js';
import type { FieldError } from './errors.js';

/** Fields every object has whatever its schema says. */
const ROOT_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

function goType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

function typeMatches(type: unknown, v: unknown): boolean {
  switch (type) {
    case 'object':
      return isMap(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    default:
      return true;
  }
}

function quoted(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

export interface SchemaResult {
  errors: FieldError[];
  /** Paths of the fields the schema does not declare (already removed from the object). */
  unknown: string[];
}

function walk(schema: JsonMap, v: unknown, path: string, out: SchemaResult, root: boolean): void {
  if (v === undefined) return;
  const intOrString = schema['x-kubernetes-int-or-string'] === true;
  if (intOrString) {
    if (typeof v !== 'string' && !(typeof v === 'number' && Number.isInteger(v)))
      out.errors.push({
        type: 'FieldValueInvalid',
        field: path,
        value: goType(v),
        detail: `${path} in body must be of type integer,string: ${quoted(goType(v))}`,
      });
  } else if (schema.type !== undefined && !typeMatches(schema.type, v)) {
    out.errors.push({
      type: 'FieldValueInvalid',
      field: path,
      value: goType(v),
      detail: `${path} in body must be of type ${String(schema.type)}: ${quoted(goType(v))}`,
    });
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => deepEqual(e, v))) {
    out.errors.push({
      type: 'FieldValueNotSupported',
      field: path,
      value: v,
      detail: `supported values: ${schema.enum.map(quoted).join(', ')}`,
    });
  }
  if (typeof v === 'string') strings(schema, v, path, out);
  if (typeof v === 'number') numbers(schema, v, path, out);
  if (Array.isArray(v)) {
    if (typeof schema.maxItems === 'number' && v.length > schema.maxItems)
      out.errors.push({
        type: 'FieldValueTooMany',
        field: path,
        value: v.length,
        detail: `must have at most ${schema.maxItems} items`,
      });
    if (typeof schema.minItems === 'number' && v.length < schema.minItems)
      out.errors.push({
        type: 'FieldValueInvalid',
        field: path,
        value: v.length,
        detail: `${path} in body should have at least ${schema.minItems} items`,
      });
    if (isMap(schema.items)) v.forEach((item, i) => walk(schema.items as JsonMap, item, `${path}[${i}]`, out, false));
  }
  if (isMap(v)) objects(schema, v, path, out, root);
}

function strings(schema: JsonMap, v: string, path: string, out: SchemaResult): void {
  if (typeof schema.maxLength === 'number' && [...v].length > schema.maxLength)
    out.errors.push({
      type: 'FieldValueTooLong',
      field: path,
      value: v,
      detail: `may not be more than ${schema.maxLength} bytes`,
    });
  if (typeof schema.minLength === 'number' && [...v].length < schema.minLength)
    out.errors.push({
      type: 'FieldValueInvalid',
      field: path,
      value: v,
      detail: `${path} in body should be at least ${schema.minLength} chars long`,
    });
  if (typeof schema.pattern === 'string') {
    let re: RegExp | undefined;
    try {
      re = new RegExp(schema.pattern, 'u');
    } catch {
      re = undefined;
    }
    if (re && !re.test(v))
      out.errors.push({
        type: 'FieldValueInvalid',
        field: path,
        value: v,
        detail: `${path} in body should match '${schema.pattern}'`,
      });
  }
}

function numbers(schema: JsonMap, v: number, path: string, out: SchemaResult): void {
  if (typeof schema.maximum === 'number') {
    const over = schema.exclusiveMaximum === true ? v >= schema.maximum : v > schema.maximum;
    if (over)
      out.errors.push({
        type: 'FieldValueInvalid',
        field: path,
        value: v,
        detail: `${path} in body should be less than ${schema.exclusiveMaximum === true ? '' : 'or equal to '}${schema.maximum}`,
      });
  }
  if (typeof schema.minimum === 'number') {
    const under = schema.exclusiveMinimum === true ? v <= schema.minimum : v < schema.minimum;
    if (under)
      out.errors.push({
        type: 'FieldValueInvalid',
        field: path,
        value: v,
        detail: `${path} in body should be greater than ${schema.exclusiveMinimum === true ? '' : 'or equal to '}${schema.minimum}`,
      });
  }
}

function objects(schema: JsonMap, v: JsonMap, path: string, out: SchemaResult, root: boolean): void {
  const props = isMap(schema.properties) ? schema.properties : undefined;
  const extra = schema.additionalProperties;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  for (const req of Array.isArray(schema.required) ? schema.required : []) {
    if (typeof req === 'string' && v[req] === undefined)
      out.errors.push({ type: 'FieldValueRequired', field: join(path, req), detail: '' });
  }
  for (const [k, child] of Object.entries(v)) {
    if (root && ROOT_FIELDS.has(k)) continue;
    const p = join(path, k);
    const s = props?.[k];
    if (isMap(s)) walk(s, child, p, out, false);
    else if (isMap(extra)) walk(extra, child, p, out, false);
    else if (extra === true || preserve || (props === undefined && extra === undefined && schema.type !== 'object'))
      continue;
    else {
      // not in the schema: pruned, as the API server prunes it
      out.unknown.push(p);
      delete v[k];
    }
  }
}

/** Prunes `o` in place and returns what the schema finds wrong with it. */
export function checkAgainstSchema(schema: JsonMap, o: JsonMap): SchemaResult {
  const out: SchemaResult = { errors: [], unknown: [] };
  walk(schema, o, '', out, true);
  return out;
}
