/**
 * Lists, configs, comprehensions and quantifiers.
 */
import type * as A from '../ast.js';
import { kclError } from '../../diagnostics/diagnostics.js';
import { mergeEntry, union } from './config.js';
import { withScope, type Env } from './env.js';
import type { Evaluator } from './evaluator.js';
import { Scope } from './scope.js';
import { widenedTypeText } from './types.js';
import {
  DictValue,
  isDict,
  isInt,
  isList,
  isNoneOrUndefined,
  isNumber,
  isStr,
  toStr,
  truthy,
  typeName,
  type EntryOp,
  type Value,
} from './values.js';

export function evalList(ev: Evaluator, items: A.ListItem[], env: Env, out: Value[] = []): Value[] {
  for (const item of items) {
    if (item.type === 'Starred') {
      out.push(...unpack(ev.evalExpr(item.value, env)));
    } else if (item.type === 'ListIfItem') {
      const branch = chooseBranch<A.ListItem, A.ListIfItem>(ev, item, env);
      if (branch) evalList(ev, branch, env, out);
    } else {
      out.push(ev.evalExpr(item, env));
    }
  }
  return out;
}

/** The body of the first `if`/`elif` whose condition holds, else the `else` body. */
function chooseBranch<T, N extends { cond: A.Expr; body: T[]; orelse?: T[] | N }>(
  ev: Evaluator,
  node: N,
  env: Env,
): T[] | undefined {
  let n: N | T[] | undefined = node;
  while (n && !Array.isArray(n)) {
    if (truthy(ev.evalExpr(n.cond, env))) return n.body;
    n = n.orelse;
  }
  return n;
}

function unpack(v: Value): Value[] {
  if (isNoneOrUndefined(v)) return [];
  if (isList(v)) return v;
  if (isDict(v)) return [...v.entries.keys()];
  throw kclError('TypeError', `'${typeName(v)}' object is not iterable`);
}

export function evalConfig(
  ev: Evaluator,
  node: A.ConfigExpr,
  outer: Env,
  out = new DictValue(),
  named = new Set<string>(),
): DictValue {
  // later values may read keys the config has already set: `{name = "a", label = name}`, only
  // keys written as entries, not those an unpacked dict brought (`{**a, **b}` reads the global b)
  // before v0.5, inside a schema body the schema's own attributes came first (kcl-lang v0.4.6
  // looked a name up in the schema, then in the scopes a config's keys were stored in)
  const schema = ev.options.schemaAttributesBeforeConfigKeys ? outer.scope.schemaScope()?.attrs : undefined;
  const own = (n: string) => (named.has(n) ? out.get(n) : undefined);
  const lookupName = schema ? (n: string) => (schema.hasAttribute(n) ? undefined : own(n)) : own;
  const env =
    ev.options.configKeysInScope === false ? outer : withScope(outer, new Scope(outer.scope, 'config', { lookupName }));
  for (const item of node.items) {
    if (item.type === 'ConfigIfEntry') {
      const branch = chooseBranch<A.ConfigItem, A.ConfigIfEntry>(ev, item, env);
      if (branch) evalConfig(ev, { ...node, items: branch }, outer, out, named);
      continue;
    }
    const key = addEntry(ev, out, item, env);
    if (key !== undefined) named.add(key);
  }
  return out;
}

/** In a dict comprehension the key is an expression (`{k: v for k, v in d}`); in a config a
 * bare name is the key itself. */
/** Adds an entry to a config; gives the key it set, if it has one (an unpacking has none). */
function addEntry(
  ev: Evaluator,
  out: DictValue,
  entry: A.ConfigEntry,
  env: Env,
  keyIsExpr = false,
): string | undefined {
  const value = ev.evalExpr(entry.value, env);
  if (!entry.key) {
    if (isNoneOrUndefined(value)) return undefined;
    if (!isDict(value)) throw kclError('TypeError', `'${typeName(value)}' object is not a mapping`);
    // kcl unpacks with `|=`: a different scalar replaces the one before instead of conflicting
    for (const [k, v] of value.entries) mergeEntry(out, k, v, value.opOf(k), { override: true });
    return undefined;
  }
  if (
    !keyIsExpr &&
    entry.key.type === 'Subscript' &&
    !entry.key.isSlice &&
    entry.key.value.type === 'Identifier' &&
    isIntLiteral(entry.key.index)
  ) {
    insertAtIndex(ev, out, entry.key, value, entry.op, env);
    return entry.key.value.names[0];
  }
  const path =
    keyIsExpr || isLoopVariable(entry.key, env)
      ? [keyText(ev.evalExpr(entry.key, env), entry.key, env)]
      : keyPath(ev, entry.key, env);
  // `k.foo = v` in a comprehension over `k`: the loop variable's value is the first key
  const root = path.length > 1 && !keyIsExpr ? firstName(entry.key) : undefined;
  if (root && isLoopVariable(root, env)) path[0] = keyText(ev.evalExpr(root, env), entry.key, env);
  insertPath(out, path, value, entry.op);
  return path[0];
}

/** `a.b.c: v` nests: `{a: {b: {c: v}}}`, the operator applying to the innermost entry. */
export function insertPath(out: DictValue, path: string[], value: Value, op: EntryOp): void {
  let v = value;
  for (let i = path.length - 1; i > 0; i--) {
    const inner = new DictValue();
    inner.set(path[i], v, i === path.length - 1 ? op : ':');
    v = inner;
  }
  mergeEntry(out, path[0], v, path.length === 1 ? op : ':');
  // in a config written out, a key's last operator is the one it merges with, as kcl records
  // it: `S {**base, val += [1]}` inserts base's `val` and `[1]` into S's default
  if (op === '+=' && path.length === 1) out.set(path[0], out.get(path[0])!, '+=');
}

/** The key of a config entry: a name, a dotted path, a string, or any other expression's text. */
function keyPath(ev: Evaluator, key: A.Expr, env: Env): string[] {
  if (key.type === 'Identifier') return key.names;
  if (key.type === 'Selector') {
    const names: string[] = [];
    let k: A.Expr = key;
    while (k.type === 'Selector' && !k.optional) {
      names.unshift(k.attr);
      k = k.value;
    }
    if (k.type === 'Identifier') return [...k.names, ...names];
  }
  if (key.type === 'StringLit' && !key.parts) return [key.value];
  return [keyText(ev.evalExpr(key, env), key, env)];
}

/** Config keys are strings; numbers are written as text, anything else is refused at the key. */
function keyText(v: Value, key: A.Expr, env: Env): string {
  if (isStr(v)) return v;
  if (isNumber(v) || typeof v === 'boolean') return toStr(v);
  throw kclError('IllegalAttributeError', `A attribute must be string type, got '${widenedTypeText(v)}'`, {
    file: env.file,
    line: key.line,
    column: key.column,
  });
}

/** Only an int written as such (`items[0]`, `items[-1]`) makes a key an index into a list key;
 * any other subscript (`person["relation"]`) is an expression whose value is the key, as in kcl. */
function isIntLiteral(e: A.Expr | undefined): boolean {
  if (e?.type === 'Unary' && e.op === '-') return isIntLiteral(e.operand);
  return e?.type === 'NumberLit' && typeof e.value === 'bigint' && e.suffix === undefined;
}

/** The first name of a dotted key (`k` of `k.foo`), as an expression of its own. */
function firstName(key: A.Expr): A.Identifier | undefined {
  let k = key;
  while (k.type === 'Selector') k = k.value;
  return k.type === 'Identifier' ? { ...k, names: [k.names[0]] } : undefined;
}

/** Inside a comprehension a bare key naming a loop variable means its value, as in kcl. */
function isLoopVariable(key: A.Expr, env: Env): boolean {
  if (key.type !== 'Identifier' || key.names.length !== 1) return false;
  for (let s: Scope | undefined = env.scope; s && (s.kind === 'comprehension' || s.kind === 'config'); s = s.parent) {
    if (s.vars.has(key.names[0])) return true;
  }
  return false;
}

/** `items[i]: v` unifies into element i of a list key, `items[i] = v` replaces it and
 * `items[i] += [v]` inserts before it. */
function insertAtIndex(ev: Evaluator, out: DictValue, key: A.SubscriptExpr, value: Value, op: EntryOp, env: Env): void {
  const name = (key.value as A.Identifier).names.join('.');
  const list = out.get(name) ?? [];
  if (!isList(list)) throw kclError('TypeError', `'${name}' is not a list, so '${name}[…]' can not be set`);
  const index = ev.evalExpr(key.index!, env);
  if (!isInt(index)) throw kclError('TypeError', `list indices must be integers, not ${typeName(index)}`);
  const n = list.length;
  // a negative index counts from the end, as in kcl's union of an indexed entry
  if (index < 0n && index + BigInt(n) < 0n)
    throw kclError('IndexError', `index out of bounds: the len is ${n} but the index is ${index}`);
  const i = Number(index < 0n ? index + BigInt(n) : index);
  const items = [...list];
  if (op === '+=') {
    if (i > n) throw kclError('IndexError', `insertion index (is ${i}) should be <= len (is ${n})`);
    items.splice(i, 0, ...(isList(value) ? value : [value]));
  } else {
    if (i >= n) throw kclError('IndexError', `index out of bounds: the len is ${n} but the index is ${i}`);
    items[i] = op === '=' ? value : union(items[i], value, {}, name);
  }
  out.set(name, items, out.opOf(name));
}

// ---------------------------------------------------------------- comprehensions

/** Runs `for` clauses depth-first, calling `emit` in the innermost scope. */
function loop(ev: Evaluator, clauses: A.CompClause[], env: Env, emit: (env: Env) => void, i = 0): void {
  if (i === clauses.length) {
    emit(env);
    return;
  }
  const c = clauses[i];
  const iterable = ev.evalExpr(c.iter, env);
  for (const bound of iterate(iterable, c.targets.length)) {
    const scope = new Scope(env.scope, 'comprehension');
    c.targets.forEach((t, j) => scope.vars.set(t, bound[j]));
    const inner = withScope(env, scope);
    if (c.ifs.every((cond) => truthy(ev.evalExpr(cond, inner)))) loop(ev, clauses, inner, emit, i + 1);
  }
}

/** The loop variables for each step over a list, dict or string: one or two of them. */
export function* iterate(v: Value, arity: number): Generator<Value[]> {
  if (arity > 2) throw kclError('EvaluationError', 'too many loop variables: at most two are allowed');
  if (isNoneOrUndefined(v)) return;
  if (isList(v) || isStr(v)) {
    const items = isStr(v) ? [...v] : v;
    for (let i = 0; i < items.length; i++) yield arity === 2 ? [BigInt(i), items[i]] : [items[i]];
    return;
  }
  if (isDict(v)) {
    for (const [k, x] of v.entries) yield arity === 2 ? [k, x] : [k];
    return;
  }
  throw kclError('TypeError', `'${typeName(v)}' object is not iterable`);
}

export function evalComprehension(ev: Evaluator, node: A.ListComp, env: Env): Value[] {
  const out: Value[] = [];
  loop(ev, node.generators, env, (inner) => {
    if (node.element.type === 'Starred') out.push(...unpack(ev.evalExpr(node.element.value, inner)));
    else out.push(ev.evalExpr(node.element, inner));
  });
  return out;
}

export function evalDictComp(ev: Evaluator, node: A.DictComp, env: Env): DictValue {
  const out = new DictValue();
  loop(ev, node.generators, env, (inner) => addEntry(ev, out, node.entry, inner, true));
  return out;
}

export function evalQuant(ev: Evaluator, node: A.QuantExpr, env: Env): Value {
  const target = ev.evalExpr(node.iter, env);
  const results: Value[] = [];
  const kept = new DictValue();
  for (const bound of iterate(target, node.targets.length)) {
    const scope = new Scope(env.scope, 'comprehension');
    node.targets.forEach((t, j) => scope.vars.set(t, bound[j]));
    const inner = withScope(env, scope);
    if (node.ifCond && !truthy(ev.evalExpr(node.ifCond, inner))) continue;
    const v = ev.evalExpr(node.test, inner);
    switch (node.op) {
      case 'all':
        if (!truthy(v)) return false;
        break;
      case 'any':
        if (truthy(v)) return true;
        break;
      case 'map':
        results.push(v);
        break;
      case 'filter':
        if (!truthy(v)) break;
        if (isDict(target)) kept.set(bound[0] as string, target.get(bound[0] as string) ?? null);
        else results.push(bound[bound.length - 1]);
    }
  }
  if (node.op === 'all') return true;
  if (node.op === 'any') return false;
  return node.op === 'filter' && isDict(target) ? kept : results;
}
