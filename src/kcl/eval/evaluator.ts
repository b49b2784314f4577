/**
 * The evaluator: runs a module's statements and evaluates expressions over runtime values.
 * Collections and comprehensions are in collections.ts, schemas in schema.ts.
 */
import type * as A from '../ast.js';
import { isRuntimeKind, KclError, kclError, throwAll, type Diagnostic } from '../../diagnostics/diagnostics.js';
import { didYouMean } from '../suggestions.js';
import { schemaCallProblems } from '../call-check.js';
import { toJson, toYaml } from '../yaml.js';
import { binaryChain } from '../nesting.js';
import { Budget } from './budget.js';
import { BUILTINS } from './builtins.js';
import { OPTION } from './option.js';
import { evalComprehension, evalConfig, evalDictComp, evalList, evalQuant } from './collections.js';
import { configOf, union } from './config.js';
import { definitionEnv, withScope, type CallFrame, type Env, type ModuleCtx } from './env.js';
import { binary, checkInt, compare, unary } from './operators.js';
import {
  checkConfigKeys,
  checkWrittenInstance,
  declaredTypeText,
  fitsSchema,
  literalArgumentMismatch,
  literalCastProblem,
  schemaWritten,
} from './config-check.js';
import { completeProvisional, defineSchema, instantiate, type UnfinishedInstance } from './schema.js';
import type { SchemaDef } from './schema-def.js';
import { importedName, LazyStatements } from './lazy.js';
import { Scope, type SchemaParts } from './scope.js';
import { stringMethod } from './string-methods.js';
import {
  annotationText,
  convert,
  convertToSchema,
  inferType,
  isSchemaDef,
  typeText,
  valueTypeText,
  widenedTypeText,
  type TypeEnv,
} from './types.js';
import { allAttrs, schemaHasAttr } from './schema-def.js';
import {
  deepCopy,
  DictValue,
  isDict,
  isFunction,
  isInt,
  isList,
  isModule,
  isNoneOrUndefined,
  isSchemaInstance,
  isSchemaType,
  isStr,
  toStr,
  truthy,
  typeName,
  UNDEFINED,
  UnitValue,
  type BuiltinHost,
  type CallArgs,
  type FunctionValue,
  isLambda,
  type LambdaValue,
  type ModuleValue,
  type ProgramHost,
  type Value,
} from './values.js';
import { InstanceRegistry, MAIN_PKGPATH } from './instances.js';

export interface EvalOptions {
  /** Keep `_private` schema attributes in instances (`--show_hidden`). */
  showHidden?: boolean;
  /** Resolves `import spec` written in a file to a package or system module. */
  importModule?: (spec: string, fromFile: string) => ModuleValue;
  /** Whether a config entry's value may read the keys set before it (kcl since v0.4.5; the
   * default). */
  configKeysInScope?: boolean;
  /** A name no scope defines reads as Undefined in a schema body (kcl before v0.5). */
  undefinedSchemaNamesReadUndefined?: boolean;
  /** In a schema body the schema's attributes win over the keys of a config being built there
   * (kcl before v0.5; see kcl-mod.ts). */
  schemaAttributesBeforeConfigKeys?: boolean;
  /** Required attributes are checked only in instances written where they are made, and in
   * their instance-valued attributes (kcl before v0.5; see kcl-mod.ts). */
  requiredAttributesCheckedOnlyWhereWritten?: boolean;
  /** Given when a main-package file's `pkg.name`, `pkg` imported only by a later file, reads
   * Undefined unless the package has run already (kcl before v0.5, see
   * VersionRules.laterImportsReadUndefined): whether an import has run the package `spec`
   * written in `fromFile` names. */
  packageImportedYet?: (spec: string, fromFile: string) => boolean;
  /** Top-level `a = S {...}` of the main package that merge like `a: S {...}` (config-merge.ts). */
  mergedAssignments?: ReadonlySet<A.Stmt>;
  /** Where the run counts the instances it makes, for `Schema.instances()`. */
  instances?: InstanceRegistry;
  /** The deadline and memory the run may use; by default no deadline and V8's heap. */
  budget?: Budget;
}

const MAX_CALL_DEPTH = 500;

/** Names every module can read without an import. */
export const BUILTIN_NAMES: ReadonlySet<string> = new Set([...BUILTINS.keys(), 'option']);

export class Evaluator {
  private depth = 0;
  /** How many schema bodies are running: instances made inside them are provisional. */
  provisionalDepth = 0;
  /** The provisional instances of this run not yet finished, with the frames that built them:
   * a run's frames serve that run only. */
  readonly unfinished = new WeakMap<DictValue, UnfinishedInstance>();
  /** What each provisional instance a frame finished became: the same instance met again (a
   * value held in two places, `[i, i]`) is the same finished instance, not a second one. */
  private readonly finishedAs = new WeakMap<DictValue, DictValue>();
  /** Above 0 while instances are made that kcl before v0.5 did not check for required
   * attributes (see `requiredAttributesCheckedOnlyWhereWritten`). */
  uncheckedDepth = 0;
  /** The file of the statement running now, for `file.current()`. */
  currentFile = '';
  /** What functions called by this program are given; lambdas run here, whoever defined them. */
  readonly host: BuiltinHost;
  /** Per call site, the parameter lists its literal arguments were found to fit this run. The
   * check reads only syntax and the types of the callee's module, which a run does not change,
   * so a lambda called for every item of a list is checked at its first call. */
  private readonly literalArgsFit = new WeakMap<A.CallExpr | A.SchemaExpr, WeakSet<A.Param[]>>();
  /** Per `{...}` of `S {...}`, the schemas its keys were found to fit this run (the same reasoning). */
  private readonly configKeysFit = new WeakMap<A.ConfigExpr, WeakSet<SchemaDef>>();
  readonly instances: InstanceRegistry;
  private readonly budget: Budget;

  constructor(
    program: ProgramHost,
    readonly options: EvalOptions = {},
  ) {
    this.host = {
      print: (text) => program.print(text),
      option: (key) => program.option(key),
      system: program.system,
      reachesOutside: () => program.reachesOutside(),
      runLambda: (fn, call) => this.runLambda(fn, call),
      instancesOf: (schema, fullPkg) => this.instances.of(schema as SchemaDef, fullPkg),
    };
    this.instances = options.instances ?? new InstanceRegistry();
    this.budget = options.budget ?? new Budget();
  }

  /** Runs the files of one package in order, sharing one global scope; a global read before
   * its statement has run is evaluated on demand (see lazy.ts). */
  runModules(modules: A.Module[], pkgpath = MAIN_PKGPATH): ModuleCtx {
    const lazy = new LazyStatements((stmt, env) => this.execStmt(stmt, env));
    const scope: Scope = new Scope(undefined, 'module', {
      lookupName: (name) => {
        lazy.resolve(name);
        // a global whose statement never bound it (`if False: a = 1`) reads as Undefined
        return !scope.vars.has(name) && lazy.defines(name) ? UNDEFINED : undefined;
      },
    });
    const ctx: ModuleCtx = {
      scope,
      order: lazy.order,
      scalars: [],
      aliases: new Map(),
      unified: new Map(),
      types: new Map(),
      firstValues: new Map(),
      instanceTypes: new Map(),
      morePending: (name) => lazy.hasPending(name),
      laterImport: (name, file) => {
        if (scope.vars.has(name)) return undefined;
        const waiting = lazy.waiting(name);
        const first = waiting[0];
        if (!first || waiting.some((w) => w.stmt.type !== 'Import' || w.file === file)) return undefined;
        return first.stmt.type === 'Import' ? { path: first.stmt.path, file: first.file } : undefined;
      },
      pkgpath,
    };
    for (const m of modules) {
      const env: Env = { scope, file: m.file, module: ctx, frame: undefined };
      for (const stmt of m.body) lazy.add(stmt, env);
    }
    lazy.runAll();
    return ctx;
  }

  // ---------------------------------------------------------------- statements

  execBlock(stmts: A.Stmt[], env: Env): void {
    for (const s of stmts) this.execStmt(s, env);
  }

  execStmt(stmt: A.Stmt, env: Env): void {
    const outer = this.currentFile;
    this.currentFile = env.file;
    try {
      this.execStmtInner(stmt, env);
    } catch (e) {
      const value = stmt.type === 'Assign' || stmt.type === 'Attr' ? stmt.value : undefined;
      throw locate(e, env.file, stmt, value && lastEvaluatedLine(value));
    } finally {
      this.currentFile = outer;
    }
  }

  private execStmtInner(stmt: A.Stmt, env: Env): void {
    switch (stmt.type) {
      case 'Assign': {
        if (stmt.value.type === 'SchemaExpr' && this.options.mergedAssignments?.has(stmt)) {
          for (const t of stmt.targets) this.unifyGlobal(t.name, stmt.value, env);
          return;
        }
        const value = this.evalExpr(stmt.value, env);
        for (const t of stmt.targets) this.assign(t, value, env);
        const written = env.scope.kind === 'module' ? schemaWritten(stmt.value, this.typeEnv(env)) : undefined;
        if (written)
          for (const t of stmt.targets) if (t.path.length === 0) env.module.instanceTypes.set(t.name, written);
        // a lambda returns the value of its last statement, an assignment included
        if (env.frame) env.frame.last = value;
        return;
      }
      case 'Attr': {
        const schema = env.scope.schemaScope();
        if (schema) {
          // a declaration without a value keeps what a parent schema gave the attribute
          if (stmt.value)
            schema.attrs!.assignAttr(stmt.name, this.evalExpr(stmt.value, env), stmt.op === '|=' ? 'union' : 'set');
          else if (!stmt.optional && stmt.annotation.type === 'LiteralType' && stmt.annotation.value !== null) {
            // kcl's pre-processing gives a required attribute of a literal type that literal as
            // its default (`kind: "Service"` reads as `kind: "Service" = "Service"`)
            const { value, suffix } = stmt.annotation;
            schema.attrs!.assignAttr(stmt.name, suffix ? new UnitValue(value as bigint, suffix) : value, 'set');
          }
          return;
        }
        if (!stmt.value) return;
        checkWrittenInstance(stmt.annotation, stmt.value, this.typeEnv(env), {
          file: env.file,
          line: stmt.nameLoc.line,
          column: stmt.nameLoc.column,
        });
        this.assign(
          { name: stmt.name, path: [], loc: stmt.nameLoc },
          this.evalExpr(stmt.value, env),
          env,
          stmt.annotation,
        );
        return;
      }
      case 'AugAssign': {
        const current = this.lookupTarget(stmt.target, env);
        const operand = this.evalExpr(stmt.value, env);
        let value: Value;
        try {
          value = this.applyBinary(stmt.op, current, operand, env);
        } catch (err) {
          // the target is a variable to kcl's checker, whatever its path
          const target: A.Identifier = { type: 'Identifier', names: [stmt.target.name], ...stmt.target.loc };
          throw reworded(err, stmt.op, target, current, stmt.value, operand);
        }
        this.assign(stmt.target, value, env);
        if (env.frame) env.frame.last = value;
        return;
      }
      case 'Unification': {
        const schema = this.evalExpr(stmt.value.name, env);
        if (schema === UNDEFINED && this.options.packageImportedYet) {
          this.assign(stmt.target, this.configAlone(stmt.value, env), env);
          return;
        }
        const { def, call, config } = this.schemaParts(stmt.value, env, schema);
        const name = stmt.target.name;
        if (env.scope.kind !== 'module') {
          const schema = env.scope.schemaScope();
          if (schema) schema.attrs!.unify(name, { def, call, config }, env);
          else this.assign(stmt.target, instantiate(this, def, call, config, env), env);
          return;
        }
        this.mergeGlobal(name, { def, call, config }, env);
        return;
      }
      case 'ExprStmt': {
        const value = this.evalExpr(stmt.value, env);
        if (env.frame) env.frame.last = value;
        else if (env.scope.kind === 'module' && !isNoneOrUndefined(value) && !isFunction(value)) {
          env.module.scalars.push({ value, position: { file: env.file, line: stmt.line, column: stmt.column } });
        } else if (isSchemaInstance(value) && value.provisional) {
          // an instance a schema body makes and drops (`Base(name)` as a statement) is never
          // finished by a later statement, but kcl counts it among its schema's instances
          this.instances.made(value, value.madeIn ?? env.module.pkgpath);
        }
        return;
      }
      case 'Assert': {
        if (stmt.ifCond && !truthy(this.evalExpr(stmt.ifCond, env))) return;
        if (truthy(this.evalExpr(stmt.test, env))) return;
        const message = stmt.message ? toStr(this.evalExpr(stmt.message, env)) : '';
        throw kclError('AssertionError', message);
      }
      case 'If':
        this.execBlock(truthy(this.evalExpr(stmt.cond, env)) ? stmt.body : stmt.orelse, env);
        return;
      case 'Import': {
        const module = this.options.importModule?.(stmt.path, env.file);
        if (!module) throw kclError('CannotFindModule', `pkgpath ${stmt.path} not found in the program`);
        env.scope.vars.set(importedName(stmt), module);
        return;
      }
      case 'TypeAlias': {
        env.module.aliases.set(stmt.name, stmt.value);
        // kcl's resolver puts the aliased name in place of an alias that names a schema wherever
        // it is written, so the alias is also the schema as a value (`PersonOther {...}`, and
        // `pkg.PersonOther {...}` from another package)
        const target = stmt.value.type === 'NamedType' ? this.typeEnv(env).resolveType(stmt.value.name) : undefined;
        if (target && isSchemaDef(target)) env.scope.vars.set(stmt.name, target);
        return;
      }
      case 'Schema':
      case 'Rule': {
        const def = defineSchema(this, stmt, env);
        this.assign({ name: stmt.name, path: [], loc: stmt }, def, env);
        return;
      }
      case 'IndexSignature':
      case 'Mixin':
        throw kclError(
          'InvalidSyntax',
          `${stmt.type === 'Mixin' ? 'mixin' : 'an index signature'} is only allowed in a schema body`,
        );
    }
  }

  /** `a: S {...}` said several times (and a `a = S {...}` merged with them, see config-merge.ts)
   * merges the configs, then instantiates once, so each statement may leave required attributes
   * to the others. */
  private mergeGlobal(name: string, parts: SchemaParts, env: Env): void {
    const prior = env.module.unified.get(name);
    const merged = prior ? { ...parts, config: union(prior.config, parts.config) as DictValue } : parts;
    env.module.unified.set(name, merged);
    if (!env.module.morePending(name))
      env.scope.vars.set(name, instantiate(this, merged.def, merged.call, merged.config, env));
  }

  private unifyGlobal(name: string, value: A.SchemaExpr, env: Env): void {
    this.mergeGlobal(name, this.schemaParts(value, env), env);
  }

  private lookupTarget(t: A.Target, env: Env): Value {
    let v = env.scope.lookup(t.name);
    if (v === undefined) throw kclError('EvaluationError', `name '${t.name}' is not defined`);
    for (const p of t.path) {
      if ('attr' in p && isNoneOrUndefined(v))
        throw kclError('EvaluationError', `invalid value '${typeName(v)}' to load attribute '${p.attr}'`);
      v = 'attr' in p ? this.select(v, p.attr, false) : this.subscript(v, this.evalExpr(p.index, env));
    }
    return v;
  }

  /** A global keeps the type it was declared with, or first given: `_a = 1; _a = "s"` fails. */
  private keepType(name: string, v: Value, annotation: A.TypeNode | undefined, env: Env): Value {
    const known = env.module.types.get(name) ?? inferredType(name, env.module);
    if (annotation && known && typeText(annotation) !== (isSchemaDef(known) ? known.name : typeText(known))) {
      throw kclError('TypeError', `can not change the type of '${name}' to ${typeText(annotation)}`);
    }
    const type = annotation ?? known;
    if (!type) {
      if (isDict(v) && v.schema) env.module.types.set(name, v.schema as SchemaDef);
      else env.module.firstValues.set(name, v);
      return v;
    }
    if (!known) env.module.types.set(name, type);
    if (isSchemaDef(type)) return convertToSchema(v, type, this.typeEnv(env));
    try {
      return convert(v, type, this.typeEnv(env));
    } catch (e) {
      // kcl's checker names the whole value against the variable's whole type, not the element
      // inside that does not fit
      if (!(e instanceof KclError) || e.diagnostic.kind !== 'TypeError' || e.diagnostic.position) throw e;
      if (!isList(v) && !isDict(v)) throw e;
      throw kclError('TypeError', `expected ${declaredTypeText(type, this.typeEnv(env))}, got ${valueTypeText(v)}`);
    }
  }

  /** Assigns to a name or a path under it; module globals are immutable unless `_private`. */

  assign(t: A.Target, value: Value, env: Env, annotation?: A.TypeNode): void {
    let v = value;
    if (t.path.length > 0) {
      const current = this.lookupTarget({ ...t, path: [] }, env);
      v =
        isSchemaInstance(current) && t.path.every((p) => 'attr' in p)
          ? this.reinstantiate(
              current,
              merged(
                current,
                nestedConfig(
                  t.path.map((p) => (p as { attr: string }).attr),
                  value,
                ),
              ),
              env,
            )
          : this.setPath(deepCopy(current), t.path, value, env);
    }
    const scope = env.scope;
    const schema = scope.schemaScope();
    if (schema && !scope.vars.has(t.name) && scope.kind !== 'comprehension') {
      schema.attrs!.assignAttr(t.name, v, 'set');
      return;
    }
    if (scope.kind === 'module') {
      v = this.keepType(t.name, v, annotation, env);
    }
    scope.vars.set(t.name, v);
  }

  private setPath(base: Value, path: A.Target['path'], value: Value, env: Env): Value {
    let cur = base;
    for (let i = 0; i < path.length; i++) {
      const p = path[i];
      const last = i === path.length - 1;
      const key = 'attr' in p ? p.attr : this.evalExpr(p.index, env);
      if (isDict(cur) && isStr(key)) {
        if (last) cur.entries.set(key, value);
        else {
          let next = cur.get(key);
          if (!isDict(next) && !isList(next)) {
            next = new DictValue();
            cur.entries.set(key, next);
          }
          cur = next;
        }
      } else if (isList(cur) && isInt(key)) {
        const idx = Number(key < 0n ? BigInt(cur.length) + key : key);
        // kcl's words, which are those of the Rust runtime under it
        if (idx < 0 || idx >= cur.length)
          throw kclError('EvaluationError', `index out of bounds: the len is ${cur.length} but the index is ${key}`);
        if (last) cur[idx] = value;
        else cur = cur[idx];
      } else if ('attr' in p) {
        throw kclError(
          'EvaluationError',
          `failed to update the dict. An iterable of key-value pairs was expected, but got ${typeName(cur)}. Check if the syntax for updating the dictionary with the attribute '${p.attr}' is correct`,
        );
      } else {
        throw kclError('TypeError', `'${typeName(cur)}' object does not support item assignment`);
      }
    }
    return base;
  }

  // ---------------------------------------------------------------- expressions

  evalExpr(e: A.Expr, env: Env): Value {
    try {
      this.budget.tick();
      return this.evalInner(e, env);
    } catch (err) {
      throw locate(err, env.file, e);
    }
  }

  private evalInner(e: A.Expr, env: Env): Value {
    switch (e.type) {
      case 'NumberLit':
        if (e.suffix) return new UnitValue(checkInt(e.value as bigint), e.suffix);
        return typeof e.value === 'bigint' ? checkInt(e.value) : e.value;
      case 'StringLit':
        return e.parts ? this.interpolate(e.parts, env) : e.value;
      case 'NameConstant':
        return e.value === 'Undefined' ? UNDEFINED : e.value;
      case 'Identifier':
        return this.lookupName(e.names, env);
      case 'Paren':
        return this.evalExpr(e.value, env);
      case 'Binary':
        return this.evalBinary(e, env);
      case 'Compare': {
        let left = this.evalExpr(e.left, env);
        let leftNode = e.left;
        for (let i = 0; i < e.ops.length; i++) {
          const right = this.evalExpr(e.comparators[i], env);
          try {
            if (!compare(e.ops[i], left, right)) return false;
          } catch (err) {
            throw reworded(err, e.ops[i], leftNode, left, e.comparators[i], right);
          }
          left = right;
          leftNode = e.comparators[i];
        }
        return true;
      }
      case 'Unary':
        return unary(e.op, this.evalExpr(e.operand, env));
      case 'IfExpr':
        return truthy(this.evalExpr(e.cond, env)) ? this.evalExpr(e.body, env) : this.evalExpr(e.orelse, env);
      case 'As': {
        const cast = literalCastProblem(e.value, e.target, this.typeEnv(env));
        if (cast) throw kclError('TypeError', cast);
        const value = this.evalExpr(e.value, env);
        try {
          return convert(value, e.target, { ...this.typeEnv(env), strict: true });
        } catch (err) {
          throw castFailure(err, value, e.target, this.typeEnv(env));
        }
      }
      case 'Selector': {
        if (e.value.type === 'Identifier' && e.value.names.length === 1 && this.notImportedYet(e.value.names[0], env))
          return UNDEFINED;
        const v =
          e.value.type === 'Identifier' && e.value.names.length === 1
            ? this.lookupName(e.value.names, env, true)
            : this.evalExpr(e.value, env);
        return this.select(v, e.attr, e.optional);
      }
      case 'Subscript':
        return this.evalSubscript(e, env);
      case 'Call':
        return this.evalCall(e, env);
      case 'SchemaExpr': {
        // `inst {...}` on an instance: a new instance with the config merged in
        const target = this.evalExpr(e.name, env);
        if (target === UNDEFINED && this.options.packageImportedYet) return this.configAlone(e, env);
        if (isSchemaInstance(target) && e.config.type === 'ConfigExpr') {
          return this.reinstantiate(target, merged(target, evalConfig(this, e.config, env)), env);
        }
        const { def, call, config } = this.schemaParts(e, env, target);
        const inst = instantiate(this, def, call, config, env);
        if (inst.provisional) inst.writtenAt = { file: env.file, node: e };
        return inst;
      }
      case 'ListExpr':
        return evalList(this, e.items, env);
      case 'ConfigExpr':
        return evalConfig(this, e, env);
      case 'ListComp':
        return evalComprehension(this, e, env);
      case 'DictComp':
        return evalDictComp(this, e, env);
      case 'QuantExpr':
        return evalQuant(this, e, env);
      case 'Lambda':
        return this.makeLambda(e, env);
    }
  }

  /** Builds an instance of the same schema, with the same arguments, from a new config, as kcl
   * re-resolves a schema after a union: attributes derived from others follow, and types,
   * required attributes and checks hold. */
  /** Runs `make` without required-attribute checks where kcl before v0.5 made none. */
  unchecked<T>(make: () => T): T {
    if (!this.options.requiredAttributesCheckedOnlyWhereWritten) return make();
    this.uncheckedDepth++;
    try {
      return make();
    } finally {
      this.uncheckedDepth--;
    }
  }

  reinstantiate(inst: DictValue, config: DictValue, env: Env): DictValue {
    const args = inst.schemaArgs ?? { args: [], kwargs: new Map() };
    try {
      const out = instantiate(this, inst.schema as SchemaDef, args, config, env, inst.madeIn ?? env.module.pkgpath);
      if (out.provisional) out.writtenAt = inst.writtenAt;
      return out;
    } catch (err) {
      // a failure found when a provisional instance is checked belongs where it was written
      throw inst.writtenAt ? locate(err, inst.writtenAt.file, inst.writtenAt.node) : err;
    }
  }

  /** A provisional instance among the values of the outermost instance being built, checked
   * and counted among its schema's instances: finished by the frame that built it when it is that
   * very instance (nothing merged into it since; the outermost instance's statement is still
   * running, so what its bodies read is as it was), else rebuilt from its config. Each frame
   * finishes once; met again, the instance it finished is its answer: rebuilding that very
   * instance would make the same values, and count a second instance where kcl has one. */
  finishProvisional(inst: DictValue, env: Env): DictValue {
    if (this.provisionalDepth > 0) return this.reinstantiate(inst, configOf(inst), env);
    const frame = this.unfinished.get(inst);
    if (!frame) return this.finishedAs.get(inst) ?? this.reinstantiate(inst, configOf(inst), env);
    this.unfinished.delete(inst);
    const madeIn = inst.madeIn ?? env.module.pkgpath;
    try {
      const out = frame.finish();
      this.finishedAs.set(inst, out);
      out.madeIn = madeIn;
      this.instances.made(out, madeIn);
      return out;
    } catch (err) {
      throw inst.writtenAt ? locate(err, inst.writtenAt.file, inst.writtenAt.node) : err;
    }
  }

  /** A global's value as printed: instances a union left provisional are rebuilt. */
  finished(v: Value, ctx: ModuleCtx): Value {
    const env: Env = { scope: ctx.scope, file: this.currentFile, module: ctx, frame: undefined };
    return completeProvisional(v, (inst) => this.reinstantiate(inst, configOf(inst), env));
  }

  /** The schema, arguments and config of `S(args) {config}`, not yet instantiated. */
  private schemaParts(
    e: A.SchemaExpr,
    env: Env,
    target?: Value,
  ): { def: SchemaDef; call: CallArgs; config: DictValue } {
    const def = target ?? this.evalExpr(e.name, env);
    if (!isSchemaType(def))
      throw kclError('TypeError', `only a schema can be instantiated with a config, not ${typeName(def)}`);
    this.checkSchemaArgs(e, def as SchemaDef, e.name, e.args, e.keywords, env);
    const call = this.evalArgs(e.args, e.keywords, env);
    if (e.config.type === 'ConfigExpr') this.checkConfigKeysOnce(def as SchemaDef, e.config, env);
    // as in kcl, a schema instance written inside another's config is checked (required
    // attributes, check blocks) with the outermost instance, once every config that unifies
    // into it is in (`db = DB {...}` in main.k completed by `db: DB {type = ...}` in platform.k)
    this.provisionalDepth++;
    let config: DictValue;
    try {
      config = e.config.type === 'ConfigExpr' ? evalConfig(this, e.config, env) : evalDictComp(this, e.config, env);
    } finally {
      this.provisionalDepth--;
    }
    return { def: def as SchemaDef, call, config };
  }

  /** A chain of binary operations, `((a + b) - c) * d`, in a loop along its left spine, so that
   * a long flat chain needs no stack; each operation's errors are placed at its own node. */
  private evalBinary(e: A.BinaryExpr, env: Env): Value {
    if (e.left.type !== 'Binary') return this.binaryStep(e, this.evalExpr(e.left, env), env);
    const { first, links } = binaryChain(e);
    let value = this.evalExpr(first, env);
    for (const link of links) {
      try {
        value = this.binaryStep(link, value, env);
      } catch (err) {
        // the outermost node's place is added by evalExpr, as before
        throw link === e ? err : locate(err, env.file, link);
      }
    }
    return value;
  }

  private binaryStep(e: A.BinaryExpr, left: Value, env: Env): Value {
    if (e.op === 'and') return truthy(left) ? this.evalExpr(e.right, env) : left;
    if (e.op === 'or') return truthy(left) ? left : this.evalExpr(e.right, env);
    const right = this.evalExpr(e.right, env);
    try {
      return this.applyBinary(e.op, left, right, env);
    } catch (err) {
      throw reworded(err, e.op, e.left, left, e.right, right);
    }
  }

  /** Binary operators, where `|` involving schema instances yields a checked instance. */
  private applyBinary(op: A.BinaryOp, left: Value, right: Value, env: Env): Value {
    if (op === '|' && isSchemaInstance(left) && isDict(right)) {
      // instance | instance merges values (the right one's derived values win); instance | {...}
      // merges the config and derives again
      const config = right.schema ? configOf(union(left, right, { override: true }) as DictValue) : merged(left, right);
      return this.reinstantiate(left, config, env);
    }
    if (op === '|' && isDict(left) && !left.schema && isSchemaInstance(right)) {
      throw kclError('TypeError', `unsupported operand type(s) for |: 'dict' and '${right.schema!.name}'`);
    }
    return binary(op, left, right);
  }

  /** `S {...}` where `S` reads Undefined, in kcl before v0.5: the config alone, a plain dict
   * (see VersionRules.laterImportsReadUndefined). */
  private configAlone(e: A.SchemaExpr, env: Env): Value {
    return e.config.type === 'ConfigExpr' ? evalConfig(this, e.config, env) : evalDictComp(this, e.config, env);
  }

  /** kcl before v0.5: in a main-package file, `name.attr` where only a later file imports `name`
   * and no import has run that package yet (VersionRules.laterImportsReadUndefined). */
  private notImportedYet(name: string, env: Env): boolean {
    const imported = this.options.packageImportedYet;
    if (!imported || env.module.pkgpath !== MAIN_PKGPATH) return false;
    // a lambda parameter or comprehension variable of that name is what the name reads
    for (let s: Scope | undefined = env.scope; s?.parent; s = s.parent) if (s.vars.has(name)) return false;
    const later = env.module.laterImport(name, env.file);
    return later !== undefined && !imported(later.path, later.file);
  }

  /** `selected`: the name is the left side of a selector (`name.attr`). */
  lookupName(names: string[], env: Env, selected = false): Value {
    const first = names[0];
    const dotted = names.length > 1;
    if (dotted && this.notImportedYet(first, env)) return UNDEFINED;
    // `pkg.name` where `pkg` is an import reads the package even inside a config with a key
    // `pkg` (`metadata = ObjectMeta {name = metadata.__META_APP_NAME}`), however deep the
    // configs nest: kcl's resolver binds the dotted name to the import, and a config's keys are
    // not in its scopes
    const imported = (selected || dotted) && isModule(env.scope.moduleScope().vars.get(first));
    // `None` is a value here, so a miss is `undefined`, never `??` on null
    let v: Value | undefined = env.scope.lookup(first, imported);
    if (v === undefined) v = BUILTINS.get(first) ?? (first === 'option' ? OPTION : undefined);
    if (v === undefined && this.options.undefinedSchemaNamesReadUndefined && env.scope.schemaScope()) v = UNDEFINED;
    if (v === undefined) throw kclError('EvaluationError', `name '${first}' is not defined`);
    for (let i = 1; i < names.length; i++) v = this.select(v, names[i], false);
    return v;
  }

  select(v: Value, attr: string, optional: boolean): Value {
    if (isNoneOrUndefined(v)) {
      if (optional) return null;
      throw kclError('AttributeError', `'${typeName(v)}' object has no attribute '${attr}'`);
    }
    if (isDict(v)) {
      const x = v.get(attr);
      if (x !== undefined) return x;
      if (v.schema && !schemaHasAttr(v.schema as SchemaDef, attr)) {
        throw kclError('AttributeError', `attribute '${attr}' not found in '${v.schema.name}'`);
      }
      return UNDEFINED;
    }
    if (isStr(v)) {
      const m = stringMethod(v, attr);
      if (m) return m;
    }
    if (isModule(v)) {
      const x = v.members.get(attr);
      if (x !== undefined) return x;
      throw kclError('TypeError', `attribute '${attr}' not found in 'module '${v.name}''`);
    }
    if (isSchemaType(v)) {
      if (attr === 'instances') return this.instancesFunction(v as SchemaDef);
      throw kclError('TypeError', `attribute '${attr}' not found in '${v.name}'${didYouMean(attr, ['instances'])}`);
    }
    throw kclError('AttributeError', `'${typeName(v)}' object has no attribute '${attr}'`);
  }

  private evalSubscript(e: A.SubscriptExpr, env: Env): Value {
    const v = this.evalExpr(e.value, env);
    // kcl's `?[...]` gives None for any falsy value (None, `{}`, `[]`, ""), not only None
    if (e.optional && !truthy(v)) return null;
    if (!e.isSlice) {
      const index = this.evalExpr(e.index!, env);
      // `?[i]` also forgives an index past the end
      if (
        e.optional &&
        (isList(v) || isStr(v)) &&
        isInt(index) &&
        (index >= BigInt(v.length) || index < -BigInt(v.length))
      )
        return null;
      return this.subscript(v, index);
    }
    const bound = (x: A.Expr | undefined) => {
      if (!x) return undefined;
      const b = this.evalExpr(x, env);
      if (b === null) return undefined;
      if (!isInt(b)) throw kclError('TypeError', `slice indices must be integers or None, got ${typeName(b)}`);
      return Number(b);
    };
    return slice(v, bound(e.lower), bound(e.upper), bound(e.step));
  }

  subscript(v: Value, index: Value): Value {
    if (isList(v) || isStr(v)) {
      if (!isInt(index) && typeof index !== 'boolean')
        throw kclError('TypeError', `${typeName(v)} indices must be integers, not ${typeName(index)}`);
      const n = Number(index);
      const i = n < 0 ? v.length + n : n;
      if (i < 0 || i >= v.length)
        throw kclError('IndexError', `${isStr(v) ? 'string' : 'list'} index out of range: ${n}`);
      return v[i];
    }
    if (isDict(v)) return v.get(isStr(index) ? index : toStr(index)) ?? UNDEFINED;
    if (isNoneOrUndefined(v)) throw kclError('TypeError', `'${typeName(v)}' object is not subscriptable`);
    throw kclError('TypeError', `'${typeName(v)}' object is not subscriptable`);
  }

  evalArgs(args: A.Expr[], keywords: A.Keyword[], env: Env): CallArgs {
    const kwargs = new Map<string, Value>();
    for (const k of keywords) kwargs.set(k.name, this.evalExpr(k.value, env));
    return { args: args.map((a) => this.evalExpr(a, env)), kwargs };
  }

  private evalCall(e: A.CallExpr, env: Env): Value {
    // `a?.f()` is None when `a` is: the `?.` covers the call too
    if (e.func.type === 'Selector' && e.func.optional) {
      const base = this.evalExpr(e.func.value, env);
      if (isNoneOrUndefined(base)) return null;
      return this.callValue(this.select(base, e.func.attr, true), this.evalArgs(e.args, e.keywords, env), env);
    }
    const fn = this.evalExpr(e.func, env);
    if (isSchemaType(fn)) this.checkSchemaArgs(e, fn as SchemaDef, e.func, e.args, e.keywords, env);
    else if (isLambda(fn)) this.checkLiteralArgs(e, fn.node.params, e.args, e.keywords, fn.closure, env);
    const call = this.evalArgs(e.args, e.keywords, env);
    return this.callValue(fn, call, env);
  }

  /** The keys of `S {config}` against the attributes of S, as kcl's checker finds them before running. */
  private checkConfigKeysOnce(def: SchemaDef, config: A.ConfigExpr, env: Env): void {
    checkedOnce(this.configKeysFit, config, def, () => checkConfigKeys(def, config.items, this.typeEnv(env), env.file));
  }

  /** Literal arguments that do not fit a lambda's parameter types, every one of the call, in the
   * words of kcl's checker rather than of its runtime. */
  private checkLiteralArgs(
    site: A.CallExpr | A.SchemaExpr,
    params: A.Param[],
    args: A.Expr[],
    keywords: A.Keyword[],
    calleeEnv: Env,
    env: Env,
  ): void {
    // on every call of a lambda: nothing to look at unless a parameter declares a type
    if (!params.some((p) => p.annotation)) return;
    checkedOnce(this.literalArgsFit, site, params, () => {
      const typeEnv = this.typeEnv(calleeEnv);
      const problems: Diagnostic[] = [];
      for (const [param, arg] of paramPairs(params, args, keywords)) {
        const problem = param && literalArgumentMismatch(param, arg, typeEnv, env.file, calleeEnv.file);
        if (problem) problems.push(problem);
      }
      throwAll(problems);
    });
  }

  /** The schema kcl's checker knows an argument to have: an instance written in place, or a
   * global assigned one. */
  private argSchema(arg: A.Expr, env: Env): SchemaDef | undefined {
    const written = schemaWritten(arg, this.typeEnv(env));
    if (written || arg.type !== 'Identifier' || arg.names.length !== 1) return written;
    const name = arg.names[0];
    for (let s: Scope | undefined = env.scope; s?.parent; s = s.parent) {
      if (s.vars.has(name) || s.source?.lookupName(name) !== undefined) return undefined;
    }
    return env.module.instanceTypes.get(name);
  }

  /** What kcl's checker refuses in the arguments of `S(...)` before running: too many or too few,
   * an unknown keyword (call-check.ts; the resolver finds these for the package's own schemas,
   * this for imported ones), a literal that does not fit its parameter, and an argument known to
   * hold another schema than its parameter declares, reported at the argument. */
  private checkSchemaArgs(
    site: A.CallExpr | A.SchemaExpr,
    def: SchemaDef,
    callee: A.Expr,
    args: A.Expr[],
    keywords: A.Keyword[],
    env: Env,
  ): void {
    const params = def.node.params;
    throwAll(schemaCallProblems({ name: def.name, params, callee, args, keywords }, env.file));
    const definedIn = definitionEnv(def);
    this.checkLiteralArgs(site, params, args, keywords, definedIn, env);
    const calleeEnv = this.typeEnv(definedIn);
    for (const [param, arg] of paramPairs(params, args, keywords)) {
      const given = param?.annotation ? this.argSchema(arg, env) : undefined;
      if (given && param?.annotation && !fitsSchema(param.annotation, given, calleeEnv)) {
        throw kclError('TypeError', `expected ${declaredTypeText(param.annotation, calleeEnv)}, got ${given.name}`, {
          file: env.file,
          line: arg.line,
          column: arg.column,
        });
      }
    }
  }

  callValue(fn: Value, call: CallArgs, env: Env): Value {
    if (isFunction(fn)) {
      if (++this.depth > MAX_CALL_DEPTH) {
        this.depth = 0;
        throw kclError('RecursionError', 'maximum recursion depth exceeded');
      }
      try {
        return fn.call(call, this.host);
      } finally {
        this.depth = Math.max(0, this.depth - 1);
      }
    }
    if (isSchemaType(fn)) return instantiate(this, fn as SchemaDef, call, new DictValue(), env);
    throw kclError('TypeError', `'${typeName(fn)}' object is not callable`);
  }

  private interpolate(parts: A.StringPart[], env: Env): string {
    let out = '';
    for (const p of parts) {
      if (p.text !== undefined) {
        out += p.text;
        continue;
      }
      const v = this.evalExpr(p.expr!, env);
      if (p.spec === 'json') out += toJson(v);
      else if (p.spec === 'yaml') out += toYaml(v);
      else out += toStr(v);
    }
    return out;
  }

  // ---------------------------------------------------------------- functions

  private makeLambda(e: A.LambdaExpr, env: Env): LambdaValue {
    const fn: LambdaValue = {
      kind: 'function',
      name: 'lambda',
      paramTypes: e.params.map((p) => p.annotation),
      node: e,
      closure: env,
      // not `this`: the lambda may outlive this run in a cached package, and the run calling it
      // is the one whose options, output and instances its body must see
      call: (call, host) => host.runLambda(fn, call),
    };
    return fn;
  }

  private runLambda(fn: LambdaValue, call: CallArgs): Value {
    const { node, closure } = fn;
    const scope = new Scope(closure.scope, 'lambda');
    this.bindParams(node.params, call, scope, closure, 'lambda');
    const frame: CallFrame = { last: null };
    this.execBlock(node.body, { scope, file: closure.file, module: closure.module, frame });
    return node.returnType ? this.convertAtRuntime(frame.last, node.returnType, closure) : frame.last;
  }

  /** A type check on a value only known when the program runs (an argument, a return value):
   * kcl reports it from its runtime, in its runtime's words. */
  private convertAtRuntime(v: Value, type: A.TypeNode | undefined, env: Env): Value {
    try {
      return convert(v, type, this.typeEnv(env));
    } catch (e) {
      if (
        e instanceof KclError &&
        e.diagnostic.kind === 'TypeError' &&
        type &&
        e.diagnostic.message.startsWith('expected ')
      ) {
        throw kclError('EvaluationError', `expect ${annotationText(type)}, got ${widenedTypeText(v)}`);
      }
      throw e;
    }
  }

  /**
   * Binds call arguments to parameters, with defaults and type checks. A schema's parameter given
   * no argument and no default is None, as in kcl's runtime: a dict converted to a schema type
   * passes none (`d: S = {...}`), and an explicit call short of arguments was refused before
   * running (call-check.ts). A lambda's is refused here, where kdeck's checker has not seen it.
   */
  bindParams(params: A.Param[], call: CallArgs, scope: Scope, env: Env, what: string, missingIsNone = false): void {
    if (call.args.length > params.length) {
      throw kclError(
        'TypeError',
        `${what} takes ${params.length} positional argument${params.length === 1 ? '' : 's'} but ${call.args.length} were given`,
      );
    }
    const names = new Set(params.map((p) => p.name));
    for (const k of call.kwargs.keys()) {
      if (!names.has(k)) throw kclError('TypeError', `${what} got an unexpected keyword argument '${k}'`);
    }
    params.forEach((p, i) => {
      let v: Value | undefined = i < call.args.length ? call.args[i] : call.kwargs.get(p.name);
      if (v === undefined) {
        if (p.default) v = this.evalExpr(p.default, withScope(env, scope));
        else if (missingIsNone) v = null;
        else throw kclError('TypeError', `${what} missing 1 required positional argument: '${p.name}'`);
      }
      scope.vars.set(p.name, this.convertAtRuntime(v, p.annotation, env));
    });
  }

  private instancesFunction(def: SchemaDef): FunctionValue {
    // the calling run's instances: `S.instances` may be kept in a cached package and called later
    return {
      kind: 'function',
      name: 'instances',
      call: (call, host) => {
        const fullPkg = call.args[0] ?? call.kwargs.get('full_pkg');
        return [...host.instancesOf(def, fullPkg !== undefined && truthy(fullPkg))];
      },
    };
  }

  typeEnv(env: Env): TypeEnv {
    return {
      resolveType: (name) => {
        if (name.length === 1) {
          const alias = env.module.aliases.get(name[0]);
          if (alias) return alias;
        }
        // a type names a global, never an attribute or local that happens to share its name;
        // most names are basic types (`str`) that no scope binds, so a miss is not an error
        let v = env.scope.moduleScope().lookup(name[0]);
        if (v === undefined) return undefined;
        try {
          for (const n of name.slice(1)) v = this.select(v, n, false);
        } catch {
          return undefined;
        }
        return isSchemaType(v) ? (v as SchemaDef) : undefined;
      },
      // kcl's checker resolves `pkg.T` through the module and says, in select's words, which
      // member it lacks
      unresolvedType: (t) => {
        let v = t.name.length > 1 ? env.scope.moduleScope().lookup(t.name[0]) : undefined;
        try {
          for (const part of t.name.slice(1)) {
            if (v === undefined || !isModule(v)) return undefined;
            v = this.select(v, part, false);
          }
        } catch (e) {
          if (!(e instanceof KclError)) throw e;
          e.diagnostic.position = { file: env.file, line: t.loc.line, column: t.loc.column };
          return e;
        }
        return undefined;
      },
      // before v0.5 an instance a type made from a dict was not checked for required attributes
      instantiate: (schema, config) =>
        this.unchecked(() => instantiate(this, schema, { args: [], kwargs: new Map() }, config, env)),
    };
  }
}

/** Runs `check` unless it passed before for `site` and `subject`; one that throws is run again next time. */
function checkedOnce<S extends object, T extends object>(
  passed: WeakMap<S, WeakSet<T>>,
  site: S,
  subject: T,
  check: () => void,
): void {
  let subjects = passed.get(site);
  if (subjects?.has(subject)) return;
  check();
  if (!subjects) passed.set(site, (subjects = new WeakSet()));
  subjects.add(subject);
}

/** The type a global got from its first value, inferred now that a later binding asks for it. */
function inferredType(name: string, ctx: ModuleCtx): A.TypeNode | undefined {
  const first = ctx.firstValues.get(name);
  if (first === undefined) return undefined;
  const type = inferType(first);
  ctx.firstValues.delete(name);
  ctx.types.set(name, type);
  return type;
}

/** Each argument of a call with the parameter it binds (none for one too many or unknown). */
function paramPairs(params: A.Param[], args: A.Expr[], keywords: A.Keyword[]): [A.Param | undefined, A.Expr][] {
  return [
    ...args.map((a, i): [A.Param | undefined, A.Expr] => [params[i], a]),
    ...keywords.map((k): [A.Param | undefined, A.Expr] => [params.find((p) => p.name === k.name), k.value]),
  ];
}

/** An instance's config with a change merged in. */
function merged(inst: DictValue, change: DictValue): DictValue {
  return union(configOf(inst), change, { override: true }) as DictValue;
}

/** `{a: {b: value}}` for the path `a.b`: a change to merge into an instance's config. */
function nestedConfig(path: string[], value: Value): DictValue {
  // `=` replaces the innermost key; the levels above it merge
  let v: Value = value;
  for (let i = path.length - 1; i > 0; i--) {
    const level = new DictValue();
    level.set(path[i], v, i === path.length - 1 ? '=' : ':');
    v = level;
  }
  const out = new DictValue();
  out.set(path[0], v, path.length === 1 ? '=' : ':');
  return out;
}

const LITERAL_NODES = new Set(['NumberLit', 'StringLit', 'NameConstant', 'ListExpr', 'ConfigExpr']);

function operandType(node: A.Expr, v: Value): string {
  return LITERAL_NODES.has(node.type) ? valueTypeText(v) : widenedTypeText(v);
}

/** kcl names the operands' types as its checker sees them: a literal keeps its value
 * (`int(1)`), a variable has its declared or inferred type (`[int | {str:str}]`). A None or
 * Undefined that comes from a variable has no type its checker can see, so kcl only finds the
 * mistake when the program runs, and says so in its runtime's words. */
function reworded(err: unknown, op: string, leftNode: A.Expr, left: Value, rightNode: A.Expr, right: Value): unknown {
  if (!(err instanceof KclError) || !err.diagnostic.message.startsWith('unsupported operand')) return err;
  const unseen = (node: A.Expr, v: Value) => isNoneOrUndefined(v) && !LITERAL_NODES.has(node.type);
  if (unseen(leftNode, left) || unseen(rightNode, right)) {
    if (op === '+' && isList(left) && isNoneOrUndefined(right)) {
      return kclError('EvaluationError', `can only concatenate list (not "${typeName(right)}") to list`);
    }
    return kclError(
      'EvaluationError',
      `unsupported operand type(s) for ${op}: '${widenedTypeText(left)}' and '${widenedTypeText(right)}'`,
    );
  }
  err.diagnostic.message = `unsupported operand type(s) for ${op}: '${operandType(leftNode, left)}' and '${operandType(rightNode, right)}'`;
  return err;
}

export function slice(v: Value, lower?: number, upper?: number, step = 1): Value {
  if (!isList(v) && !isStr(v)) throw kclError('TypeError', `'${typeName(v)}' object is not subscriptable`);
  if (step === 0) throw kclError('ValueError', 'slice step cannot be zero');
  const n = v.length;
  const norm = (x: number | undefined, dflt: number) => {
    if (x === undefined) return dflt;
    if (x < 0) return Math.max(step < 0 ? -1 : 0, x + n);
    return Math.min(x, step < 0 ? n - 1 : n);
  };
  const start = norm(lower, step > 0 ? 0 : n - 1);
  const stop = norm(upper, step > 0 ? n : -1);
  const items: Value[] = [];
  const chars: string[] = [];
  for (let i = start; step > 0 ? i < stop : i > stop; i += step) {
    if (isStr(v)) chars.push(v[i]);
    else items.push(v[i]);
  }
  return isStr(v) ? chars.join('') : items;
}

/**
 * The line of the last expression kcl's runtime walks in evaluating `e`: a failure found after
 * the value is made (converting it to the declared type) is reported at that line, as kcl's
 * runtime keeps the line of the expression it walked last.
 */
export function lastEvaluatedLine(e: A.Expr): number {
  for (let cur = e; ;) {
    let next: A.Expr | undefined;
    if (cur.type === 'ConfigExpr') {
      const last = cur.items.at(-1);
      next = last?.type === 'ConfigEntry' ? last.value : undefined;
    } else if (cur.type === 'ListExpr') {
      const last = cur.items.at(-1);
      next = last && last.type !== 'ListIfItem' ? (last.type === 'Starred' ? last.value : last) : undefined;
    } else if (cur.type === 'Paren') next = cur.value;
    if (!next) return cur.line;
    cur = next;
  }
}

/**
 * An instance cast to a schema it is not: kcl's checker lets it through, and its runtime says
 * which attributes the instance has that the schema does not, then which the schema has that
 * the instance lacks.
 */
function castFailure(err: unknown, value: Value, target: A.TypeNode, env: TypeEnv): unknown {
  if (!(err instanceof KclError) || err.diagnostic.kind !== 'TypeError' || !isSchemaInstance(value)) return err;
  const resolved = target.type === 'NamedType' ? env.resolveType(target.name) : undefined;
  if (!resolved || !isSchemaDef(resolved)) return err;
  const given = value.schema as SchemaDef;
  const givenName = given.module.pkgpath === MAIN_PKGPATH ? given.name : `${given.module.pkgpath}.${given.name}`;
  const wanted = allAttrs(resolved);
  const details = [
    ...[...value.entries.keys()]
      .filter((k) => !wanted.has(k))
      .map((k) => `Schema ${resolved.name} does not contain attribute ${k}`),
    ...[...wanted.keys()]
      .filter((k) => !value.entries.has(k))
      .map((k) => `Schema ${resolved.name}'s attribute ${k} is missing`),
  ];
  return kclError(
    'EvaluationError',
    [`expect ${resolved.name}, got ${givenName}. For details:`, ...details].join('\n'),
  );
}

/** Gives a diagnostic without a place the place of the node being evaluated; a runtime failure
 * at `runtimeLine` when kcl's runtime would be past the node's own line. */
function locate(e: unknown, file: string, node: A.Loc, runtimeLine?: number): unknown {
  if (e instanceof KclError && !e.diagnostic.position) {
    // kcl points a failed check at the instantiation; other runtime errors only at their line
    const lineOnly = isRuntimeKind(e.diagnostic.kind) && e.diagnostic.kind !== 'SchemaCheckFailure';
    const line = lineOnly ? (runtimeLine ?? node.line) : node.line;
    e.diagnostic.position = { file, line, column: lineOnly ? 1 : node.column, lineOnly };
  }
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return kclError('RecursionError', 'maximum recursion depth exceeded', {
      file,
      line: node.line,
      column: node.column,
    });
  }
  // a string or list past what V8 can hold, made where no allocation guard looked
  if (e instanceof RangeError && /invalid (string|array) length|allocation failed/i.test(e.message)) {
    return kclError('EvaluationError', `a value grew larger than kdeck can hold (${e.message})`, {
      file,
      line: node.line,
      column: 1,
      lineOnly: true,
    });
  }
  return e;
}
