/**
 * What kcl's type checker finds in a config literal before anything runs: every key it may set,
 * on any branch of its `if` entries, must be an attribute of the schema, and a literal value must
 * fit the attribute's type. Nested config literals under schema-typed attributes are checked
 * against their schema. So is an instance written in place (`S {...}`, `S()`) where another
 * schema is declared: kcl's runtime lets any instance through, only its checker refuses these.
 * The messages and places are kcl's, and so is going on past a problem: every entry of a literal
 * is checked and all its problems are reported together.
 */
import type * as A from '../ast.js';
import { KclError, kclError, throwAll, type Diagnostic, type Position } from '../../diagnostics/diagnostics.js';
import { didYouMean } from '../suggestions.js';
import { lookupKeyPath, type KeyPart } from './key-path.js';
import { allAttrs, attributeNames, indexSignature, type AttrDecl, type SchemaDef } from './schema-def.js';
import { convert, dottedName, isSchemaDef, typeText, valueTypeText, type TypeEnv } from './types.js';
import { DictValue, UnitValue, type Value } from './values.js';

function at(file: string, loc: { line: number; column: number }): Position {
  return { file, line: loc.line, column: loc.column };
}

export function checkConfigKeys(def: SchemaDef, items: A.ConfigItem[], env: TypeEnv, file: string): void {
  const attrs = allAttrs(def);
  const known = attributeNames(def);
  const sig = indexSignature(def);
  const open = Boolean(sig) || def.isRule;
  const problems: Diagnostic[] = [];
  const visit = (list: A.ConfigItem[]) => {
    for (const i of list) {
      if (i.type === 'ConfigIfEntry') {
        visit(i.body);
        if (Array.isArray(i.orelse)) visit(i.orelse);
        else if (i.orelse) visit([i.orelse]);
        continue;
      }
      const path = lookupKeyPath(i.key);
      if (!path) continue;
      const [head, ...rest] = path;
      if (!known.has(head.name)) {
        if (!open)
          problems.push({
            kind: 'CompileError',
            message: `Cannot add member '${head.name}' to schema '${def.name}'${didYouMean(head.name, known)}`,
            position: at(file, head.loc),
          });
        else if (sig && rest.length === 0)
          problems.push(...indexSignatureMismatches(def, sig, i, head.name, env, file));
        continue;
      }
      const decl = attrs.get(head.name);
      try {
        if (decl?.type) checkValue(decl, decl.type, rest, i, env, file);
      } catch (e) {
        if (!(e instanceof KclError)) throw e;
        problems.push(e.diagnostic);
      }
    }
  };
  visit(items);
  throwAll(problems);
}

/**
 * A key the schema does not declare, checked against its index signature: a key outside a key
 * type made of string literals cannot be added (kcl offers the literals), and a literal value
 * must fit the value type, reported at the key.
 */
function indexSignatureMismatches(
  def: SchemaDef,
  sig: A.IndexSignature,
  entry: A.ConfigEntry,
  key: string,
  env: TypeEnv,
  file: string,
): Diagnostic[] {
  const place = at(file, entry.key ?? entry);
  const keys = stringLiterals(sig.keyType, env);
  if (keys && !keys.includes(key))
    return [
      {
        kind: 'CompileError',
        message: `Cannot add member '${key}' to schema '${def.name}'${didYouMean(key, keys)}`,
        position: place,
      },
    ];
  const value = entry.op === '+=' ? undefined : literalValueOf(entry.value);
  if (value === undefined || !isPlain(sig.valueType, env)) return [];
  try {
    convert(value, sig.valueType, env);
    return [];
  } catch (e) {
    if (!(e instanceof KclError)) throw e;
  }
  const message = `expected ${declaredTypeText(sig.valueType, env)}, got ${valueTypeText(value)}`;
  return [{ kind: 'TypeError', message, position: place }];
}

/** The strings a key type made only of string literals (maybe through an alias) allows. */
function stringLiterals(t: A.TypeNode, env: TypeEnv): string[] | undefined {
  if (t.type === 'LiteralType') return typeof t.value === 'string' ? [t.value] : undefined;
  if (t.type === 'UnionType') {
    const all = t.members.map((m) => stringLiterals(m, env));
    return all.every((m): m is string[] => m !== undefined) ? all.flat() : undefined;
  }
  if (t.type !== 'NamedType') return undefined;
  const resolved = env.resolveType(t.name);
  return resolved && !('kind' in resolved) ? stringLiterals(resolved, env) : undefined;
}

/** Follows a dotted key into schema-typed attributes, then checks the value written there. */
function checkValue(
  decl: AttrDecl,
  type: A.TypeNode,
  rest: ReturnType<typeof lookupKeyPath> & object,
  entry: A.ConfigEntry,
  env: TypeEnv,
  file: string,
): void {
  const resolved = type.type === 'NamedType' ? env.resolveType(type.name) : undefined;
  const def = resolved && 'kind' in resolved && resolved.kind === 'schemaType' ? (resolved as SchemaDef) : undefined;
  if (rest.length > 0 && def) {
    const [next, ...more] = rest;
    const inner = allAttrs(def).get(next.name);
    if (!inner) {
      if (indexSignature(def) || attributeNames(def).has(next.name)) return;
      throw kclError(
        'CompileError',
        `Cannot add member '${next.name}' to schema '${def.name}'${didYouMean(next.name, attributeNames(def))}`,
        at(file, next.loc),
      );
    }
    if (inner.type) checkValue(inner, inner.type, more, entry, env, file);
    return;
  }
  const members = rest.length > 0 && type.type === 'UnionType' ? unionSchemas(type, env) : undefined;
  if (members) {
    const next = rest[0];
    if (members.some((m) => indexSignature(m) || attributeNames(m).has(next.name))) return;
    throw kclError(
      'CompileError',
      `Cannot add member '${next.name}' to 'schemas [${members.map((m) => JSON.stringify(m.name)).join(', ')}]'`,
      at(file, next.loc),
    );
  }
  if (entry.op === '+=') return;
  if (def && rest.length === 0 && entry.value.type === 'ConfigExpr') {
    checkConfigKeys(def, entry.value.items, env, file);
    return;
  }
  const given = rest.length === 0 ? schemaWritten(entry.value, env) : undefined;
  if (given && !fitsSchema(type, given, env)) {
    const expected = declaredTypeText(type, env);
    throw kclError('TypeError', `expected ${expected}, got ${given.name}`, at(file, entry.key ?? entry), {
      related: [
        { position: decl.at, message: `variable is defined here, its type is ${expected}, but got ${given.name}` },
      ],
    });
  }
  if (isPlain(type, env)) throwAll(literalMismatches(type, entry, rest, decl.at, env, file));
}

/** The schemas of a union made only of schemas (`A | B`), or undefined. */
function unionSchemas(type: Extract<A.TypeNode, { type: 'UnionType' }>, env: TypeEnv): SchemaDef[] | undefined {
  const members = type.members.map((m) => (m.type === 'NamedType' ? asSchema(env.resolveType(m.name)) : undefined));
  return members.every((m): m is SchemaDef => m !== undefined) ? members : undefined;
}

/**
 * A literal value that does not fit its attribute's type. Where a dict literal does not fit a
 * dict type, kcl first reports each of its entries that does not fit the value type, the
 * innermost first, each pointing at the attribute's declaration with the type expected there.
 */
function literalMismatches(
  type: A.TypeNode,
  entry: A.ConfigEntry,
  rest: KeyPart[],
  declaredAt: Position,
  env: TypeEnv,
  file: string,
): Diagnostic[] {
  let value = literalValueOf(entry.value);
  if (value === undefined) return [];
  for (let i = rest.length - 1; i >= 0; i--) value = new DictValue([[rest[i].name, value]]);
  if (!failsBeforeRunning(value, type, env)) return [];
  const inner: Diagnostic[] = [];
  if (rest.length === 0 && type.type === 'DictType' && type.value && entry.value.type === 'ConfigExpr') {
    for (const i of entry.value.items)
      if (i.type === 'ConfigEntry' && i.key) inner.push(...literalMismatches(type.value, i, [], declaredAt, env, file));
  }
  const got = valueTypeText(value);
  const expected = declaredTypeText(type, env);
  return [
    ...inner,
    {
      kind: 'TypeError',
      message: `expected ${expected}, got ${got}`,
      position: at(file, entry.key ?? entry),
      related: [{ position: declaredAt, message: `variable is defined here, its type is ${expected}, but got ${got}` }],
    },
  ];
}

/**
 * A literal argument of a lambda call that does not fit its parameter's type, as kcl's checker
 * reports it before running: at the argument, with the parameter's declaration beside it.
 */
export function literalArgumentMismatch(
  param: A.Param,
  arg: A.Expr,
  env: TypeEnv,
  file: string,
  paramFile: string,
): Diagnostic | undefined {
  if (!param.annotation) return undefined;
  const literal = literalValueOf(arg);
  if (literal === undefined || !isPlain(param.annotation, env)) return undefined;
  if (!failsBeforeRunning(literal, param.annotation, env)) return undefined;
  const expected = declaredTypeText(param.annotation, env);
  const got = valueTypeText(literal);
  return {
    kind: 'TypeError',
    message: `expected ${expected}, got ${got}`,
    position: at(file, arg),
    related: [
      {
        position: at(paramFile, param.loc),
        message: `variable is defined here, its type is ${expected}, but got ${got}`,
      },
    ],
  };
}

/** `1 as str`: a literal that cannot be the type it is cast to, in the words of kcl's checker. */
export function literalCastProblem(value: A.Expr, target: A.TypeNode, env: TypeEnv): string | undefined {
  if (!isPlain(target, env)) return undefined;
  const literal = literalValueOf(value);
  if (literal === undefined) return undefined;
  try {
    convert(literal, target, env);
    return undefined;
  } catch (e) {
    if (!(e instanceof KclError)) throw e;
  }
  return `Conversion of type '${valueTypeText(literal)}' to type '${typeText(target)}' may be a mistake because neither type sufficiently overlaps with the other`;
}

/**
 * Whether a literal value fails its declared type before anything runs. kcl's checker decides
 * that by its `subsume` of the value's literal type, which is looser than the runtime's
 * conversion in one place: an int (or a bool) goes where a float is declared, a float literal
 * type among them (`x: 0.0` given `0`), and the runtime judges it then, in its own words.
 */
function failsBeforeRunning(v: Value, t: A.TypeNode, env: TypeEnv): boolean {
  try {
    convert(v, t, env);
    return false;
  } catch (e) {
    if (!(e instanceof KclError)) throw e;
  }
  return !checkerLetsThrough(v, t, env);
}

function checkerLetsThrough(v: Value, t: A.TypeNode, env: TypeEnv): boolean {
  if (v === null) return true;
  switch (t.type) {
    case 'AnyType':
      return true;
    case 'UnionType':
      return t.members.some((m) => checkerLetsThrough(v, m, env));
    case 'NamedType': {
      const name = dottedName(t.name);
      if (name === 'float') return typeof v === 'bigint' || typeof v === 'boolean';
      const alias = env.resolveType(t.name);
      return alias !== undefined && !isSchemaDef(alias) && checkerLetsThrough(v, alias, env);
    }
    case 'LiteralType':
      return typeof t.value === 'number' && typeof v === 'bigint';
    case 'ListType':
      return Array.isArray(v) && t.element !== undefined && v.every((x) => !failsBeforeRunning(x, t.element!, env));
    case 'DictType':
      return (
        v instanceof DictValue &&
        t.value !== undefined &&
        [...v.entries.values()].every((x) => !failsBeforeRunning(x, t.value!, env))
      );
    default:
      return false;
  }
}

/** Types whose check cannot run code: no schema, so converting a literal has no side effect. */
function isPlain(t: A.TypeNode, env: TypeEnv): boolean {
  switch (t.type) {
    case 'NamedType': {
      const r = env.resolveType(t.name);
      return r === undefined
        ? ['int', 'float', 'str', 'bool', 'list', 'dict', 'any'].includes(t.name.join('.'))
        : !('kind' in r) && isPlain(r, env);
    }
    case 'ListType':
      return !t.element || isPlain(t.element, env);
    case 'DictType':
      return (!t.key || isPlain(t.key, env)) && (!t.value || isPlain(t.value, env));
    case 'UnionType':
      return t.members.every((m) => isPlain(m, env));
    default:
      return true;
  }
}

/** The value of an expression made only of literals, or undefined. */
function literalValueOf(e: A.Expr): Value | undefined {
  switch (e.type) {
    case 'StringLit':
      return e.parts ? undefined : e.value;
    case 'NumberLit':
      return e.suffix ? new UnitValue(e.value as bigint, e.suffix) : e.value;
    case 'NameConstant':
      return typeof e.value === 'boolean' || e.value === null ? e.value : undefined;
    case 'ListExpr': {
      const items: Value[] = [];
      for (const i of e.items) {
        if (i.type === 'Starred' || i.type === 'ListIfItem') return undefined;
        const v = literalValueOf(i);
        if (v === undefined) return undefined;
        items.push(v);
      }
      return items;
    }
    case 'ConfigExpr': {
      const d = new DictValue();
      for (const i of e.items) {
        if (i.type !== 'ConfigEntry' || !i.key || i.op !== ':') return undefined;
        const k =
          i.key.type === 'StringLit' && !i.key.parts
            ? i.key.value
            : i.key.type === 'Identifier' && i.key.names.length === 1
              ? i.key.names[0]
              : undefined;
        const v = literalValueOf(i.value);
        if (k === undefined || v === undefined) return undefined;
        d.set(k, v);
      }
      return d;
    }
    default:
      return undefined;
  }
}

/** Defaults written in a schema body are checked like configs, before anything runs: a config
 * literal for a schema-typed attribute, a literal value, or an instance of another schema. */
export function checkDefaults(def: SchemaDef, env: TypeEnv): void {
  if (def.node.type !== 'Schema') return;
  const problems: Diagnostic[] = [];
  for (const stmt of def.node.body) {
    if (stmt.type !== 'Attr' || !stmt.value) continue;
    try {
      checkDefault(stmt, stmt.value, def.file, env);
    } catch (e) {
      if (!(e instanceof KclError)) throw e;
      problems.push(e.diagnostic);
    }
  }
  throwAll(problems);
}

function checkDefault(stmt: A.AttrStmt, value: A.Expr, file: string, env: TypeEnv): void {
  const resolved = stmt.annotation.type === 'NamedType' ? env.resolveType(stmt.annotation.name) : undefined;
  const schema = resolved && 'kind' in resolved && resolved.kind === 'schemaType' ? (resolved as SchemaDef) : undefined;
  const place = { file, line: stmt.nameLoc.line, column: stmt.nameLoc.column };
  if (schema && value.type === 'ConfigExpr') {
    checkConfigKeys(schema, value.items, env, file);
  } else if (schemaWritten(value, env)) {
    checkWrittenInstance(stmt.annotation, value, env, place);
  } else if (isPlain(stmt.annotation, env)) {
    const literal = literalValueOf(value);
    if (literal === undefined || !failsBeforeRunning(literal, stmt.annotation, env)) return;
    throw kclError('TypeError', `expected ${typeText(stmt.annotation)}, got ${valueTypeText(literal)}`, place);
  }
}

function derives(def: SchemaDef, base: SchemaDef): boolean {
  for (let s: SchemaDef | undefined = def; s; s = s.parent) if (s === base) return true;
  return false;
}

function asSchema(r: SchemaDef | A.TypeNode | undefined): SchemaDef | undefined {
  return r && 'kind' in r && r.kind === 'schemaType' ? (r as SchemaDef) : undefined;
}

/** The schema of an instance written in place: `S {...}` or `S(...)`, maybe in parentheses. */
export function schemaWritten(e: A.Expr, env: TypeEnv): SchemaDef | undefined {
  const inner = e.type === 'Paren' ? e.value : e;
  const name = inner.type === 'SchemaExpr' ? inner.name : inner.type === 'Call' ? inner.func : undefined;
  return name?.type === 'Identifier' ? asSchema(env.resolveType(name.names)) : undefined;
}

/** Whether kcl's checker lets an instance of `given` be where `type` is declared. Only schema
 * types are decided here; the runtime check refuses an instance anywhere else. */
export function fitsSchema(type: A.TypeNode, given: SchemaDef, env: TypeEnv): boolean {
  switch (type.type) {
    case 'NamedType': {
      const r = env.resolveType(type.name);
      const schema = asSchema(r);
      if (schema) return derives(given, schema);
      return r === undefined || fitsSchema(r as A.TypeNode, given, env);
    }
    case 'UnionType':
      return type.members.some((m) => fitsSchema(m, given, env));
    default:
      return true;
  }
}

/** A declared type as kcl's checker names it in a message: a schema by its name alone
 * (`Person`, not `pkg.Person`). */
export function declaredTypeText(type: A.TypeNode, env: TypeEnv): string {
  switch (type.type) {
    case 'NamedType': {
      // kcl's checker names a schema, and spells a type alias out
      const resolved = env.resolveType(type.name);
      const schema = asSchema(resolved);
      if (schema) return schema.name;
      return resolved === undefined || 'kind' in resolved ? typeText(type) : declaredTypeText(resolved, env);
    }
    case 'UnionType':
      return type.members.map((m) => declaredTypeText(m, env)).join(' | ');
    case 'ListType':
      return type.element ? `[${declaredTypeText(type.element, env)}]` : typeText(type);
    case 'DictType':
      return type.key && type.value
        ? `{${declaredTypeText(type.key, env)}:${declaredTypeText(type.value, env)}}`
        : typeText(type);
    default:
      return typeText(type);
  }
}

/** `x: T = S {...}`: kcl's checker refuses an instance of a schema that is not (derived from) T. */
export function checkWrittenInstance(type: A.TypeNode, value: A.Expr, env: TypeEnv, place: Position): void {
  const given = schemaWritten(value, env);
  if (given && !fitsSchema(type, given, env))
    throw kclError('TypeError', `expected ${declaredTypeText(type, env)}, got ${given.name}`, place);
}
