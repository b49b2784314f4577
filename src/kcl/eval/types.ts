/**
 * Runtime type checks for annotations on variables, attributes, parameters and `as`. A check
 * also converts: a plain dict meeting a schema type becomes an instance of that schema, and so
 * do the elements of `[Schema]` and `{str:Schema}`.
 *
 * As in kcl's runtime, an instance of one schema passes where another schema is expected, except
 * under `as`: which schema a value has is known before running only where kcl's type checker
 * sees it, and config-check.ts checks those places before running.
 */
import type { TypeNode } from '../ast.js';
import { kclError, type KclError } from '../../diagnostics/diagnostics.js';
import {
  DictValue,
  equals,
  isDict,
  isFunction,
  isInt,
  isList,
  isNumber,
  isStr,
  isUnit,
  repr,
  typeName,
  UNDEFINED,
  type Value,
} from './values.js';
import { SETTINGS_ATTR, type SchemaDef } from './schema-def.js';

export interface TypeEnv {
  /** A schema or a type alias by its (possibly dotted) name, seen from where the annotation is. */
  resolveType(name: string[]): SchemaDef | TypeNode | undefined;
  /** Why a named type resolves to nothing, where kcl says more than that the name is not a type
   * (a module without the member named), placed at the annotation. */
  unresolvedType?(t: Extract<TypeNode, { type: 'NamedType' }>): KclError | undefined;
  /** Instantiates a schema from a plain dict. */
  instantiate(schema: SchemaDef, config: DictValue): DictValue;
  /** `as`: an instance must be of the schema named (or one derived from it). */
  strict?: boolean;
}

/** `number_multiplier` and `units.NumberMultiplier` both name the type of `1Ki`; kcl needs no
 * `import units` for the latter. */
const BASIC = new Set([
  'int',
  'float',
  'str',
  'bool',
  'list',
  'dict',
  'any',
  'number_multiplier',
  'units.NumberMultiplier',
]);

/** Whether a type name is one of kcl's own, which no scope binds. */
export function isBasicTypeName(name: string): boolean {
  return BASIC.has(name);
}

/** How a type is printed: kcl's checker and its runtime word the same AST differently. */
interface TypeForm {
  /** What an element, key, value or return type left out prints as. */
  readonly missing: string;
  readonly literal: (t: LiteralTypeNode) => string;
}

/** The checker's form (`float(0) | str(abc) | [any]`): a type left out is any, and it says so. */
const CHECKER_FORM: TypeForm = {
  missing: 'any',
  literal: (t) => (isUnitLiteralType(t) ? `number_multiplier(${t.text})` : literalText(t.value as Value)),
};

/** The runtime's form (`expect 0.0 | "abc" | [], got int`): the AST printed back as written,
 * nothing where a type was left out. */
const WRITTEN_FORM: TypeForm = { missing: '', literal: literalAsWritten };

function printType(t: TypeNode, form: TypeForm): string {
  switch (t.type) {
    case 'AnyType':
      return 'any';
    case 'NamedType':
      return t.name.join('.');
    case 'ListType':
      return `[${printPart(t.element, form)}]`;
    case 'DictType':
      return `{${printPart(t.key, form)}:${printPart(t.value, form)}}`;
    case 'LiteralType':
      return form.literal(t);
    case 'UnionType':
      return t.members.map((m) => printType(m, form)).join(' | ');
    case 'FunctionType': {
      const ret = printPart(t.ret, form);
      return `(${t.params.map((p) => printType(p, form)).join(', ')})${ret && ` -> ${ret}`}`;
    }
  }
}

function printPart(t: TypeNode | undefined, form: TypeForm): string {
  return t ? printType(t, form) : form.missing;
}

/** A type in the words of kcl's checker. */
export function typeText(t: TypeNode): string {
  return printType(t, CHECKER_FORM);
}

/** A type as written, in the words kcl's runtime names a declared type in its errors. */
export function annotationText(t: TypeNode): string {
  return printType(t, WRITTEN_FORM);
}

function literalAsWritten(t: LiteralTypeNode): string {
  const v = t.value;
  if (typeof v === 'string') return `"${v.replaceAll('"', '\\"')}"`;
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'bigint') return `${v}${t.suffix ?? ''}`;
  if (typeof v === 'number') return rustFloat(v);
  return 'None';
}

/** A float as Rust prints it: every digit, never an exponent, and `.0` on a whole number. */
function rustFloat(v: number): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? 'inf' : '-inf';
  const plain = String(v).includes('e') ? expandExponent(v) : String(v);
  return plain.includes('.') ? plain : `${plain}.0`;
}

function expandExponent(v: number): string {
  const [mantissa, exp] = v.toExponential().split('e');
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const point = 1 + Number(exp);
  const body =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${body}` : body;
}

type LiteralTypeNode = Extract<TypeNode, { type: 'LiteralType' }>;

/** `x: 1Ki`: the literal is the number as written, its text has the suffix. */
function isUnitLiteralType(t: LiteralTypeNode): boolean {
  return typeof t.value === 'bigint' && t.text !== String(t.value);
}

function mismatch(t: TypeNode, v: Value): never {
  throw kclError('TypeError', `expected ${typeText(t)}, got ${valueTypeText(v)}`);
}

/** kcl's text for a literal's type: `str(a)`, `int(1)`, `float(1.5)`, `bool(True)`. */
function literalText(v: Value): string {
  if (isStr(v)) return `str(${v})`;
  if (typeof v === 'number') return `float(${Number.isInteger(v) ? String(v) : repr(v)})`;
  if (v === null) return 'NoneType';
  return `${typeName(v)}(${repr(v)})`;
}

function unionText(texts: string[], empty: string): string {
  const seen = [...new Set(texts)];
  return seen.length === 0 ? empty : seen.join(' | ');
}

/** The type kcl infers for a variable holding `v`: literal values widen (`[int | {str:str}]`). */
export function widenedTypeText(v: Value): string {
  if (isList(v)) return `[${unionText(v.map(widenedTypeText), 'any')}]`;
  if (isDict(v)) {
    if (v.schema) return v.schema.name;
    return `{${v.size === 0 ? 'any' : 'str'}:${unionText([...v.entries.values()].map(widenedTypeText), 'any')}}`;
  }
  if (v === null) return 'NoneType';
  return typeName(v);
}

/** The type kcl gives a value written as a literal: `[int(1) | str(2)]`, `{str(a):int(1)}`. */
export function valueTypeText(v: Value): string {
  if (isList(v)) return `[${unionText(v.map(valueTypeText), 'any')}]`;
  if (isDict(v)) {
    if (v.schema) return v.schema.name;
    const keys = [...v.entries.keys()].map((k) => literalText(k));
    const values = [...v.entries.values()].map(valueTypeText);
    return `{${unionText(keys, 'any')}:${unionText(values, 'any')}}`;
  }
  if (isStr(v) || isNumber(v) || typeof v === 'boolean' || v === null) return literalText(v);
  return typeName(v);
}

export function isSchemaDef(x: SchemaDef | TypeNode): x is SchemaDef {
  return 'kind' in x && x.kind === 'schemaType';
}

/** True when `inst` is an instance of `schema` or of a schema derived from it. */
export function instanceOf(inst: DictValue, schema: SchemaDef): boolean {
  for (let s = inst.schema as SchemaDef | undefined; s; s = s.parent) if (s === schema) return true;
  return false;
}

/** Checks `v` against `t` and returns it, converted where the type asks for a schema. */
export function convert(v: Value, t: TypeNode | undefined, env: TypeEnv): Value {
  if (!t || v === null || v === UNDEFINED) return v;
  switch (t.type) {
    case 'AnyType':
      return v;
    case 'LiteralType':
      return literalMatches(v, t) ? v : mismatch(t, v);
    case 'ListType': {
      if (!isList(v)) return mismatch(t, v);
      if (!t.element) return v;
      const el = t.element;
      let changed = false;
      const out = v.map((x) => {
        const y = convert(x, el, env);
        if (y !== x) changed = true;
        return y;
      });
      return changed ? out : v;
    }
    case 'DictType': {
      if (!isDict(v)) return mismatch(t, v);
      if (!t.value && !t.key) return v;
      let out: DictValue | undefined;
      for (const [k, x] of v.entries) {
        // an instance's settings describe how it is output; they are not one of its entries
        if (v.schema && k === SETTINGS_ATTR) continue;
        if (t.key) convert(k, t.key, env);
        const y = t.value ? convert(x, t.value, env) : x;
        if (y !== x) {
          out ??= cloneShallow(v);
          out.entries.set(k, y);
        }
      }
      return out ?? v;
    }
    case 'UnionType': {
      let lastError: unknown;
      for (const m of t.members) {
        if (!matchesShape(v, m, env)) continue;
        try {
          return convert(v, m, env);
        } catch (e) {
          lastError = e;
        }
      }
      if (lastError) throw lastError;
      return mismatch(t, v);
    }
    case 'FunctionType':
      return isFunction(v) ? v : mismatch(t, v);
    case 'NamedType':
      return convertNamed(v, t, env);
  }
}

/** A literal type matches a value of the same type and value: `0` does not accept `0.0`, `1Ki`
 * only the number multiplier written so. */
function literalMatches(v: Value, t: LiteralTypeNode): boolean {
  if (isUnit(v) || isUnitLiteralType(t)) return isUnit(v) && v.text === t.text;
  const lit = t.value as Value;
  return typeof v === typeof lit && equals(v, lit);
}

function cloneShallow(v: DictValue): DictValue {
  const d = new DictValue(v.entries);
  if (v.ops) d.ops = new Map(v.ops);
  d.schema = v.schema;
  return d;
}

/** `a.b.c` from its parts, without joining the one-part names nearly every type has: a type is
 * converted at every attribute an instance sets. */
export function dottedName(parts: readonly string[]): string {
  return parts.length === 1 ? parts[0] : parts.join('.');
}

/** A cheap pre-check for unions, so `int | str` does not try to convert a str into an int. */
function matchesShape(v: Value, t: TypeNode, env: TypeEnv): boolean {
  switch (t.type) {
    case 'ListType':
      return isList(v);
    case 'DictType':
      return isDict(v) && !v.schema;
    case 'LiteralType':
      return literalMatches(v, t);
    case 'NamedType': {
      const name = dottedName(t.name);
      if (BASIC.has(name)) return basicMatches(name, v);
      const resolved = env.resolveType(t.name);
      if (!resolved) return false;
      if (isSchemaDef(resolved)) return isDict(v) && (!v.schema || !env.strict || instanceOf(v, resolved));
      return matchesShape(v, resolved, env);
    }
    default:
      return true;
  }
}

function basicMatches(name: string, v: Value): boolean {
  switch (name) {
    case 'int':
      return isInt(v);
    case 'float':
      return isNumber(v);
    case 'number_multiplier':
    case 'units.NumberMultiplier':
      return isUnit(v);
    case 'str':
      return isStr(v);
    case 'bool':
      return typeof v === 'boolean';
    case 'list':
      return isList(v);
    case 'dict':
      return isDict(v);
    default:
      return true;
  }
}

function convertNamed(v: Value, t: Extract<TypeNode, { type: 'NamedType' }>, env: TypeEnv): Value {
  const name = dottedName(t.name);
  if (BASIC.has(name)) {
    if (!basicMatches(name, v)) mismatch(t, v);
    // kcl keeps an int assigned to a float-typed name as a float
    return name === 'float' && isInt(v) ? Number(v) : v;
  }
  const resolved = env.resolveType(t.name);
  if (!resolved) throw env.unresolvedType?.(t) ?? kclError('TypeError', `name '${name}' is not defined as a type`);
  if (!isSchemaDef(resolved)) return convert(v, resolved, env);
  return convertToSchema(v, resolved, env, name);
}

/** `v` as an instance of `schema`, which the source calls `name`: a plain dict is instantiated. */
export function convertToSchema(v: Value, schema: SchemaDef, env: TypeEnv, name = schema.name): Value {
  if (v === null || v === UNDEFINED) return v;
  if (!isDict(v)) throw kclError('TypeError', `expected ${name}, got ${valueTypeText(v)}`);
  if (v.schema) {
    if (instanceOf(v, schema) || !env.strict) return v;
    throw kclError('TypeError', `expected ${name}, got ${v.schema.name}`);
  }
  return env.instantiate(schema, v);
}

const NO_LOC = { line: 0, column: 0, endLine: 0, endColumn: 0 };
const named = (name: string): TypeNode => ({ type: 'NamedType', name: [name], loc: NO_LOC });

function unionOf(types: TypeNode[]): TypeNode | undefined {
  const seen = new Map<string, TypeNode>();
  for (const t of types) seen.set(typeText(t), t);
  const members = [...seen.values()];
  if (members.length === 0) return undefined;
  return members.length === 1 ? members[0] : { type: 'UnionType', members, loc: NO_LOC };
}

/** The type kcl infers for a variable from its first value: `["s", 1]` is `[str | int]`. */
export function inferType(v: Value): TypeNode {
  if (v === null || v === UNDEFINED) return { type: 'AnyType', loc: NO_LOC };
  if (isList(v)) return { type: 'ListType', element: unionOf(v.map(inferType)), loc: NO_LOC };
  if (isDict(v)) {
    if (v.schema) return { type: 'NamedType', name: [v.schema.name], loc: NO_LOC };
    return { type: 'DictType', key: named('str'), value: unionOf([...v.entries.values()].map(inferType)), loc: NO_LOC };
  }
  if (typeof v === 'boolean' || isNumber(v) || isStr(v)) return named(typeName(v));
  return { type: 'AnyType', loc: NO_LOC };
}
