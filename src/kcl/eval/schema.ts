/**
 * Schemas: definition, and instantiation from a config.
 *
 * An instance is built by running the bodies of its schema chain (parent first, then each
 * schema's mixins) in one frame. Attributes resolve on demand, so a body may use an attribute
 * defined further down (kcl's "irrelevant order"): looking up an attribute first runs the
 * statements that still have to define it. Every assignment to an attribute is merged with the
 * config's entry for it, so the config always wins over defaults while references in the body
 * see the final value.
 */
import type * as A from '../ast.js';
import { KclError, kclError } from '../../diagnostics/diagnostics.js';
import { didYouMean } from '../suggestions.js';
import { union } from './config.js';
import { definitionEnv, withScope, type Env } from './env.js';
import type { Evaluator } from './evaluator.js';
import { allAttrs, chainOf, indexSignature, SETTINGS_ATTR, type AttrDecl, type SchemaDef } from './schema-def.js';
import { CheckFailure } from './check-failure.js';
import { checkDefaults } from './config-check.js';
import { LazyStatements } from './lazy.js';
import { Scope, type AttributeSource, type SchemaParts } from './scope.js';
import { annotationText, convert, isSchemaDef, typeText, widenedTypeText } from './types.js';
import {
  deepCopy,
  DictValue,
  isDict,
  isList,
  isNoneOrUndefined,
  isSchemaInstance,
  isSchemaType,
  isStr,
  toStr,
  truthy,
  UNDEFINED,
  type CallArgs,
  type Value,
} from './values.js';

// ---------------------------------------------------------------- definition

function resolveSchema(ev: Evaluator, id: A.Identifier, env: Env, role: string): SchemaDef {
  const v = ev.lookupName(id.names, env);
  if (!isSchemaType(v)) throw kclError('IllegalInheritError', `invalid ${role} '${id.names.join('.')}': not a schema`);
  return v as SchemaDef;
}

function collectAttrs(stmts: A.Stmt[], owner: SchemaDef, out: Map<string, AttrDecl>): void {
  for (const s of stmts) {
    if (s.type === 'Attr') {
      const at = { file: owner.file, line: s.nameLoc.line, column: s.nameLoc.column };
      out.set(s.name, { name: s.name, type: s.annotation, optional: s.optional, owner, decorators: s.decorators, at });
    } else if (s.type === 'If') {
      collectAttrs(s.body, owner, out);
      collectAttrs(s.orelse, owner, out);
    }
  }
}

export function defineSchema(ev: Evaluator, node: A.SchemaStmt | A.RuleStmt, env: Env): SchemaDef {
  const parentId = node.type === 'Schema' ? node.parent : node.parents[0];
  const parent = parentId ? resolveSchema(ev, parentId, env, 'parent schema') : undefined;
  if (parent && parent.isRule !== (node.type === 'Rule')) {
    throw kclError(
      'IllegalInheritError',
      `invalid schema inherit object type, expect ${node.type === 'Rule' ? 'rule' : 'schema'}, got '${parent.name}'`,
    );
  }
  const mixins = node.type === 'Schema' ? node.mixins.map((m) => resolveSchema(ev, m, env, 'mixin')) : [];
  const attrs = new Map<string, AttrDecl>();
  const def: SchemaDef = {
    kind: 'schemaType',
    name: node.name,
    pkgpath: env.module.pkgpath,
    isRule: node.type === 'Rule',
    node,
    file: env.file,
    parent,
    mixins,
    scope: env.scope.moduleScope(),
    module: env.module,
    attrs,
  };
  if (node.type === 'Schema') collectAttrs(node.body, def, attrs);
  checkOverrides(ev, def);
  checkDefaults(def, ev.typeEnv(env));
  return def;
}

/** A type as kcl's checker prints it: a schema by its name without the package. */
function checkerTypeText(t: A.TypeNode): string {
  return t.type === 'NamedType' ? t.name[t.name.length - 1] : typeText(t);
}

/** The schema a type annotation names, resolved in the package of the schema that wrote it. */
function namedSchema(ev: Evaluator, t: A.TypeNode, owner: SchemaDef): SchemaDef | undefined {
  if (t.type !== 'NamedType') return undefined;
  const found = ev.typeEnv(definitionEnv(owner)).resolveType(t.name);
  return found && isSchemaDef(found) ? found : undefined;
}

/** kcl's is_upper_bound for two annotations: the same text, or a schema and one derived from it
 * (`name: pkg.Name` redeclares the parent's `name: Name` from package pkg). */
function narrows(ev: Evaluator, base: AttrDecl & { type: A.TypeNode }, own: AttrDecl & { type: A.TypeNode }): boolean {
  if (base.type.type === 'AnyType' || typeText(base.type) === typeText(own.type)) return true;
  const baseSchema = namedSchema(ev, base.type, base.owner);
  const ownSchema = namedSchema(ev, own.type, own.owner);
  return baseSchema !== undefined && ownSchema !== undefined && chainOf(ownSchema).includes(baseSchema);
}

/** What a schema may not do to what it inherits, and what its index signature demands. */
function checkOverrides(ev: Evaluator, def: SchemaDef): void {
  const inherited: ReadonlyMap<string, AttrDecl> = def.parent ? allAttrs(def.parent) : new Map();
  for (const [name, own] of def.attrs) {
    const base = inherited.get(name);
    if (base && !base.optional && own.optional) {
      throw kclError('TypeError', `can't change the required schema attribute of '${name}' to optional`, own.at);
    }
    if (base?.type && own.type && !narrows(ev, { ...base, type: base.type }, { ...own, type: own.type })) {
      throw kclError(
        'TypeError',
        // kcl's checker names the new type on both sides, a schema by its own name
        `can't change schema field type of '${name}' from ${checkerTypeText(own.type)} to ${checkerTypeText(own.type)}`,
        own.at,
      );
    }
  }
  const sig = indexSignature(def);
  if (sig?.keyName && allAttrs(def).has(sig.keyName)) {
    throw kclError(
      'IndexSignatureError',
      `index signature attribute name '${sig.keyName}' cannot have the same name as schema attributes`,
      { file: def.file, line: sig.line, column: sig.column },
    );
  }
  // `[...str]: T` types only the keys the schema does not declare
  if (!sig || sig.valueType.type === 'AnyType' || sig.anyOther) return;
  const allowed = typeText(sig.valueType);
  for (const [name, attr] of allAttrs(def)) {
    if (!attr.type || name.startsWith('_')) continue;
    const own = typeText(attr.type);
    const members = sig.valueType.type === 'UnionType' ? sig.valueType.members.map(typeText) : [allowed];
    if (own !== allowed && !members.includes(own)) {
      throw kclError(
        'IndexSignatureError',
        `the type '${own}' of schema attribute '${name}' does not meet the index signature definition [${typeText(sig.keyType)}]: ${allowed}`,
        attr.at,
      );
    }
  }
}

// ---------------------------------------------------------------- instantiation

/** `@deprecated(version=…, reason=…, strict=True)`: using what it marks is an error unless
 * strict=False; `@info(…)` only documents. */
function checkDecorators(ev: Evaluator, decorators: A.Decorator[], what: string, env: Env): void {
  for (const d of decorators) {
    const name = d.name.names.join('.');
    if (name === 'info') continue;
    if (name !== 'deprecated') throw kclError('EvaluationError', `UnKnown decorator ${name}`);
    const { kwargs } = ev.evalArgs(d.args, d.keywords, env);
    if (kwargs.get('strict') === false) continue;
    const version = kwargs.get('version');
    const reason = kwargs.get('reason');
    let message = `${what} was deprecated `;
    if (isStr(version) && version) message += `since version ${version}`;
    if (isStr(reason) && reason) message += `, ${reason}`;
    throw kclError('EvaluationError', message);
  }
}

class SchemaFrame implements AttributeSource {
  private readonly values = new Map<string, Value>();
  private readonly body: LazyStatements;
  private readonly attrs: ReadonlyMap<string, AttrDecl>;
  private readonly envs = new Map<SchemaDef, Env>();
  /** Attributes set by `name: S {...}`: the configs so far, and the value held before them. */
  private readonly unified = new Map<string, { parts: SchemaParts; base: Value | undefined }>();
  /** The arguments and the attribute order of the instance, once the bodies have run. */
  private built?: { call: CallArgs; order: string[] };

  hasAttribute(name: string): boolean {
    return this.attrs.has(name) || this.values.has(name);
  }

  constructor(
    private readonly ev: Evaluator,
    private readonly def: SchemaDef,
    private readonly config: DictValue,
    private readonly site: Env,
  ) {
    this.attrs = allAttrs(def);
    this.body = new LazyStatements((stmt, env) => ev.execStmt(stmt, env));
  }

  private isAttr(name: string): boolean {
    return this.attrs.has(name) || this.body.defines(name) || this.config.entries.has(name);
  }

  lookupName(name: string): Value | undefined {
    if (!this.isAttr(name)) return undefined;
    this.body.resolve(name);
    const v = this.values.get(name);
    if (v !== undefined) return v;
    const fromConfig = this.config.get(name);
    if (fromConfig !== undefined) {
      const typed = this.typed(name, fromConfig);
      this.values.set(name, typed);
      return typed;
    }
    return UNDEFINED;
  }

  /** `name: S {...}` unites with what the attribute held before (a default, a parent's value), as
   * kcl's `name = name | S {...}`. Repeated ones merge their configs and instantiate them together,
   * so derived attributes see all of them; instances made in a body are provisional, so each
   * statement may leave required attributes to the others. */
  unify(name: string, parts: SchemaParts, env: Env): void {
    const prior = this.unified.get(name);
    const base = prior ? prior.base : this.values.get(name);
    const config = prior ? (union(prior.parts.config, parts.config) as DictValue) : parts.config;
    this.unified.set(name, { parts: { ...parts, config }, base });
    const inst = instantiate(this.ev, parts.def, parts.call, config, env);
    this.setAttr(name, base === undefined ? inst : union(base, inst, { override: true }));
  }

  assignAttr(name: string, value: Value, mode: 'set' | 'union'): void {
    // an assignment starts the attribute over: a later `name: S {...}` unites with its value
    this.unified.delete(name);
    let v = value;
    if (mode === 'union') {
      const base = this.values.get(name);
      v = base === undefined ? value : union(base, value, { override: true });
    }
    this.setAttr(name, v);
  }

  private setAttr(name: string, value: Value): void {
    const fromConfig = this.config.get(name);
    const v = fromConfig === undefined ? value : withConfig(value, fromConfig, this.config.opOf(name));
    this.values.set(name, this.typed(name, v));
  }

  private typed(name: string, v: Value): Value {
    if (name === SETTINGS_ATTR) return v;
    const decl = this.attrs.get(name);
    const env = (decl && this.envs.get(decl.owner)) ?? this.site;
    if (decl?.type) {
      try {
        return convert(v, decl.type, this.ev.typeEnv(env));
      } catch (e) {
        // literal values were checked before running (config-check.ts); a computed value that
        // does not fit is kcl's runtime error, reported at the attribute's declaration
        if (
          e instanceof KclError &&
          e.diagnostic.kind === 'TypeError' &&
          !e.diagnostic.position &&
          e.diagnostic.message.startsWith('expected ')
        ) {
          throw kclError('EvaluationError', `expect ${annotationText(decl.type)}, got ${widenedTypeText(v)}`, {
            ...decl.at,
            column: 1,
            lineOnly: true,
          });
        }
        throw e;
      }
    }
    const sig = indexSignature(this.def);
    if (sig && !decl) return convert(v, sig.valueType, this.ev.typeEnv(env));
    return v;
  }

  /** `[name: str]: T = default`: the default for one extra key, with `name` bound to the key,
   * and the config's value for that key merged in. */
  private indexDefault(sig: A.IndexSignature, key: string): Value {
    // not a comprehension scope: there a bare config key naming the variable would mean its value
    const scope = new Scope(this.site.scope, 'lambda');
    if (sig.keyName) scope.vars.set(sig.keyName, key);
    const value = this.ev.evalExpr(sig.value!, withScope(this.site, scope));
    return withConfig(value, this.config.get(key)!, this.config.opOf(key));
  }

  private addBody(owner: SchemaDef, call: CallArgs): void {
    const scope = new Scope(owner.scope, 'schema', this);
    const env = definitionEnv(owner, scope);
    this.envs.set(owner, env);
    if (owner === this.def) this.ev.bindParams(owner.node.params, call, scope, env, `schema '${owner.name}'`, true);
    if (owner.node.type === 'Schema') for (const stmt of owner.node.body) this.body.add(stmt, env);
  }

  /** Builds the instance; errors without a place get the schema expression's from the caller. */
  build(call: CallArgs): DictValue {
    // a parent's `@deprecated` applies to what derives from it, as the parent's body runs first
    for (const owner of chainOf(this.def)) checkDecorators(this.ev, owner.node.decorators, owner.name, this.site);
    for (const key of this.config.entries.keys()) {
      const decl = this.attrs.get(key);
      if (decl?.decorators.length) checkDecorators(this.ev, decl.decorators, key, this.site);
    }
    for (const owner of chainOf(this.def)) {
      this.addBody(owner, call);
      for (const m of owner.mixins) this.addBody(m, call);
    }
    // Instances made while a body runs are provisional: a later statement, or the config, may
    // still complete them (`spec: Spec = Spec {id = 1}` with `spec.value = "v"` in the config).
    // The outermost instance validates everything once its body is done.
    const strict = this.ev.provisionalDepth === 0;
    const order = [...this.body.order];
    this.ev.provisionalDepth++;
    try {
      this.body.runAll();
      for (const name of this.attrs.keys()) if (!order.includes(name)) order.push(name);
      const sig = indexSignature(this.def);
      for (const key of this.config.entries.keys()) {
        if (this.values.has(key)) continue;
        const declared = this.attrs.has(key) || key === SETTINGS_ATTR;
        if (!declared && !sig && !this.def.isRule) {
          throw kclError(
            'EvaluationError',
            `Cannot add member '${key}' to schema '${this.def.name}'${didYouMean(key, this.attrs.keys())}`,
          );
        }
        if (sig && !declared) {
          convert(key, sig.keyType, this.ev.typeEnv(this.site));
          if (sig.value) this.values.set(key, this.typed(key, this.indexDefault(sig, key)));
        }
        this.lookupName(key);
        if (!order.includes(key)) order.push(key);
      }
    } finally {
      this.ev.provisionalDepth--;
    }
    this.built = { call, order };
    if (strict) this.validate();
    const inst = this.instance(!strict);
    if (!strict) this.ev.unfinished.set(inst, this);
    return inst;
  }

  /** Checks and finishes the provisional instance this frame built. Its bodies ran already, and
   * nothing the bodies read has changed since (the evaluator hands back only an instance no union
   * or path assignment has replaced), so running them again, as a rebuild does, would make the
   * same values: only the checks remain, and the provisional instances among the values are
   * finished in turn. */
  finish(): DictValue {
    this.validate();
    return this.instance(false);
  }

  private instance(provisional: boolean): DictValue {
    const { call, order } = this.built!;
    const inst = new DictValue();
    inst.schema = this.def;
    inst.schemaArgs = call;
    inst.schemaConfig = this.config;
    inst.provisional = provisional;
    // private attributes stay in the instance (`inst._x |= {...}` reads them); output hides them
    for (const name of order) {
      const v = this.values.get(name);
      // keep the config's operators: a later union of two instances honours `=` overrides
      if (v !== undefined) inst.set(name, v, this.config.opOf(name));
    }
    return inst;
  }

  /** Completes provisional instances among the values, then checks required attributes and
   * the check blocks. */
  private validate(): void {
    const onlyWhereWritten = this.ev.options.requiredAttributesCheckedOnlyWhereWritten === true;
    const rebuild = (inst: DictValue) => this.ev.finishProvisional(inst, this.site);
    for (const [name, v] of this.values) {
      // before v0.5 an instance held in a list or dict was never checked for required attributes
      const done =
        onlyWhereWritten && !isSchemaInstance(v)
          ? this.ev.unchecked(() => completeProvisional(v, rebuild))
          : completeProvisional(v, rebuild);
      if (done !== v) this.values.set(name, done);
    }
    if (this.ev.uncheckedDepth > 0) return this.runChecks();
    for (const [name, decl] of this.attrs) {
      if (decl.optional || name.startsWith('_')) continue;
      requirePresent(this.def, name, this.lookupName(name));
    }
    // kcl before v0.5 checked from here down through instance-valued attributes only, even those
    // a type made from a dict
    if (onlyWhereWritten) {
      for (const name of this.attrs.keys()) {
        const v = this.values.get(name);
        if (isSchemaInstance(v)) requireAttributes(v);
      }
    }
    this.runChecks();
  }

  private runChecks(): void {
    const envs = this.envs;
    const owners: SchemaDef[] = [];
    const addRuleParents = (d: SchemaDef) => {
      if (d.node.type === 'Rule')
        for (const p of d.node.parents.slice(1)) owners.push(resolveSchema(this.ev, p, envs.get(d)!, 'rule'));
    };
    for (const owner of chainOf(this.def)) {
      owners.push(owner, ...owner.mixins);
      addRuleParents(owner);
    }
    // with `[key: str]: T`, the checks run once per extra key, `key` naming it
    const keyName = indexSignature(this.def)?.keyName;
    const extraKeys = keyName ? [...this.values.keys()].filter((k) => !this.attrs.has(k)) : [];
    for (const owner of owners) {
      const base = envs.get(owner) ?? this.site;
      const envsForKeys =
        keyName && extraKeys.length > 0 ? extraKeys.map((k) => this.withKey(base, keyName, k)) : [base];
      for (const env of envsForKeys) for (const check of owner.node.checks) this.runCheck(owner, check, env);
    }
  }

  private withKey(env: Env, name: string, key: string): Env {
    const scope = new Scope(env.scope, 'lambda');
    scope.vars.set(name, key);
    return withScope(env, scope);
  }

  private runCheck(owner: SchemaDef, check: A.CheckItem, env: Env): void {
    if (check.ifCond && !truthy(this.ev.evalExpr(check.ifCond, env))) return;
    if (truthy(this.ev.evalExpr(check.test, env))) return;
    const message = check.message ? toStr(this.ev.evalExpr(check.message, env)) : '';
    throw new CheckFailure(
      {
        kind: 'SchemaCheckFailure',
        message: 'Instance check failed',
        related: [
          {
            position: { file: owner.file, line: check.endLine, column: 1, lineOnly: true },
            message: `Check failed on the condition${message ? `: ${message}` : ''}`,
          },
        ],
      },
      message,
    );
  }
}

/** Combines a value set in the schema body with the config entry for the same attribute. */
function withConfig(v: Value, fromConfig: Value, op: A.ConfigOp): Value {
  switch (op) {
    case '=':
      return fromConfig;
    case '+=':
      if (isList(v) && isList(fromConfig)) return [...v, ...fromConfig];
      return isNoneOrUndefined(v) ? fromConfig : v;
    case ':':
      // as kcl's union: None or Undefined from the config leaves the value as it was
      if (isNoneOrUndefined(fromConfig) && !isNoneOrUndefined(v)) return v;
      return (isDict(v) && isDict(fromConfig)) || (isList(v) && isList(fromConfig))
        ? union(v, fromConfig, { override: true })
        : fromConfig;
  }
}

function requirePresent(def: SchemaDef, name: string, v: Value | undefined): void {
  if (v === undefined || isNoneOrUndefined(v)) {
    throw kclError('EvaluationError', `attribute '${name}' of ${def.name} is required and can't be None or Undefined`);
  }
}

/** The required attributes of a finished instance, and of the instances its attributes hold. */
function requireAttributes(inst: DictValue): void {
  const def = inst.schema as SchemaDef;
  for (const [name, decl] of allAttrs(def)) {
    const v = inst.get(name);
    if (!decl.optional && !name.startsWith('_')) requirePresent(def, name, v);
    if (isSchemaInstance(v)) requireAttributes(v);
  }
}

/** Rebuilds provisional instances found in a value (in lists and dicts too), strictly. */
export function completeProvisional(v: Value, rebuild: (inst: DictValue) => DictValue): Value {
  if (isList(v)) {
    let changed = false;
    const out = v.map((x) => {
      const y = completeProvisional(x, rebuild);
      if (y !== x) changed = true;
      return y;
    });
    return changed ? out : v;
  }
  if (!isDict(v)) return v;
  if (v.schema && v.provisional) return rebuild(v);
  let out: DictValue | undefined;
  for (const [k, x] of v.entries) {
    const y = completeProvisional(x, rebuild);
    if (y !== x) {
      out ??= deepCopy(v) as DictValue;
      out.entries.set(k, y);
    }
  }
  return out ?? v;
}

/** A provisional instance whose frame can still finish it (see SchemaFrame.finish). */
export interface UnfinishedInstance {
  finish(): DictValue;
}

export function instantiate(
  ev: Evaluator,
  def: SchemaDef,
  call: CallArgs,
  config: DictValue,
  env: Env,
  madeIn = env.module.pkgpath,
): DictValue {
  const inst = new SchemaFrame(ev, def, config, env).build(call);
  inst.madeIn = madeIn;
  if (!inst.provisional) ev.instances.made(inst, madeIn);
  return inst;
}
