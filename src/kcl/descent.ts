/**
 * A recursive-descent reader of grammar/kcl.ne, for speed. The grammar stays the definition of
 * the language: this reader follows its rules one for one, builds every node with the same
 * ast-build calls as the grammar's postprocessors, and gives up (returns undefined) wherever it
 * meets anything it cannot read at once. The Earley parser then reads those tokens, so every
 * syntax error, and every input the grammar reads in more than one way, is still its business.
 *
 * What makes a deterministic reading possible is that the grammar has exactly one parse of every
 * valid input: a derivation this reader finds is a derivation of the grammar, so it is the one.
 * Where the grammar looks further ahead than one token (`a: T` an attribute or `a: S {}` a
 * unification, `[k]: T` an index signature or a list), the reader tries one reading and goes
 * back to the other.
 */
import type * as A from './ast.js';
import * as b from './ast-build.js';
import { Token } from './lexer.js';
import { TOKEN_TESTS } from './lexer-instance.js';

/** A conditional entry of a list or a config, as ast-build makes it. */
type IfEntry<T, N> = T & { cond: A.Expr; body: T[]; orelse?: T[] | N };

/** What a list's entries and a config's differ in: how a plain entry is read, how an `if` entry
 * is made, and the bracket after the last. */
interface EntryRules<T, N extends IfEntry<T, N>> {
  readonly closer: string;
  readonly entry: (this: Reader) => T;
  readonly conditional: (cond: A.Expr, body: T[], orelse: T[] | N | undefined, first: b.Located, last: b.Located) => N;
}

/** Thrown to leave a reading; never escapes this module. */
const GIVE_UP: unique symbol = Symbol('give up');

const END = new Token('END', '', '', -1, 0, 0, 0);

const SCHEMA_KINDS = new Set(['schema', 'protocol', 'mixin']);
const CONFIG_OPS = new Set([':', '=', '+=']);
const isQuantifier = TOKEN_TESTS.quantifier.test;
const isPrefixOp = TOKEN_TESTS.prefixOp.test;
const isAnyName = TOKEN_TESTS.anyName.test;
const isSeparator = TOKEN_TESTS.separator.test;

/** Readers not in use. Kept, not made per run, for the same reason as the lexer's layouts: V8
 * throws away the code compiled for a class once no instance of it is alive, and the reader's
 * would be compiled again after every full collection. */
const idleReaders: Reader[] = [];

/** What `read` makes of all the tokens, or undefined where the Earley parser has to read them. */
function readAll<T>(tokens: readonly Token[], read: (this: Reader) => T): T | undefined {
  const reader = idleReaders.pop() ?? new Reader();
  try {
    return reader.readAll(tokens, read);
  } catch (e) {
    // a builder's own diagnostic, or a nesting too deep for this stack, is the Earley path's too
    if (e === GIVE_UP || e instanceof Error) return undefined;
    throw e;
  } finally {
    idleReaders.push(reader);
  }
}

/** The statements of `tokens` (a whole number of top-level statements), or undefined where the
 * Earley parser has to read them. */
export function readStatements(tokens: readonly Token[]): A.Stmt[] | undefined {
  return readAll(tokens, Reader.prototype.module);
}

/** The expression of `tokens` (a `${...}` interpolation: one expression and its newline), or
 * undefined where the Earley parser has to read it. */
export function readExpression(tokens: readonly Token[]): A.Expr | undefined {
  return readAll(tokens, Reader.prototype.expression);
}

class Reader {
  private tokens: readonly Token[] = [];
  private pos = 0;

  // ------------------------------------------------------------------ tokens

  private peek(ahead = 0): Token {
    return this.tokens[this.pos + ahead] ?? END;
  }

  private next(): Token {
    const t = this.tokens[this.pos];
    if (t === undefined) throw GIVE_UP;
    this.pos++;
    return t;
  }

  /** The next token if its text is `text` (the grammar's literals match on text). */
  private take(text: string): Token | null {
    const t = this.tokens[this.pos];
    if (t === undefined || t.text !== text) return null;
    this.pos++;
    return t;
  }

  private expect(text: string): Token {
    const t = this.tokens[this.pos];
    if (t === undefined || t.text !== text) throw GIVE_UP;
    this.pos++;
    return t;
  }

  private expectType(type: string): Token {
    const t = this.tokens[this.pos];
    if (t === undefined || t.type !== type) throw GIVE_UP;
    this.pos++;
    return t;
  }

  private at(text: string, ahead = 0): boolean {
    return this.peek(ahead).text === text;
  }

  private atType(type: string, ahead = 0): boolean {
    return this.peek(ahead).type === type;
  }

  /** `%NEWLINE:? word`: a line break before `elif`, `else`, `for` or `if` in brackets. */
  private atAfterNewline(word: string): boolean {
    return this.at(word) || (this.atType('NEWLINE') && this.at(word, 1));
  }

  /** The `word` of `%NEWLINE:? word`, both consumed, or null (nothing consumed). */
  private takeAfterNewline(word: string): Token | null {
    if (!this.atAfterNewline(word)) return null;
    if (this.atType('NEWLINE')) this.pos++;
    return this.next();
  }

  /** Runs `read` (a method, or a closure where it needs more); where it gives up, puts the
   * position back and returns undefined. */
  private attempt<T>(read: (this: Reader) => T): T | undefined {
    const start = this.pos;
    try {
      return read.call(this);
    } catch (e) {
      if (e !== GIVE_UP) throw e;
      this.pos = start;
      return undefined;
    }
  }

  // ------------------------------------------------------------------ module and statements

  /** What `read` makes of the whole of `tokens`; an idle reader holds none of them afterwards. */
  readAll<T>(tokens: readonly Token[], read: (this: Reader) => T): T {
    this.tokens = tokens;
    this.pos = 0;
    try {
      const value = read.call(this);
      if (this.pos !== tokens.length) throw GIVE_UP;
      return value;
    } finally {
      this.tokens = [];
    }
  }

  /** The statements of the tokens. */
  module(): A.Stmt[] {
    const body: A.Stmt[] = [];
    while (this.pos < this.tokens.length) body.push(this.stmt());
    return body;
  }

  /** An expression statement's expression, without the statement: `test` and its newline. */
  expression(): A.Expr {
    const value = this.test();
    this.expectType('NEWLINE');
    return value;
  }

  private stmt(): A.Stmt {
    const t = this.peek();
    if (t.text === '@') {
      const decorators = this.decorators();
      const kind = this.peek();
      if (this.atType('name', 1) && (SCHEMA_KINDS.has(kind.text) || kind.text === 'rule')) {
        return kind.text === 'rule' ? this.ruleStmt(decorators) : this.schemaStmt(decorators);
      }
      const attr = this.attrStmt();
      this.expectType('NEWLINE');
      return b.decorated(decorators, attr);
    }
    if (t.text === 'if' && t.type === 'keyword') return this.ifStmt();
    if (this.atType('name', 1)) {
      if (SCHEMA_KINDS.has(t.text)) return this.schemaStmt([]);
      if (t.text === 'rule') return this.ruleStmt([]);
    }
    const stmt = this.simpleStmt();
    this.expectType('NEWLINE');
    return stmt;
  }

  private simpleStmt(): A.Stmt {
    const t = this.peek();
    if (t.text === 'assert') return this.assertStmt();
    if (t.text === 'import') return this.importStmt();
    // `type` is a name too (`type = "a"`, `type: str`): an alias is `type Name = ...`
    if (t.text === 'type' && this.atType('name', 1) && this.at('=', 2)) {
      const name = this.tokens[this.pos + 1];
      this.pos += 3;
      return b.typeAliasStmt(t, name, this.type());
    }
    if (t.type === 'name' || t.type === 'string') {
      const n = this.peek(1).text;
      if (n === ':' || (n === '?' && this.at(':', 2))) {
        // `a: T` is an attribute unless what follows the type says it is not; then, for a plain
        // name, `a: S {...}` is a unification
        const attr = t.type === 'string' || n === '?' ? this.attrStmt() : this.attempt(this.attrStmtEnded);
        if (attr) return attr;
      }
    }
    if (t.type === 'name') {
      const assigned = this.assignment();
      if (assigned) return assigned;
    }
    return b.exprStmt(this.test());
  }

  /** An assignment, augmented assignment or unification, or undefined (nothing consumed) when
   * the statement is none of them. */
  private assignment(): A.Stmt | undefined {
    const targets: A.Target[] = [];
    for (;;) {
      const start = this.pos;
      const target = this.atType('name') ? this.attempt(this.target) : undefined;
      const op = this.peek();
      if (target && op.text === '=') {
        this.pos++;
        targets.push(target);
        continue;
      }
      if (target && targets.length === 0) {
        if (op.type === 'augop') {
          this.pos++;
          return b.augAssignStmt(target, op, this.test());
        }
        if (op.text === ':') {
          this.pos++;
          return b.unificationStmt(target, this.testSchema());
        }
      }
      this.pos = start;
      return targets.length === 0 ? undefined : b.assignStmt(targets, this.test());
    }
  }

  private target(): A.Target {
    const name = this.expectType('name');
    const parts: b.TargetPart[] = [];
    for (;;) {
      if (this.take('.')) {
        parts.push(b.targetAttr(this.anyName()));
      } else if (this.take('[')) {
        const index = this.test();
        parts.push(b.targetIndex(index, this.expect(']')));
      } else {
        return b.target(name, parts);
      }
    }
  }

  /** `test_schema`: a primary whose last trailer is a `{...}` config. */
  private testSchema(): A.SchemaExpr {
    // a SchemaExpr is only ever made by a `{...}` trailer, so it was the last one
    const value = this.primary();
    if (value.type !== 'SchemaExpr') throw GIVE_UP;
    return value;
  }

  /** An attribute followed by the newline that must end it (left in place). */
  private attrStmtEnded(): A.AttrStmt {
    const attr = this.attrStmt();
    if (!this.atType('NEWLINE')) throw GIVE_UP;
    return attr;
  }

  private attrStmt(): A.AttrStmt {
    const t = this.next();
    let name: Token;
    if (t.type === 'name') name = t;
    else if (t.type === 'string') name = b.quotedName(t);
    else throw GIVE_UP;
    const optional = this.take('?');
    this.expect(':');
    const annotation = this.type();
    const op = this.peek();
    if (op.text === '=' || op.text === '|=') {
      this.pos++;
      return b.attrStmt(name, optional, annotation, [op, this.test()]);
    }
    return b.attrStmt(name, optional, annotation, null);
  }

  private assertStmt(): A.AssertStmt {
    const assertTok = this.next();
    const test = this.test();
    const ifPart = this.optionalPart('if');
    return b.assertStmt(assertTok, test, ifPart, this.optionalPart(','));
  }

  /** `(word test):?` */
  private optionalPart(word: string): [Token, A.Expr] | null {
    const w = this.take(word);
    return w ? [w, this.test()] : null;
  }

  private importStmt(): A.ImportStmt {
    const importTok = this.next();
    const dots: string[] = [];
    while (this.at('.') || this.at('...')) dots.push(this.next().text);
    const name = this.expectType('name');
    const rest: [Token, Token][] = [];
    for (let dot = this.take('.'); dot; dot = this.take('.')) rest.push([dot, this.anyName()]);
    const as = this.take('as');
    return b.importStmt(importTok, b.importPath(dots, name, rest), as ? [as, this.expectType('name')] : null);
  }

  private ifStmt(): A.IfStmt {
    const ifTok = this.next();
    const cond = this.test();
    this.expect(':');
    const body = this.suite();
    const elifs: [Token, A.Expr, Token, A.Stmt[]][] = [];
    for (let elif = this.take('elif'); elif; elif = this.take('elif')) {
      const c = this.test();
      const colon = this.expect(':');
      elifs.push([elif, c, colon, this.suite()]);
    }
    let orelse: A.Stmt[] | null = null;
    if (this.take('else')) {
      this.expect(':');
      orelse = this.suite();
    }
    return b.ifStmt(ifTok, cond, body, elifs, orelse);
  }

  private suite(): A.Stmt[] {
    if (this.atType('NEWLINE')) {
      this.pos++;
      this.expectType('INDENT');
      const body = [this.stmt()];
      while (!this.atType('DEDENT')) body.push(this.stmt());
      this.pos++;
      return body;
    }
    const stmt = this.simpleStmt();
    this.expectType('NEWLINE');
    return [stmt];
  }

  private decorators(): A.Decorator[] {
    const out: A.Decorator[] = [];
    for (let at = this.take('@'); at; at = this.take('@')) {
      const name = this.dottedName();
      let call: [b.Arg[], Token] | null = null;
      if (this.take('(')) {
        const args = this.args();
        call = [args, this.expect(')')];
      }
      this.expectType('NEWLINE');
      out.push(b.decorator(at, name, call));
    }
    return out;
  }

  // ------------------------------------------------------------------ schema, mixin, protocol, rule

  private schemaStmt(decorators: A.Decorator[]): A.SchemaStmt {
    const kind = this.next();
    const name = this.expectType('name');
    const params = this.schemaParams();
    let parent: A.Identifier | null = null;
    if (this.take('(')) {
      parent = this.dottedName();
      this.expect(')');
    }
    const forProtocol = this.take('for') ? this.dottedName() : null;
    this.expect(':');
    const newline = this.expectType('NEWLINE');
    let items: { items: (A.Stmt | A.CheckItem[])[]; end: Token } | null = null;
    if (this.atType('INDENT')) {
      this.pos++;
      const list = [this.schemaItem()];
      while (!this.atType('DEDENT')) list.push(this.schemaItem());
      items = { items: list, end: this.next() };
    }
    return b.schemaStmt(decorators, kind, name, params, parent, forProtocol, newline, items);
  }

  private schemaParams(): A.Param[] | null {
    if (!this.take('[')) return null;
    const params = this.params();
    this.expect(']');
    return params;
  }

  private schemaItem(): A.Stmt | A.CheckItem[] {
    const t = this.peek();
    if (t.text === 'mixin' && this.at('[', 1)) {
      this.pos += 2;
      const names = this.nameList();
      const close = this.expect(']');
      this.expectType('NEWLINE');
      return b.mixinStmt(t, names, close);
    }
    if (t.text === '[') {
      const signature = this.attempt(this.indexSignature);
      if (signature) return signature;
    }
    if (t.text === 'check' && this.at(':', 1) && this.atType('NEWLINE', 2)) {
      this.pos += 3;
      return this.checkItems();
    }
    return this.stmt();
  }

  private indexSignature(): A.IndexSignature {
    const open = this.expect('[');
    let keyName: Token | null = null;
    if (this.atType('name') && this.at(':', 1)) {
      keyName = this.next();
      this.pos++;
    }
    const anyOther = this.take('...') !== null;
    const keyType = this.type();
    this.expect(']');
    this.expect(':');
    const valueType = this.type();
    const value = this.optionalPart('=');
    this.expectType('NEWLINE');
    return b.indexSignature(open, keyName, anyOther, keyType, valueType, value);
  }

  /** `%INDENT check_item:+ %DEDENT`, the DEDENT consumed. */
  private checkItems(): A.CheckItem[] {
    this.expectType('INDENT');
    const items = [this.checkItem()];
    while (!this.atType('DEDENT')) items.push(this.checkItem());
    this.pos++;
    return items;
  }

  private checkItem(): A.CheckItem {
    const test = this.test();
    const ifPart = this.optionalPart('if');
    const item = b.checkItem(test, ifPart, this.optionalPart(','));
    this.expectType('NEWLINE');
    return item;
  }

  private ruleStmt(decorators: A.Decorator[]): A.RuleStmt {
    const ruleTok = this.next();
    const name = this.expectType('name');
    const params = this.schemaParams();
    let parents: A.Identifier[] | null = null;
    if (this.take('(')) {
      parents = this.nameList();
      this.expect(')');
    }
    const forProtocol = this.take('for') ? this.dottedName() : null;
    this.expect(':');
    this.expectType('NEWLINE');
    const items = this.checkItems();
    return b.ruleStmt(decorators, ruleTok, name, params, parents, forProtocol, items, this.tokens[this.pos - 1]);
  }

  /** `(dotted_name %separator):* dotted_name:?`, up to a closing bracket. */
  private nameList(): A.Identifier[] {
    const names: A.Identifier[] = [];
    while (this.atType('name')) {
      names.push(this.dottedName());
      if (!isSeparator(this.peek())) break;
      this.pos++;
    }
    return names;
  }

  private params(): A.Param[] {
    const params = [this.param()];
    while (this.take(',')) params.push(this.param());
    return params;
  }

  private param(): A.Param {
    const name = this.expectType('name');
    const annotation = this.take(':') ? this.paramType() : null;
    const value = this.take('=') ? this.test() : null;
    return b.param(name, annotation, value);
  }

  // ------------------------------------------------------------------ expressions

  private test(): A.Expr {
    const body = this.simpleExpr();
    if (!this.at('if')) return body;
    // `x if c else y`, or an `if` that belongs to what encloses the expression (a check, a
    // comprehension, an assert)
    const start = this.pos;
    this.pos++;
    const cond = this.attempt(this.simpleExpr);
    if (cond && this.take('else')) return b.ifExpr(body, cond, this.test());
    this.pos = start;
    return body;
  }

  private simpleExpr(): A.Expr {
    const value = this.binary();
    return this.take('as') ? b.asExpr(value, this.type()) : value;
  }

  /** `binary`: an operand, or a chain of them folded by precedence as the grammar's is. */
  private binary(): A.Expr {
    const first = this.operand();
    // most operands stand alone: no chain to make
    if (!this.atBinaryOperator()) return first;
    const items: b.ChainItem[] = [first];
    do {
      const t = this.next();
      // kcl reads `a not None` as `a is not None`
      items.push(t.type === 'binop' ? (t.text as A.BinaryOp) : 'is not', this.operand());
    } while (this.atBinaryOperator());
    return b.chain(items);
  }

  private atBinaryOperator(): boolean {
    const t = this.peek();
    return t.type === 'binop' || (t.type === 'keyword' && t.text === 'not');
  }

  private operand(): A.Expr {
    const t = this.peek();
    if (isPrefixOp(t)) {
      this.pos++;
      return b.unary(t, this.primary());
    }
    return this.primary();
  }

  private primary(): A.Expr {
    const t = this.next();
    let value: A.Expr;
    switch (t.type) {
      case 'name':
        value = this.atType('name') && isQuantifier(t) ? this.quantifier(t) : b.identifier(t);
        break;
      case 'string':
        value = b.stringLit(t);
        break;
      case 'number':
        value = b.numberLit(t);
        break;
      case 'constant':
        value = b.constant(t);
        break;
      default:
        value = this.bracketed(t) ?? (t.text === 'lambda' ? this.lambda(t) : this.giveUp());
    }
    for (;;) {
      const n = this.peek();
      switch (n.text) {
        case '.':
          this.pos++;
          value = b.selector(value, this.anyName(), false);
          continue;
        case '?':
          this.pos++;
          if (this.take('.')) {
            value = b.selector(value, this.anyName(), true);
          } else {
            this.expect('[');
            const sub = this.subscript();
            value = b.subscript(value, sub, true, this.expect(']'));
          }
          continue;
        case '[': {
          this.pos++;
          const sub = this.subscript();
          value = b.subscript(value, sub, false, this.expect(']'));
          continue;
        }
        case '(': {
          this.pos++;
          const args = this.args();
          value = b.call(value, args, this.expect(')'));
          continue;
        }
        case '{': {
          this.pos++;
          const inner = this.configInner();
          value = b.schemaExpr(value, n, inner, this.expect('}'));
          continue;
        }
      }
      return value;
    }
  }

  private giveUp(): never {
    throw GIVE_UP;
  }

  /** `( test )`, `[ list_inner ]` and `{ config_inner }` after their opener, or null. */
  private bracketed(open: Token): A.Expr | null {
    switch (open.text) {
      case '(': {
        const value = this.test();
        return b.paren(open, value, this.expect(')'));
      }
      case '[': {
        const inner = this.listInner();
        return b.listOrComp(open, inner, this.expect(']'));
      }
      case '{': {
        const inner = this.configInner();
        return b.configOrComp(open, inner, this.expect('}'));
      }
    }
    return null;
  }

  private anyName(): Token {
    const t = this.next();
    if (!isAnyName(t)) throw GIVE_UP;
    return t;
  }

  private quantifier(op: Token): A.QuantExpr {
    const first = this.next();
    const comma = this.take(',');
    const second: [Token, Token] | null = comma ? [comma, this.expectType('name')] : null;
    this.expect('in');
    const iter = this.quantTarget();
    this.expect('{');
    const test = this.test();
    const ifPart = this.optionalPart('if');
    return b.quantExpr(op, first, second, iter, test, ifPart, this.expect('}'));
  }

  /** A primary without the `{...}` trailer or `?[`, whose brace starts the quantifier's body. */
  private quantTarget(): A.Expr {
    const t = this.next();
    let value: A.Expr;
    if (t.type === 'name') value = b.identifier(t);
    else if (t.type === 'string') value = b.stringLit(t);
    else if (t.text === '[' || t.text === '{') value = this.bracketed(t)!;
    else throw GIVE_UP;
    for (;;) {
      if (this.take('.')) {
        value = b.selector(value, this.anyName(), false);
      } else if (this.at('?') && this.at('.', 1)) {
        this.pos += 2;
        value = b.selector(value, this.anyName(), true);
      } else if (this.take('[')) {
        const sub = this.subscript();
        value = b.subscript(value, sub, false, this.expect(']'));
      } else if (this.take('(')) {
        const args = this.args();
        value = b.call(value, args, this.expect(')'));
      } else {
        return value;
      }
    }
  }

  private lambda(lambdaTok: Token): A.LambdaExpr {
    if (this.at('{')) {
      // kcl's braced parameters, told from a body by the arrow after them
      const braced = this.attempt(() => {
        this.pos++;
        const params = this.atType('name') ? this.params() : null;
        this.expect('}');
        const arrow = this.expect('->');
        const ret = this.type();
        const [body, close] = this.lambdaBody();
        return b.lambdaExpr(lambdaTok, params, [arrow, ret], body, close);
      });
      if (braced) return braced;
    }
    const params = this.atType('name') ? this.params() : null;
    const arrow = this.take('->');
    const returns: [Token, A.TypeNode] | null = arrow ? [arrow, this.type()] : null;
    const [body, close] = this.lambdaBody();
    return b.lambdaExpr(lambdaTok, params, returns, body, close);
  }

  /** `"{" stmt:* "}"` */
  private lambdaBody(): [A.Stmt[], Token] {
    this.expect('{');
    const body: A.Stmt[] = [];
    while (!this.at('}')) body.push(this.stmt());
    return [body, this.next()];
  }

  private subscript(): ReturnType<typeof b.subscriptIndex> {
    const lower = this.at(':') ? null : this.test();
    if (!this.take(':')) return b.subscriptIndex(lower!);
    const upper = this.at(':') || this.at(']') ? null : this.test();
    if (!this.take(':')) return b.subscriptSlice(lower, upper, null);
    return b.subscriptSlice(lower, upper, this.at(']') ? null : this.test());
  }

  /** `(arg ","):* arg:?`, up to the closing parenthesis. */
  private args(): b.Arg[] {
    const args: b.Arg[] = [];
    while (!this.at(')')) {
      const t = this.peek();
      if (t.type === 'name' && this.at('=', 1)) {
        this.pos += 2;
        args.push(b.keywordArg(t, this.test()));
      } else {
        args.push({ kind: 'pos', value: this.test() });
      }
      if (!this.take(',')) break;
    }
    return args;
  }

  private dottedName(): A.Identifier {
    const first = this.expectType('name');
    const rest: [Token, Token][] = [];
    for (let dot = this.take('.'); dot; dot = this.take('.')) rest.push([dot, this.anyName()]);
    return b.dotted(first, rest);
  }

  // ------------------------------------------------------------------ comprehensions

  private atComprehension(): boolean {
    return this.atAfterNewline('for');
  }

  private compClauses(): A.CompClause[] {
    const clauses: A.CompClause[] = [];
    for (let forTok = this.takeAfterNewline('for'); forTok; forTok = this.takeAfterNewline('for')) {
      const names = [this.expectType('name')];
      while (this.take(',')) names.push(this.expectType('name'));
      this.expect('in');
      const iter = this.binary();
      const ifs: A.Expr[] = [];
      while (this.takeAfterNewline('if')) ifs.push(this.binary());
      clauses.push(b.compClause(forTok, names, iter, ifs));
    }
    return clauses;
  }

  // ------------------------------------------------------------------ lists and configs

  private static readonly LIST: EntryRules<A.ListItem, A.ListIfItem> = {
    closer: ']',
    entry(this: Reader) {
      return this.listElement();
    },
    conditional: b.listIf,
  };

  private static readonly CONFIG: EntryRules<A.ConfigItem, A.ConfigIfEntry> = {
    closer: '}',
    entry(this: Reader) {
      return this.configEntry();
    },
    conditional: b.configIf,
  };

  private listInner(): { items: A.ListItem[] } | { element: A.Expr | A.StarredExpr; generators: A.CompClause[] } {
    if (this.at(']')) return { items: [] };
    if (this.at('if')) return { items: this.entries(Reader.LIST, null) };
    const element = this.listElement();
    if (this.atComprehension()) return { element, generators: this.compClauses() };
    return { items: this.entries(Reader.LIST, element) };
  }

  private configInner(): { items: A.ConfigItem[] } | { entry: A.ConfigEntry; generators: A.CompClause[] } {
    if (this.at('}')) return { items: [] };
    if (this.at('if')) return { items: this.entries(Reader.CONFIG, null) };
    const entry = this.configEntry();
    if (this.atComprehension()) return { entry, generators: this.compClauses() };
    return { items: this.entries(Reader.CONFIG, entry) };
  }

  private listElement(): A.Expr | A.StarredExpr {
    const star = this.take('*');
    return star ? b.starred(star, this.test()) : this.test();
  }

  private configEntry(): A.ConfigEntry {
    const unpack = this.take('**');
    if (unpack) return b.configEntry(null, unpack, this.binary());
    const key = this.binary();
    const op = this.next();
    if (!CONFIG_OPS.has(op.text)) throw GIVE_UP;
    return b.configEntry(key, op, this.test());
  }

  /** `(item %separator):* item:?`, up to the closing bracket or a DEDENT; `first` already read. */
  private entries<T, N extends IfEntry<T, N>>(rules: EntryRules<T, N>, first: T | null): T[] {
    const items: T[] = [];
    let item = first;
    for (;;) {
      items.push(item ?? (this.at('if') ? this.ifEntry(rules) : rules.entry.call(this)));
      item = null;
      if (!isSeparator(this.peek())) return items;
      this.pos++;
      if (this.at(rules.closer) || this.atType('DEDENT')) return items;
    }
  }

  /** `"if" test ":" body (%NEWLINE:? "elif" test ":" body):* (%NEWLINE:? "else" ":" body):?` */
  private ifEntry<T, N extends IfEntry<T, N>>(rules: EntryRules<T, N>): N {
    const ifTok = this.next();
    const cond = this.test();
    this.expect(':');
    const body = this.entryBody(rules);
    const elifs: [Token, A.Expr, T[]][] = [];
    for (let elif = this.takeAfterNewline('elif'); elif; elif = this.takeAfterNewline('elif')) {
      const c = this.test();
      this.expect(':');
      elifs.push([elif, c, this.entryBody(rules)]);
    }
    let orelse: T[] | null = null;
    if (this.takeAfterNewline('else')) {
      this.expect(':');
      orelse = this.entryBody(rules);
    }
    return b.ifEntry<T, N>(rules.conditional, ifTok, cond, body, elifs, orelse);
  }

  /** An `if` entry's body: one entry, a one-line `if` without elif/else (so an else has one
   * owner), or an indented block of entries. */
  private entryBody<T, N extends IfEntry<T, N>>(rules: EntryRules<T, N>): T[] {
    const t = this.peek();
    if (t.type === 'NEWLINE') {
      this.pos++;
      this.expectType('INDENT');
      const items = this.entries(rules, null);
      this.expectType('DEDENT');
      return items;
    }
    if (t.text === 'if') {
      this.pos++;
      const cond = this.test();
      this.expect(':');
      const body = this.entryBody(rules);
      return [rules.conditional(cond, body, undefined, t, b.lastOf(body))];
    }
    return [rules.entry.call(this)];
  }

  // ------------------------------------------------------------------ types

  private type(): A.TypeNode {
    let type = this.typeMember();
    while (this.take('|')) type = b.unionType(type, this.typeMember());
    return type;
  }

  /** `closed_type | type "|" closed_type`: a union whose last member is not a bare `(A, B)`. */
  private paramType(): A.TypeNode {
    const type = this.type();
    const last = type.type === 'UnionType' ? type.members[type.members.length - 1] : type;
    if (last.type === 'FunctionType' && last.ret === undefined) throw GIVE_UP;
    return type;
  }

  private typeMember(): A.TypeNode {
    if (!this.at('(')) return this.closedType();
    const open = this.next();
    const params = this.typeList();
    const close = this.expect(')');
    if (!this.take('->')) return b.functionType(open, params, close, null);
    const ret = this.type();
    // `(A) -> B | C` has two readings in the grammar (the union inside or outside the return
    // type); which one the Earley parser keeps is its business
    if (ret.type === 'UnionType') throw GIVE_UP;
    return b.functionType(open, params, close, ret);
  }

  private closedType(): A.TypeNode {
    const t = this.peek();
    switch (t.type) {
      case 'name':
        return b.namedType(this.dottedName());
      case 'string':
        this.pos++;
        return b.literalType(b.stringLit(t));
      case 'number':
        this.pos++;
        return b.literalType(b.numberLit(t));
      case 'constant':
        this.pos++;
        return b.literalType(b.constant(t));
    }
    this.pos++;
    switch (t.text) {
      case '[': {
        const element = this.at(']') ? null : this.type();
        return b.listType(t, element, this.expect(']'));
      }
      case '{': {
        const key = this.at(':') ? null : this.type();
        this.expect(':');
        const value = this.at('}') ? null : this.type();
        return b.dictType(t, key, value, this.expect('}'));
      }
      case '(': {
        this.pos--;
        const fn = this.typeMember();
        if (fn.type !== 'FunctionType' || fn.ret === undefined) throw GIVE_UP;
        return fn;
      }
    }
    throw GIVE_UP;
  }

  private typeList(): A.TypeNode[] {
    if (this.at(')')) return [];
    const types = [this.type()];
    while (this.take(',')) types.push(this.type());
    return types;
  }
}
