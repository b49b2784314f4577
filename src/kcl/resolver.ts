/**
 * Static name resolution, kcl's `sema` phase in small: every name an expression reads must be
 * bound somewhere it can see (a global of the package, an import, a schema attribute or
 * parameter, a lambda parameter or local, a loop variable, an earlier key of the same config,
 * or a builtin). Catching this before evaluation reports names in code that never runs, such as
 * a check block of a schema nobody instantiates, as kcl does. Like kcl's, it goes on past a
 * problem and reports every one it finds, in the order it finds them; so do the checks it makes on
 * the way: parameter lists and the arguments of calls to the package's schemas (call-check.ts).
 */
import type * as A from './ast.js';
import { schemaCallProblems } from './call-check.js';
import { throwAll, type Diagnostic } from '../diagnostics/diagnostics.js';
import { definedNames } from './eval/lazy.js';
import { isBasicTypeName } from './eval/types.js';
import { didYouMean } from './suggestions.js';
import { binaryChain } from './nesting.js';
import { globalRebindings } from './immutability.js';

/** A scope as a chain of small sets, so entering a comprehension or a config does not copy the
 * thousands of globals a model library has. */
class Names {
  constructor(
    private readonly own: ReadonlySet<string>,
    private readonly parent?: Names,
    /** The package schema a name of this scope is declared as (`data: Frontend`). */
    private readonly declared?: ReadonlyMap<string, A.SchemaStmt>,
    /** Whether "did you mean" offers its names: kcl does not offer what a schema inherits. */
    private readonly offered = true,
  ) {}

  /** The package schema the visible binding of `name` is declared as, if any. */
  schemaOf(name: string): A.SchemaStmt | undefined {
    return this.binder(name)?.declared?.get(name);
  }

  has(name: string): boolean {
    return this.binder(name) !== undefined;
  }

  /** The innermost scope that binds `name`. */
  binder(name: string): Names | undefined {
    for (let n: Names | undefined = this; n; n = n.parent) if (n.own.has(name)) return n;
    return undefined;
  }

  /** Every name it can offer, the innermost scope's first. */
  *all(): Iterable<string> {
    for (let n: Names | undefined = this; n; n = n.parent) if (n.offered) yield* n.own;
  }

  with(names: Iterable<string>, declared?: ReadonlyMap<string, A.SchemaStmt>, offered = true): Names {
    return new Names(new Set(names), this, declared, offered);
  }
}

class Resolver {
  /** The scopes of the package's globals, where a name may be one of its schemas. */
  private readonly globals = new Set<Names>();
  /** How many schema bodies the walk is in. */
  private schemaDepth = 0;

  constructor(
    private readonly file: string,
    private readonly builtins: ReadonlySet<string>,
    /** Schemas of the package by name, to see attributes a child inherits. */
    private readonly schemas: ReadonlyMap<string, A.SchemaStmt | A.RuleStmt>,
    /** Where the problems found go. */
    private readonly problems: Diagnostic[],
    /** Undefined names in schema bodies read as Undefined (kcl before v0.5): not reported. */
    private readonly undefinedSchemaNamesReadUndefined = false,
  ) {}

  private report(message: string, at: { line: number; column: number }, extra: Partial<Diagnostic> = {}): void {
    this.problems.push({
      kind: 'CompileError',
      message,
      position: { file: this.file, line: at.line, column: at.column },
      ...extra,
    });
  }

  /** Names bound by a statement list (any order). */
  private bound(stmts: A.Stmt[]): Set<string> {
    const names = new Set<string>();
    for (const s of stmts) {
      for (const n of definedNames(s)) names.add(n);
    }
    return names;
  }

  module(stmts: A.Stmt[], packageNames: ReadonlySet<string>): void {
    const packageScope = new Names(this.builtins).with(packageNames);
    const scope = packageScope.with(this.bound(stmts));
    this.globals.add(packageScope).add(scope);
    for (const s of stmts) this.stmt(s, scope);
  }

  /** The schema of this package a call names, unless a nearer scope gives the name another meaning. */
  private calledSchema(callee: A.Expr, scope: Names): A.SchemaStmt | A.RuleStmt | undefined {
    if (callee.type !== 'Identifier' || callee.names.length !== 1) return undefined;
    const binder = scope.binder(callee.names[0]);
    return binder && this.globals.has(binder) ? this.schemas.get(callee.names[0]) : undefined;
  }

  private schemaCall(callee: A.Expr, args: A.Expr[], keywords: A.Keyword[], scope: Names): void {
    const schema = this.calledSchema(callee, scope);
    if (schema)
      this.problems.push(
        ...schemaCallProblems({ name: schema.name, params: schema.params, callee, args, keywords }, this.file),
      );
  }

  /** Parameter, attribute and body names a schema declares itself. */
  private ownNames(s: A.SchemaStmt | A.RuleStmt): Set<string> {
    const names = new Set<string>(s.params.map((p) => p.name));
    if (s.type === 'Schema') {
      for (const n of this.bound(s.body)) names.add(n);
      if (s.indexSignature?.keyName) names.add(s.indexSignature.keyName);
    }
    return names;
  }

  /** Attribute and body names of a schema and its ancestors and mixins; undefined when one of
   * them is not a schema of this package (then the body's names cannot be checked). */
  private schemaNames(s: A.SchemaStmt | A.RuleStmt, seen = new Set<string>()): Set<string> | undefined {
    if (seen.has(s.name)) return new Set();
    seen.add(s.name);
    const names = this.ownNames(s);
    const related = s.type === 'Schema' ? [...(s.parent ? [s.parent] : []), ...s.mixins] : s.parents;
    for (const id of related) {
      const other = id.names.length === 1 ? this.schemas.get(id.names[0]) : undefined;
      const inherited = other && this.schemaNames(other, seen);
      if (!inherited) return undefined;
      for (const n of inherited) names.add(n);
    }
    return names;
  }

  private stmt(s: A.Stmt, scope: Names): void {
    switch (s.type) {
      case 'Assign':
        for (const t of s.targets) this.target(t, scope);
        this.typeNode(s.annotation, scope);
        return this.expr(s.value, scope);
      case 'AugAssign':
        this.target(s.target, scope);
        return this.expr(s.value, scope);
      case 'Attr':
        this.typeNode(s.annotation, scope);
        if (s.value) this.expr(s.value, scope);
        for (const d of s.decorators) this.decorator(d, scope);
        return;
      case 'Unification':
        return this.expr(s.value, scope);
      case 'ExprStmt':
        return this.expr(s.value, scope);
      case 'Assert':
        this.expr(s.test, scope);
        if (s.ifCond) this.expr(s.ifCond, scope);
        if (s.message) this.expr(s.message, scope);
        return;
      case 'If':
        this.expr(s.cond, scope);
        for (const b of [...s.body, ...s.orelse]) this.stmt(b, scope);
        return;
      case 'Schema':
      case 'Rule': {
        for (const d of s.decorators) this.decorator(d, scope);
        this.params(s.params);
        const own = this.schemaNames(s);
        if (!own) return;
        // a mixin reads the attributes of whatever schema mixes it in; with `for Protocol` it may
        // read only what the protocol declares
        const protocol = s.forProtocol?.names.length === 1 ? this.schemas.get(s.forProtocol.names[0]) : undefined;
        const protocolNames = protocol && this.schemaNames(protocol);
        if (protocolNames) for (const n of protocolNames) own.add(n);
        else if (isMixin(s)) return;
        // kcl's resolver never reports a name a rule reads (its var.rs skips rules): a rule may
        // read any key of the config it checks, as a protocol with `[...str]: str` allows
        if (s.type === 'Rule') return;
        // what the schema declares itself shadows what it inherits
        const declaredHere = this.ownNames(s);
        const inherited = [...own].filter((n) => !declaredHere.has(n));
        const inner = scope.with(inherited, this.declaredSchemas(s), false).with(declaredHere, this.declaredSchemas(s));
        for (const p of s.params) {
          this.typeNode(p.annotation, scope);
          if (p.default) this.expr(p.default, scope);
        }
        this.schemaDepth++;
        try {
          if (s.type === 'Schema') {
            for (const b of s.body) this.stmt(b, inner);
            if (s.indexSignature) {
              this.typeNode(s.indexSignature.keyType, inner);
              this.typeNode(s.indexSignature.valueType, inner);
            }
            if (s.indexSignature?.value) this.expr(s.indexSignature.value, inner);
          }
          for (const c of s.checks) this.check(c, inner);
        } finally {
          this.schemaDepth--;
        }
        return;
      }
      case 'TypeAlias':
        return this.typeNode(s.value, scope);
      case 'IndexSignature':
        this.typeNode(s.keyType, scope);
        return this.typeNode(s.valueType, scope);
      case 'Import':
      case 'Mixin':
        return;
    }
  }

  /** The parameters and attributes of a schema declared as one of the package's schemas. */
  private declaredSchemas(s: { params: A.Param[]; type: string; body?: A.Stmt[] }): Map<string, A.SchemaStmt> {
    const declared = new Map<string, A.SchemaStmt>();
    const note = (name: string, type: A.TypeNode | undefined) => {
      const schema = type?.type === 'NamedType' && type.name.length === 1 ? this.schemas.get(type.name[0]) : undefined;
      if (schema?.type === 'Schema') declared.set(name, schema);
    };
    for (const p of s.params) note(p.name, p.annotation);
    if (s.type === 'Schema') for (const b of s.body ?? []) if (b.type === 'Attr') note(b.name, b.annotation);
    return declared;
  }

  /** Whether a schema, its ancestors or mixins take keys beyond their attributes. */
  private isOpen(s: A.SchemaStmt, seen = new Set<string>()): boolean {
    if (seen.has(s.name)) return false;
    seen.add(s.name);
    if (s.indexSignature || s.body.some((b) => b.type === 'IndexSignature')) return true;
    return [...(s.parent ? [s.parent] : []), ...s.mixins].some((id) => {
      const other = id.names.length === 1 ? this.schemas.get(id.names[0]) : undefined;
      return other?.type !== 'Schema' || this.isOpen(other, seen);
    });
  }

  /** `data.attr` where `data` is declared as a schema of the package that has no `attr`: kcl's
   * checker refuses it before running, whether or not the code runs. */
  private attributeOfDeclared(name: string, attr: string, at: A.Loc, scope: Names): void {
    const schema = scope.schemaOf(name);
    if (!schema || this.isOpen(schema)) return;
    const attrs = this.schemaNames(schema);
    if (attrs && !attrs.has(attr))
      this.problems.push({
        kind: 'TypeError',
        message: `attribute '${attr}' not found in '${schema.name}'`,
        position: { file: this.file, line: at.line, column: at.column },
      });
  }

  /** A type names one of kcl's own or something the package defines or imports (kcl's
   * lookup_type_from_scope); a name from another package is checked when it runs. */
  private typeNode(t: A.TypeNode | undefined, scope: Names): void {
    switch (t?.type) {
      case 'NamedType': {
        const [name] = t.name;
        const lenient = this.undefinedSchemaNamesReadUndefined && this.schemaDepth > 0;
        if (t.name.length === 1 && !isBasicTypeName(name) && !scope.has(name) && !lenient)
          this.report(`name '${name}' is not defined${didYouMean(name, scope.all())}`, t.loc);
        return;
      }
      case 'ListType':
        return this.typeNode(t.element, scope);
      case 'DictType':
        this.typeNode(t.key, scope);
        return this.typeNode(t.value, scope);
      case 'UnionType':
        for (const m of t.members) this.typeNode(m, scope);
        return;
      case 'FunctionType':
        for (const p of t.params) this.typeNode(p, scope);
        return this.typeNode(t.ret, scope);
      default:
        return;
    }
  }

  /** Parameters with defaults come last, as in a function signature. kcl points at every default
   * that a parameter without one follows, the last one first. */
  private params(params: A.Param[]): void {
    let required = false;
    for (const p of [...params].reverse()) {
      if (!p.default) required = true;
      else if (required)
        this.report('non-default argument follows default argument', p.default, {
          kind: 'IllegalParameterError',
          note: 'A default argument',
        });
    }
  }

  /** Only kcl's own decorators exist. */
  private decoratorName(d: A.Decorator): void {
    const name = d.name.names.join('.');
    if (name !== 'deprecated' && name !== 'info') this.report(`UnKnown decorator ${name}`, d.name);
  }

  private check(c: A.CheckItem, scope: Names): void {
    this.expr(c.test, scope);
    if (c.ifCond) this.expr(c.ifCond, scope);
    if (c.message) this.expr(c.message, scope);
  }

  /** kcl's parser refuses a positional argument written after a keyword argument, at each one. */
  private argumentOrder(args: readonly A.Expr[], keywords: readonly A.Keyword[]): void {
    const first = keywords[0]?.loc;
    if (!first) return;
    for (const a of args)
      if (a.line > first.line || (a.line === first.line && a.column > first.column))
        this.report('positional argument follows keyword argument', a, { kind: 'InvalidSyntax' });
  }

  private decorator(d: A.Decorator, scope: Names): void {
    this.decoratorName(d);
    this.argumentOrder(d.args, d.keywords);
    for (const a of d.args) this.expr(a, scope);
    for (const k of d.keywords) this.expr(k.value, scope);
  }

  private target(t: A.Target, scope: Names): void {
    for (const p of t.path) if ('index' in p) this.expr(p.index, scope);
  }

  private loops(clauses: A.CompClause[], scope: Names): Names {
    let inner = scope;
    for (const c of clauses) {
      if (c.targets.length > 2) {
        // kcl points just after the second variable
        const second = c.targetLocs[1];
        this.report(`the number of loop variables is ${c.targets.length}, which can only be 1 or 2`, {
          line: second.endLine,
          column: second.endColumn + 1,
        });
      }
      this.expr(c.iter, inner);
      inner = inner.with(c.targets);
      for (const cond of c.ifs) this.expr(cond, inner);
    }
    return inner;
  }

  private config(items: A.ConfigItem[], scope: Names): void {
    // a config's values may read its own keys, whatever their order
    const own = new Set<string>();
    const collect = (list: A.ConfigItem[]) => {
      for (const i of list) {
        if (i.type === 'ConfigEntry') {
          let key = i.key;
          // `metadata.labels.k1 = "v1"` is a key `metadata` holding `{labels: {k1 = "v1"}}`
          while (key?.type === 'Selector') key = key.value;
          if (key?.type === 'Identifier') own.add(key.names[0]);
          else if (key?.type === 'StringLit') own.add(key.value);
        } else {
          collect(i.body);
          if (Array.isArray(i.orelse)) collect(i.orelse);
          else if (i.orelse) collect([i.orelse]);
        }
      }
    };
    collect(items);
    const keys = own.size > 0 ? scope.with(own) : scope;
    const visit = (list: A.ConfigItem[]) => {
      for (const i of list) {
        if (i.type === 'ConfigEntry') {
          // `arr[0] += [x]` names the key `arr`; only its index is an expression
          if (i.key?.type === 'Subscript' && i.key.value.type === 'Identifier') {
            if (i.key.index) this.expr(i.key.index, keys);
          } else if (i.key && i.key.type !== 'Identifier' && i.key.type !== 'Selector') this.expr(i.key, keys);
          this.expr(i.value, keys);
        } else {
          this.expr(i.cond, keys);
          visit(i.body);
          if (Array.isArray(i.orelse)) visit(i.orelse);
          else if (i.orelse) visit([i.orelse]);
        }
      }
    };
    visit(items);
  }

  private listItems(items: A.ListItem[], scope: Names): void {
    for (const i of items) {
      if (i.type === 'ListIfItem') {
        this.expr(i.cond, scope);
        this.listItems(i.body, scope);
        if (Array.isArray(i.orelse)) this.listItems(i.orelse, scope);
        else if (i.orelse) this.listItems([i.orelse], scope);
      } else if (i.type === 'Starred') this.expr(i.value, scope);
      else this.expr(i, scope);
    }
  }

  expr(e: A.Expr, scope: Names): void {
    switch (e.type) {
      case 'Identifier':
        if (!scope.has(e.names[0]) && !(this.undefinedSchemaNamesReadUndefined && this.schemaDepth > 0))
          this.report(`name '${e.names[0]}' is not defined${didYouMean(e.names[0], scope.all())}`, e);
        else if (e.names.length > 1) this.attributeOfDeclared(e.names[0], e.names[1], e, scope);
        return;
      case 'NumberLit':
      case 'NameConstant':
        return;
      case 'StringLit':
        for (const p of e.parts ?? []) if (p.expr) this.expr(p.expr, scope);
        return;
      case 'Paren':
        return this.expr(e.value, scope);
      case 'Binary': {
        // a loop along the left spine: a 10,000-term `+` chain is flat, not deep
        const { first, links } = binaryChain(e);
        this.expr(first, scope);
        for (const link of links) this.expr(link.right, scope);
        return;
      }
      case 'Compare':
        this.expr(e.left, scope);
        for (const c of e.comparators) this.expr(c, scope);
        return;
      case 'Unary':
        return this.expr(e.operand, scope);
      case 'As':
        this.typeNode(e.target, scope);
        return this.expr(e.value, scope);
      case 'IfExpr':
        this.expr(e.cond, scope);
        this.expr(e.body, scope);
        return this.expr(e.orelse, scope);
      case 'Selector':
        if (e.value.type === 'Identifier' && e.value.names.length === 1 && scope.has(e.value.names[0]))
          this.attributeOfDeclared(e.value.names[0], e.attr, e.value, scope);
        return this.expr(e.value, scope);
      case 'Subscript':
        this.expr(e.value, scope);
        for (const x of [e.index, e.lower, e.upper, e.step]) if (x) this.expr(x, scope);
        return;
      case 'Call':
        this.argumentOrder(e.args, e.keywords);
        this.expr(e.func, scope);
        for (const a of e.args) this.expr(a, scope);
        for (const k of e.keywords) this.expr(k.value, scope);
        return this.schemaCall(e.func, e.args, e.keywords, scope);
      case 'SchemaExpr':
        this.argumentOrder(e.args, e.keywords);
        this.expr(e.name, scope);
        for (const a of e.args) this.expr(a, scope);
        for (const k of e.keywords) this.expr(k.value, scope);
        this.schemaCall(e.name, e.args, e.keywords, scope);
        return this.expr(e.config, scope);
      case 'ListExpr':
        return this.listItems(e.items, scope);
      case 'ConfigExpr':
        return this.config(e.items, scope);
      case 'ListComp': {
        const inner = this.loops(e.generators, scope);
        return this.expr(e.element.type === 'Starred' ? e.element.value : e.element, inner);
      }
      case 'DictComp': {
        const inner = this.loops(e.generators, scope);
        if (e.entry.key) this.expr(e.entry.key, inner);
        return this.expr(e.entry.value, inner);
      }
      case 'QuantExpr': {
        this.expr(e.iter, scope);
        const inner = scope.with(e.targets);
        if (e.ifCond) this.expr(e.ifCond, inner);
        return this.expr(e.test, inner);
      }
      case 'Lambda': {
        this.params(e.params);
        const inner = scope
          .with(
            e.params.map((p) => p.name),
            this.declaredSchemas(e),
          )
          .with(this.bound(e.body));
        for (const p of e.params) {
          this.typeNode(p.annotation, scope);
          if (p.default) this.expr(p.default, scope);
        }
        this.typeNode(e.returnType, scope);
        for (const s of e.body) this.stmt(s, inner);
        return;
      }
    }
  }
}

/** Checks the files of one package (`pkgpath` empty for the main one); throws a KclError with
 * every problem found. */
export function resolveNames(
  modules: A.Module[],
  builtins: ReadonlySet<string>,
  pkgpath = '',
  options: { undefinedSchemaNamesReadUndefined?: boolean; mergedAssignments?: ReadonlySet<A.Stmt> } = {},
): void {
  const packageNames = new Set<string>();
  const schemas = new Map<string, A.SchemaStmt | A.RuleStmt>();
  const fileOf = new Map<A.Stmt, string>();
  for (const m of modules) {
    for (const s of m.body) {
      for (const n of definedNames(s)) packageNames.add(n);
      if (s.type === 'Schema' || s.type === 'Rule') {
        schemas.set(s.name, s);
        fileOf.set(s, m.file);
      }
    }
  }
  const problems = [
    ...inheritanceCycles(schemas, fileOf, pkgpath),
    ...mixinProblems(schemas, fileOf),
    ...globalRebindings(modules, options.mergedAssignments ?? new Set()),
  ];
  for (const m of modules) {
    new Resolver(m.file, builtins, schemas, problems, options.undefinedSchemaNamesReadUndefined).module(
      m.body,
      packageNames,
    );
  }
  throwAll(problems);
}

const isMixin = (s: A.SchemaStmt | A.RuleStmt) =>
  s.type === 'Schema' && (s.kind === 'mixin' || s.name.endsWith('Mixin'));

/** What a schema mixes in is named `…Mixin` and is a mixin (kcl's build_schema_type). */
function mixinProblems(
  schemas: ReadonlyMap<string, A.SchemaStmt | A.RuleStmt>,
  fileOf: ReadonlyMap<A.Stmt, string>,
): Diagnostic[] {
  const problems: Diagnostic[] = [];
  for (const [s, file] of fileOf) {
    if (s.type !== 'Schema') continue;
    for (const id of s.mixins) {
      const name = id.names[id.names.length - 1];
      const position = { file, line: id.line, column: id.column };
      if (!name.endsWith('Mixin'))
        problems.push({
          kind: 'NameError',
          message: `a valid mixin name should end with 'Mixin', got '${name}'`,
          position,
        });
      const mixin = id.names.length === 1 ? schemas.get(name) : undefined;
      if (mixin && !isMixin(mixin))
        problems.push({
          kind: 'IllegalInheritError',
          message: `illegal schema mixin object type, expected mixin, got '${name}'`,
          position,
        });
    }
  }
  return problems;
}

/** A schema may not derive from itself through its parents; kcl names every schema of a cycle,
 * once per schema. */
function inheritanceCycles(
  schemas: ReadonlyMap<string, A.SchemaStmt | A.RuleStmt>,
  fileOf: ReadonlyMap<A.Stmt, string>,
  pkgpath: string,
): Diagnostic[] {
  const parentOf = (s: A.SchemaStmt) => (s.parent?.names.length === 1 ? schemas.get(s.parent.names[0]) : undefined);
  const ordered = [...fileOf.keys()].filter((s): s is A.SchemaStmt => s.type === 'Schema');
  const reported = new Set<A.SchemaStmt>();
  const problems: Diagnostic[] = [];
  for (const s of ordered) {
    if (reported.has(s)) continue;
    const seen: A.SchemaStmt[] = [s];
    for (let p = parentOf(s); p?.type === 'Schema'; p = parentOf(p)) {
      if (p === s) {
        const names = seen.map((x) => (pkgpath ? `${pkgpath}.${x.name}` : x.name));
        const message = `There is a circular reference between schemas ${names.join(', ')}`;
        for (const x of ordered.filter((x) => seen.includes(x))) {
          reported.add(x);
          problems.push({
            kind: 'CompileError',
            message,
            position: { file: fileOf.get(x)!, line: x.nameLoc.line, column: x.nameLoc.column },
          });
        }
        break;
      }
      if (seen.includes(p)) break;
      seen.push(p);
    }
  }
  return problems;
}
