/**
 * A schema as the evaluator holds it once its statement has run: its parent and mixins
 * resolved, its attributes indexed, and the scope it was defined in kept for its bodies.
 */
import type * as A from '../ast.js';
import type { Position } from '../../diagnostics/diagnostics.js';
import type { ModuleCtx } from './env.js';
import { definedNames } from './lazy.js';
import type { Scope } from './scope.js';
import type { SchemaTypeValue } from './values.js';

/**
 * KCL up to v0.7 gave every schema an implicit optional attribute `__settings__: {str:any}`;
 * its `output_type` (STANDALONE, INLINE, IGNORE) says how an instance is output (see plan.ts).
 * Models written for those versions set it in configs and unions (`inst | {__settings__: ...}`).
 */
export const SETTINGS_ATTR = '__settings__';

export interface AttrDecl {
  name: string;
  type?: A.TypeNode;
  optional: boolean;
  /** The schema that declared it; a child may redeclare an inherited attribute. */
  owner: SchemaDef;
  decorators: A.Decorator[];
  /** Where it is declared, for "variable is defined here". */
  at: Position;
}

export interface SchemaDef extends SchemaTypeValue {
  readonly node: A.SchemaStmt | A.RuleStmt;
  readonly file: string;
  readonly parent?: SchemaDef;
  readonly mixins: SchemaDef[];
  /** The scope the schema statement ran in: its module's globals. */
  readonly scope: Scope;
  /** The module it is defined in, whose type aliases its annotations use. */
  readonly module: ModuleCtx;
  /** Declared attributes of this schema alone, in order. */
  readonly attrs: Map<string, AttrDecl>;
}

/** The schema's inheritance chain, the root first. */
export function chainOf(def: SchemaDef): SchemaDef[] {
  const chain: SchemaDef[] = [];
  for (let s: SchemaDef | undefined = def; s; s = s.parent) chain.unshift(s);
  return chain;
}

// A schema does not change once its statement has run, so what derives from it is computed
// once, not on every instantiation and config check.
const attrsCache = new WeakMap<SchemaDef, ReadonlyMap<string, AttrDecl>>();
const namesCache = new WeakMap<SchemaDef, ReadonlySet<string>>();

/** The attribute declarations that apply to an instance, the parent's first. */
export function allAttrs(def: SchemaDef): ReadonlyMap<string, AttrDecl> {
  const cached = attrsCache.get(def);
  if (cached) return cached;
  const out = new Map<string, AttrDecl>();
  for (const s of chainOf(def)) {
    for (const [k, a] of s.attrs) {
      const inherited = out.get(k);
      // a redeclaration without a type keeps the inherited type
      out.set(k, inherited && !a.type ? { ...a, type: inherited.type } : a);
    }
    for (const m of s.mixins) for (const [k, a] of m.attrs) if (!out.has(k)) out.set(k, a);
  }
  attrsCache.set(def, out);
  return out;
}

/** Every name an instance may hold: declared attributes and names the bodies assign. */
export function attributeNames(def: SchemaDef): ReadonlySet<string> {
  const cached = namesCache.get(def);
  if (cached) return cached;
  const names = new Set([...allAttrs(def).keys(), SETTINGS_ATTR]);
  for (const owner of chainOf(def)) {
    for (const s of [owner, ...owner.mixins]) {
      if (s.node.type === 'Schema') for (const stmt of s.node.body) for (const n of definedNames(stmt)) names.add(n);
    }
  }
  namesCache.set(def, names);
  return names;
}

/** The index signature in force: the nearest one up the inheritance chain. */
export function indexSignature(def: SchemaDef): A.IndexSignature | undefined {
  for (let s: SchemaDef | undefined = def; s; s = s.parent) {
    if (s.node.type === 'Schema' && s.node.indexSignature) return s.node.indexSignature;
  }
  return undefined;
}

/** Whether instances of `def` may hold `name`: a declared or body-assigned attribute, or any
 * key when there is an index signature. */
export function schemaHasAttr(def: SchemaDef, name: string): boolean {
  return indexSignature(def) !== undefined || attributeNames(def).has(name);
}
