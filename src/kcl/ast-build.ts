/**
 * The builders of the syntax tree, one per node shape, called by both readers of the grammar: the
 * recursive-descent reader (descent.ts) and the grammar's own postprocessors (for what the Earley
 * parser reads). So a node is made the same way whichever reader found it. They stay cheap: no
 * parsing here.
 */
import type * as A from './ast.js';
import { Token } from './lexer.js';
import { decodeString } from './strings.js';

export type Located = Token | A.Loc;

/** Writes the span from the start of `first` to the end of `last` into `out`. */
function fill(out: A.Loc, first: Located, last: Located): A.Loc {
  if (first instanceof Token) {
    out.line = first.line;
    out.column = first.col;
  } else {
    out.line = first.line;
    out.column = first.column;
  }
  if (last instanceof Token) {
    fillEnd(out, last);
  } else {
    out.endLine = last.endLine;
    out.endColumn = last.endColumn;
  }
  return out;
}

/** Writes where token `tok` ends into `out`. */
function fillEnd(out: A.Loc, tok: Token): void {
  if (tok.lineBreaks === 0) {
    out.endLine = tok.line;
    out.endColumn = tok.col + Math.max(0, tok.text.length - 1);
  } else {
    out.endLine = tok.line + tok.lineBreaks;
    out.endColumn = Math.max(1, tok.text.length - 1 - tok.text.lastIndexOf('\n'));
  }
}

/** A span to keep (a `loc` field). */
export function loc(first: Located, last: Located = first): A.Loc {
  return fill({ line: 0, column: 0, endLine: 0, endColumn: 0 }, first, last);
}

const scratch: A.Loc = { line: 0, column: 0, endLine: 0, endColumn: 0 };

/** A span to copy into a node's fields at once: one shared object, so building a node allocates
 * only the node. Never keep what it returns. The fields are written out in the node's literal
 * rather than spread: V8 gives a literal room for the fields it names, and puts the ones a spread
 * adds in a second, slower object. */
export function span(first: Located, last: Located = first): A.Loc {
  return fill(scratch, first, last);
}

/** `span(tok)`, for the many nodes of one token: the checks of what `first` and `last` are,
 * which see every kind of node, are slow. */
function tokenSpan(tok: Token): A.Loc {
  scratch.line = tok.line;
  scratch.column = tok.col;
  fillEnd(scratch, tok);
  return scratch;
}

/** nearley hands over nested arrays for EBNF groups; this picks the last located thing. */
export function lastOf(...xs: unknown[]): Located {
  for (let i = xs.length - 1; i >= 0; i--) {
    const x = xs[i];
    if (x === null || x === undefined) continue;
    if (Array.isArray(x)) {
      if (x.length === 0) continue;
      return lastOf(...x);
    }
    return x as Located;
  }
  throw new Error('no located element');
}

// ---------------------------------------------------------------- atoms

export function identifier(tok: Token): A.Identifier {
  const s = tokenSpan(tok);
  return {
    type: 'Identifier',
    names: [tok.value],
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function dotted(first: Token, rest: [Token, Token][]): A.Identifier {
  const names = [first.value];
  for (const [, t] of rest) names.push(t.value);
  const s = span(first, rest.length ? rest[rest.length - 1][1] : first);
  return { type: 'Identifier', names, line: s.line, column: s.column, endLine: s.endLine, endColumn: s.endColumn };
}

function intLit(tok: Token): A.NumberLit {
  const text = tok.text.replace(/_/g, '');
  // a unit suffix makes a number multiplier: the number as written, and its suffix
  const m = /^(\d+)([numkKMGTP]i?)$/.exec(text);
  if (m) {
    const s = tokenSpan(tok);
    return {
      type: 'NumberLit',
      value: BigInt(m[1]),
      suffix: m[2],
      line: s.line,
      column: s.column,
      endLine: s.endLine,
      endColumn: s.endColumn,
    };
  }
  return integer(tok, /^0[0-7]+$/.test(text) ? BigInt('0o' + text.slice(1)) : BigInt(text));
}

/** The literal of an integer without a unit suffix. */
function integer(tok: Token, value: bigint): A.NumberLit {
  const s = tokenSpan(tok);
  return { type: 'NumberLit', value, line: s.line, column: s.column, endLine: s.endLine, endColumn: s.endColumn };
}

/** The bigints of the small ints most literals are, made once: BigInt of a text parses it each
 * time, and a bigint is immutable, so literals can share one. */
const SMALL_INTS: readonly bigint[] = Array.from({ length: 1024 }, (_, i) => BigInt(i));

export function numberLit(tok: Token): A.NumberLit {
  const text = tok.text;
  if (isPlainDecimal(text)) return integer(tok, text.length <= 4 && +text < 1024 ? SMALL_INTS[+text] : BigInt(text));
  return /^\d[\d_]*[numkKMGTP]?i?$|^0[xXoObB]/.test(tok.text) ? intLit(tok) : floatLit(tok);
}

/** Digits only, without a leading zero (`0` itself aside): most of a file's numbers, which need
 * none of the patterns for separators, suffixes, bases and floats. */
function isPlainDecimal(text: string): boolean {
  if (text.length > 1 && text.charCodeAt(0) === 48) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function floatLit(tok: Token): A.NumberLit {
  const s = tokenSpan(tok);
  return {
    type: 'NumberLit',
    value: Number(tok.text.replace(/_/g, '')),
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function constant(tok: Token): A.NameConstant {
  const value = tok.text === 'True' ? true : tok.text === 'False' ? false : tok.text === 'None' ? null : 'Undefined';
  const s = tokenSpan(tok);
  return { type: 'NameConstant', value, line: s.line, column: s.column, endLine: s.endLine, endColumn: s.endColumn };
}

export function stringLit(tok: Token): A.StringLit {
  return decodeString(tok, tokenSpan(tok));
}

// ---------------------------------------------------------------- operators

export type ChainItem = A.Expr | A.BinaryOp;

export function unary(opTok: Token | null, value: A.Expr): A.Expr {
  if (!opTok) return value;
  const s = span(opTok, value);
  return {
    type: 'Unary',
    op: opTok.text as A.UnaryOp,
    operand: value,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function binop(toks: Token[]): A.BinaryOp {
  return toks.map((t) => t.text).join(' ') as A.BinaryOp;
}

/** The precedence of binary operators, as kcl's parser has them (higher binds tighter). */
const PRECEDENCE: Record<A.BinaryOp, number> = {
  or: 2,
  and: 3,
  '==': 4,
  '!=': 4,
  in: 5,
  'not in': 5,
  is: 6,
  'is not': 6,
  '<': 7,
  '<=': 7,
  '>': 7,
  '>=': 7,
  '|': 8,
  '^': 9,
  '&': 10,
  '<<': 11,
  '>>': 11,
  '+': 12,
  '-': 12,
  '*': 13,
  '/': 13,
  '//': 13,
  '%': 13,
  '**': 14,
};
const COMPARISONS = new Set<A.BinaryOp>(['==', '!=', '<', '<=', '>', '>=', 'in', 'not in', 'is', 'is not']);

/** Folds a flat `operand (op operand)*` chain into a tree by precedence climbing; comparison
 * runs become one Compare node like kcl's (`a < b < c`). */
export function chain(items: ChainItem[]): A.Expr {
  if (items.length === 1) return items[0] as A.Expr;
  return climb({ items, pos: 0 }, 0);
}

/** A chain being folded, and how far. */
interface Folding {
  readonly items: ChainItem[];
  pos: number;
}

/** The operand at `f.pos` with every operator after it that binds tighter than `minPrec`. */
function climb(f: Folding, minPrec: number): A.Expr {
  const items = f.items;
  let left = items[f.pos++] as A.Expr;
  let compare: A.CompareExpr | undefined;
  while (f.pos < items.length) {
    const op = items[f.pos] as A.BinaryOp;
    const prec = PRECEDENCE[op];
    if (prec <= minPrec) break;
    f.pos++;
    const right = climb(f, prec);
    if (COMPARISONS.has(op)) {
      if (!compare) {
        const s = span(left);
        compare = {
          type: 'Compare',
          left,
          ops: [],
          comparators: [],
          line: s.line,
          column: s.column,
          endLine: s.endLine,
          endColumn: s.endColumn,
        };
      }
      compare.ops.push(op);
      compare.comparators.push(right);
      compare.endLine = right.endLine;
      compare.endColumn = right.endColumn;
      continue;
    }
    if (compare) {
      left = compare;
      compare = undefined;
    }
    const s = span(left, right);
    left = {
      type: 'Binary',
      op,
      left,
      right,
      line: s.line,
      column: s.column,
      endLine: s.endLine,
      endColumn: s.endColumn,
    };
  }
  return compare ?? left;
}

export function asExpr(value: A.Expr, target: A.TypeNode): A.AsExpr {
  const s = span(value, target.loc);
  return { type: 'As', value, target, line: s.line, column: s.column, endLine: s.endLine, endColumn: s.endColumn };
}

export function ifExpr(body: A.Expr, cond: A.Expr, orelse: A.Expr): A.IfExpr {
  const s = span(body, orelse);
  return {
    type: 'IfExpr',
    body,
    cond,
    orelse,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function paren(open: Token, value: A.Expr, close: Token): A.ParenExpr {
  const s = span(open, close);
  return { type: 'Paren', value, line: s.line, column: s.column, endLine: s.endLine, endColumn: s.endColumn };
}

export function starred(star: Token, value: A.Expr): A.StarredExpr {
  const s = span(star, value);
  return { type: 'Starred', value, line: s.line, column: s.column, endLine: s.endLine, endColumn: s.endColumn };
}

export function quantExpr(
  op: Token,
  first: Token,
  second: [Token, Token] | null,
  iter: A.Expr,
  test: A.Expr,
  ifPart: [Token, A.Expr] | null,
  close: Token,
): A.QuantExpr {
  const s = span(op, close);
  return {
    type: 'QuantExpr',
    op: op.text as A.QuantExpr['op'],
    targets: second ? [first.value, second[1].value] : [first.value],
    iter,
    test,
    ifCond: ifPart?.[1],
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function lambdaExpr(
  lambdaTok: Token,
  params: A.Param[] | null,
  returns: [Token, A.TypeNode] | null,
  body: A.Stmt[],
  close: Token,
): A.LambdaExpr {
  const s = span(lambdaTok, close);
  return {
    type: 'Lambda',
    params: params ?? [],
    returnType: returns?.[1],
    body,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

// ---------------------------------------------------------------- postfix

type SubscriptParts = Omit<A.SubscriptExpr, 'type' | 'value' | 'optional' | keyof A.Loc>;

export function selector(value: A.Expr, name: Token, optional: boolean): A.SelectorExpr {
  const s = span(value, name);
  return {
    type: 'Selector',
    value,
    attr: name.value,
    optional,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function subscript(value: A.Expr, sub: SubscriptParts, optional: boolean, end: Token): A.SubscriptExpr {
  const s = span(value, end);
  return {
    type: 'Subscript',
    value,
    optional,
    ...sub,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function call(func: A.Expr, args: Arg[], end: Token): A.CallExpr {
  const split = splitArgs(args);
  const s = span(func, end);
  return {
    type: 'Call',
    func,
    args: split.args,
    keywords: split.keywords,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function subscriptIndex(index: A.Expr): SubscriptParts {
  return { index, isSlice: false };
}

export function subscriptSlice(lower: A.Expr | null, upper: A.Expr | null, step: A.Expr | null): SubscriptParts {
  return { lower: lower ?? undefined, upper: upper ?? undefined, step: step ?? undefined, isSlice: true };
}

export type Arg = { kind: 'pos'; value: A.Expr } | { kind: 'kw'; kw: A.Keyword };

export function splitArgs(args: Arg[]): { args: A.Expr[]; keywords: A.Keyword[] } {
  const positional: A.Expr[] = [];
  const keywords: A.Keyword[] = [];
  for (const a of args) {
    if (a.kind === 'pos') positional.push(a.value);
    else keywords.push(a.kw);
  }
  return { args: positional, keywords };
}

export function keywordArg(name: Token, value: A.Expr): Arg {
  return { kind: 'kw', kw: { name: name.value, value, loc: loc(name, value) } };
}

type ListInner = { items: A.ListItem[] } | { element: A.Expr | A.StarredExpr; generators: A.CompClause[] };
type ConfigInner = { items: A.ConfigItem[] } | { entry: A.ConfigEntry; generators: A.CompClause[] };

export function listOrComp(open: Token, inner: ListInner, close: Token): A.ListExpr | A.ListComp {
  const s = span(open, close);
  if ('items' in inner)
    return {
      type: 'ListExpr',
      items: inner.items,
      line: s.line,
      column: s.column,
      endLine: s.endLine,
      endColumn: s.endColumn,
    };
  return {
    type: 'ListComp',
    element: inner.element,
    generators: inner.generators,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function configOrComp(open: Token, inner: ConfigInner, close: Token): A.ConfigExpr | A.DictComp {
  const s = span(open, close);
  if ('items' in inner)
    return {
      type: 'ConfigExpr',
      items: inner.items,
      line: s.line,
      column: s.column,
      endLine: s.endLine,
      endColumn: s.endColumn,
    };
  return {
    type: 'DictComp',
    entry: inner.entry,
    generators: inner.generators,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

/** `S {...}` and `S(args) {...}`: the schema is whatever precedes the braces; the evaluator
 * refuses a value that is not a schema. */
export function schemaExpr(target: A.Expr, open: Token, inner: ConfigInner, close: Token): A.SchemaExpr {
  const config = configOrComp(open, inner, close);
  if (target.type === 'Call') {
    const s = span(target, close);
    return {
      type: 'SchemaExpr',
      name: target.func,
      args: target.args,
      keywords: target.keywords,
      config,
      line: s.line,
      column: s.column,
      endLine: s.endLine,
      endColumn: s.endColumn,
    };
  }
  const s = span(target, close);
  return {
    type: 'SchemaExpr',
    name: target,
    args: [],
    keywords: [],
    config,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

// ---------------------------------------------------------------- collections

/** `(item sep)* item?` as nearley delivers it. */
export function entries<T>(pairs: [T, unknown][], last: T | null): T[] {
  const out = pairs.map((p) => p[0]);
  if (last !== null) out.push(last);
  return out;
}

export function configEntry(key: A.Expr | null, opTok: Token, value: A.Expr): A.ConfigEntry {
  const op = (opTok.text === '**' ? ':' : opTok.text) as A.ConfigOp;
  const s = span(key ?? opTok, value);
  return {
    type: 'ConfigEntry',
    key: key ?? undefined,
    op,
    value,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function compClause(forTok: Token, names: Token[], iter: A.Expr, ifs: A.Expr[]): A.CompClause {
  const s = span(forTok, lastOf(iter, ifs));
  return {
    type: 'CompClause',
    targets: names.map((n) => n.value),
    targetLocs: names.map((n) => loc(n)),
    iter,
    ifs,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

// ---------------------------------------------------------------- types

export function namedType(id: A.Identifier): A.TypeNode {
  const l = loc(id);
  if (id.names.length === 1 && id.names[0] === 'any') return { type: 'AnyType', loc: l };
  return { type: 'NamedType', name: id.names, loc: l };
}

export function literalType(lit: A.StringLit | A.NumberLit | A.NameConstant): A.TypeNode {
  const value = lit.type === 'NameConstant' ? (lit.value === 'Undefined' ? null : lit.value) : lit.value;
  const text =
    lit.type === 'StringLit'
      ? JSON.stringify(lit.value)
      : lit.type === 'NumberLit'
        ? `${lit.value}${lit.suffix ?? ''}`
        : String(lit.value ?? 'None');
  const suffix = lit.type === 'NumberLit' ? lit.suffix : undefined;
  return { type: 'LiteralType', value, ...(suffix ? { suffix } : {}), text, loc: loc(lit) };
}

export function unionType(left: A.TypeNode, right: A.TypeNode): A.TypeNode {
  const members = left.type === 'UnionType' ? [...left.members, right] : [left, right];
  return { type: 'UnionType', members, loc: loc(left.loc, right.loc) };
}

// ---------------------------------------------------------------- statements

export function assignStmt(targets: A.Target[], value: A.Expr): A.AssignStmt {
  const s = span(targets[0].loc, value);
  return { type: 'Assign', targets, value, line: s.line, column: s.column, endLine: s.endLine, endColumn: s.endColumn };
}

export function augAssignStmt(target: A.Target, opTok: Token, value: A.Expr): A.AugAssignStmt {
  const s = span(target.loc, value);
  return {
    type: 'AugAssign',
    target,
    op: opTok.text.slice(0, -1) as A.BinaryOp,
    value,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function unificationStmt(target: A.Target, value: A.SchemaExpr): A.UnificationStmt {
  const s = span(target.loc, value);
  return {
    type: 'Unification',
    target,
    value,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function exprStmt(value: A.Expr): A.ExprStmt {
  const s = span(value);
  return { type: 'ExprStmt', value, line: s.line, column: s.column, endLine: s.endLine, endColumn: s.endColumn };
}

export function assertStmt(
  assertTok: Token,
  test: A.Expr,
  ifPart: [Token, A.Expr] | null,
  messagePart: [Token, A.Expr] | null,
): A.AssertStmt {
  const s = span(assertTok, lastOf(test, ifPart, messagePart));
  return {
    type: 'Assert',
    test,
    ifCond: ifPart?.[1],
    message: messagePart?.[1],
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function attrStmt(
  name: Token,
  optional: Token | null,
  annotation: A.TypeNode,
  assignment: [Token, A.Expr] | null,
): A.AttrStmt {
  const nameLoc = loc(name);
  const s = span(name, lastOf(annotation.loc, assignment));
  return {
    type: 'Attr',
    name: name.value,
    nameLoc,
    optional: optional !== null,
    annotation,
    op: assignment?.[0].text as A.AttrStmt['op'],
    value: assignment?.[1],
    decorators: [],
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function importStmt(
  importTok: Token,
  path: { path: string; end: Located },
  asPart: [Token, Token] | null,
): A.ImportStmt {
  const s = span(importTok, lastOf(path.end, asPart));
  return {
    type: 'Import',
    path: path.path,
    asName: asPart?.[1].value,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function typeAliasStmt(typeTok: Token, name: Token, value: A.TypeNode): A.TypeAliasStmt {
  const s = span(typeTok, value.loc);
  return {
    type: 'TypeAlias',
    name: name.value,
    value,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function mixinStmt(mixinTok: Token, names: A.Identifier[], close: Token): A.MixinStmt {
  const s = span(mixinTok, close);
  return { type: 'Mixin', names, line: s.line, column: s.column, endLine: s.endLine, endColumn: s.endColumn };
}

export function schemaStmt(
  decorators: A.Decorator[],
  kind: Token,
  name: Token,
  params: A.Param[] | null,
  parent: A.Identifier | null,
  forProtocol: A.Identifier | null,
  newline: Token,
  items: { items: (A.Stmt | A.CheckItem[])[]; end: Token } | null,
): A.SchemaStmt {
  const parts = schemaBody(items?.items ?? []);
  const s = span(decorators.length ? decorators[0].loc : kind, items?.end ?? newline);
  return {
    type: 'Schema',
    kind: kind.text as A.SchemaStmt['kind'],
    name: name.value,
    nameLoc: loc(name),
    params: params ?? [],
    parent: parent ?? undefined,
    forProtocol: forProtocol ?? undefined,
    decorators,
    doc: parts.doc,
    mixins: parts.mixins,
    indexSignature: parts.indexSignature,
    body: parts.body,
    checks: parts.checks,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function checkItem(
  test: A.Expr,
  ifPart: [Token, A.Expr] | null,
  messagePart: [Token, A.Expr] | null,
): A.CheckItem {
  const s = span(test, lastOf(test, ifPart, messagePart));
  return {
    test,
    ifCond: ifPart?.[1],
    message: messagePart?.[1],
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export type TargetPart = { part: A.Target['path'][number]; end: Located };

export function target(name: Token, path: TargetPart[]): A.Target {
  return {
    name: name.value,
    path: path.map((p) => p.part),
    loc: loc(name, path.length ? path[path.length - 1].end : name),
  };
}

export function schemaBody(
  items: (A.Stmt | A.CheckItem[])[],
): Pick<A.SchemaStmt, 'doc' | 'mixins' | 'indexSignature' | 'body' | 'checks'> {
  const body: A.Stmt[] = [];
  const checks: A.CheckItem[] = [];
  const mixins: A.Identifier[] = [];
  let indexSignature: A.IndexSignature | undefined;
  let doc: string | undefined;
  items.forEach((item, i) => {
    if (Array.isArray(item)) {
      checks.push(...item);
    } else if (item.type === 'Mixin') {
      mixins.push(...item.names);
    } else if (item.type === 'IndexSignature') {
      indexSignature = item;
    } else if (i === 0 && item.type === 'ExprStmt' && item.value.type === 'StringLit') {
      doc = item.value.value;
    } else {
      body.push(item);
    }
  });
  return { doc, mixins, indexSignature, body, checks };
}

export function ruleChecks(items: A.CheckItem[]): { doc?: string; checks: A.CheckItem[] } {
  const first = items[0];
  if (first && first.test.type === 'StringLit' && !first.ifCond && !first.message && items.length > 1) {
    return { doc: first.test.value, checks: items.slice(1) };
  }
  return { checks: items };
}

export function ifStmt(
  ifTok: Token,
  cond: A.Expr,
  body: A.Stmt[],
  elifs: [Token, A.Expr, Token, A.Stmt[]][],
  orelse: A.Stmt[] | null,
): A.IfStmt {
  let tail: A.Stmt[] = orelse ?? [];
  for (let i = elifs.length - 1; i >= 0; i--) {
    const [tok, c, , b] = elifs[i];
    const s = span(tok, lastOf(b, tail));
    const node: A.IfStmt = {
      type: 'If',
      cond: c,
      body: b,
      orelse: tail,
      line: s.line,
      column: s.column,
      endLine: s.endLine,
      endColumn: s.endColumn,
    };
    tail = [node];
  }
  const s = span(ifTok, lastOf(body, tail));
  return {
    type: 'If',
    cond,
    body,
    orelse: tail,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function ifEntry<T, N extends { cond: A.Expr; body: T[]; orelse?: T[] | N }>(
  make: (cond: A.Expr, body: T[], orelse: T[] | N | undefined, first: Located, last: Located) => N,
  ifTok: Token,
  cond: A.Expr,
  body: T[],
  elifs: [Token, A.Expr, T[]][],
  orelse: T[] | null,
): N {
  let tail: T[] | N | undefined = orelse ?? undefined;
  for (let i = elifs.length - 1; i >= 0; i--) {
    const [tok, c, b] = elifs[i];
    tail = make(c, b, tail, tok, lastOf(b, tail));
  }
  return make(cond, body, tail, ifTok, lastOf(body, tail));
}

export function listIf(
  cond: A.Expr,
  body: A.ListItem[],
  orelse: A.ListItem[] | A.ListIfItem | undefined,
  first: Located,
  last: Located,
): A.ListIfItem {
  const s = span(first, last);
  return {
    type: 'ListIfItem',
    cond,
    body,
    orelse,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

export function configIf(
  cond: A.Expr,
  body: A.ConfigItem[],
  orelse: A.ConfigItem[] | A.ConfigIfEntry | undefined,
  first: Located,
  last: Located,
): A.ConfigIfEntry {
  const s = span(first, last);
  return {
    type: 'ConfigIfEntry',
    cond,
    body,
    orelse,
    line: s.line,
    column: s.column,
    endLine: s.endLine,
    endColumn: s.endColumn,
  };
}

// ---------------------------------------------------------------- parts of declarations

export function targetAttr(name: Token): TargetPart {
  return { part: { attr: name.value }, end: name };
}

export function targetIndex(index: A.Expr, close: Token): TargetPart {
  return { part: { index }, end: close };
}

/** A quoted attribute name (`"key": T`) as the name token it stands for. */
export function quotedName(tok: Token): Token {
  return tok.as(tok.type, tok.text, stringLit(tok).value);
}

export function decorated(decorators: A.Decorator[], attr: A.AttrStmt): A.AttrStmt {
  return { ...attr, decorators, ...span(decorators[0].loc, attr) };
}

export function importPath(dots: string[], name: Token, rest: [Token, Token][]): { path: string; end: Located } {
  const names = [name.value];
  for (const [, t] of rest) names.push(t.value);
  return { path: dots.join('') + names.join('.'), end: lastOf(name, rest) };
}

export function decorator(at: Token, name: A.Identifier, call: [Arg[], Token] | null): A.Decorator {
  if (!call) return { name, args: [], keywords: [], loc: loc(at, name) };
  return { name, ...splitArgs(call[0]), loc: loc(at, call[1]) };
}

export function indexSignature(
  open: Token,
  keyName: Token | null,
  anyOther: boolean,
  keyType: A.TypeNode,
  valueType: A.TypeNode,
  value: [Token, A.Expr] | null,
): A.IndexSignature {
  return {
    type: 'IndexSignature',
    keyName: keyName?.value,
    anyOther,
    keyType,
    valueType,
    value: value?.[1],
    ...span(open, lastOf(valueType.loc, value)),
  };
}

export function ruleStmt(
  decorators: A.Decorator[],
  ruleTok: Token,
  name: Token,
  params: A.Param[] | null,
  parents: A.Identifier[] | null,
  forProtocol: A.Identifier | null,
  items: A.CheckItem[],
  end: Token,
): A.RuleStmt {
  return {
    type: 'Rule',
    name: name.value,
    params: params ?? [],
    parents: parents ?? [],
    forProtocol: forProtocol ?? undefined,
    decorators,
    ...ruleChecks(items),
    ...span(decorators.length ? decorators[0].loc : ruleTok, end),
  };
}

export function param(name: Token, annotation: A.TypeNode | null, value: A.Expr | null): A.Param {
  return {
    name: name.value,
    annotation: annotation ?? undefined,
    default: value ?? undefined,
    loc: loc(name, lastOf(name, annotation?.loc, value)),
  };
}

/** `(A, B) -> R`, or a bare `(A, B)` (no `ret`) where the grammar allows one. */
export function functionType(open: Token, params: A.TypeNode[], close: Token, ret: A.TypeNode | null): A.TypeNode {
  if (ret === null) return { type: 'FunctionType', params, loc: loc(open, close) };
  return { type: 'FunctionType', params, ret, loc: loc(open, ret.loc) };
}

export function listType(open: Token, element: A.TypeNode | null, close: Token): A.TypeNode {
  return { type: 'ListType', element: element ?? undefined, loc: loc(open, close) };
}

export function dictType(open: Token, key: A.TypeNode | null, value: A.TypeNode | null, close: Token): A.TypeNode {
  return { type: 'DictType', key: key ?? undefined, value: value ?? undefined, loc: loc(open, close) };
}
