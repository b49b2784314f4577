/**
 * What every statement and expression is evaluated in: a scope, the file it came from (for
 * diagnostics), the module it belongs to, and the frame of the lambda call it runs in, if any.
 */
import type { TypeNode } from '../ast.js';
import type { Position } from '../../diagnostics/diagnostics.js';
import type { SchemaDef } from './schema-def.js';
import type { SchemaParts, Scope } from './scope.js';
import type { Value } from './values.js';

export interface ModuleCtx {
  /** The globals shared by every file of the package. */
  readonly scope: Scope;
  /** Names of globals in the order their statements come in the source: the output's order. */
  readonly order: string[];
  /** Values of expression statements at module level, such as a bare `[1]` or `Config {}`. */
  readonly scalars: { value: Value; position: Position }[];
  readonly aliases: Map<string, TypeNode>;
  /** The merged configs of `name: Schema {...}` statements, instantiated after the last one. */
  readonly unified: Map<string, SchemaParts>;
  /** The type each global was declared with, or got from its first value: for an instance, its
   * schema itself, which may come from a package this one names differently or not at all. */
  readonly types: Map<string, TypeNode | SchemaDef>;
  /** The first value of a global bound with no declared type and no schema: its inferred type
   * (`inferType`) is worked out only when a later binding needs it, since most globals are bound
   * once and walking a large value for its type is costly. Values are never changed in place once
   * bound (a path assignment binds a copy), so the type is the same whenever it is asked for. */
  readonly firstValues: Map<string, Value>;
  /** Globals assigned an instance written in place (`x = S {...}`): kcl's checker knows their
   * schema, so passing them where another schema is expected fails before running. */
  readonly instanceTypes: Map<string, SchemaDef>;
  /** Whether statements binding `name` have yet to run. */
  morePending(name: string): boolean;
  /** The import that would bind `name` when only imports of files other than `file` have yet
   * to bind it (see VersionRules.laterImportsReadUndefined); else undefined. */
  laterImport(name: string, file: string): { path: string; file: string } | undefined;
  /** The package the module belongs to (`__main__` for the program's own files). */
  readonly pkgpath: string;
}

export interface CallFrame {
  /** The value of the last expression statement: what a lambda returns. */
  last: Value;
}

export interface Env {
  readonly scope: Scope;
  readonly file: string;
  readonly module: ModuleCtx;
  /** Every Env has all four fields, in this order: envs are made by the million, and V8 makes a
   * spread that adds a field far slower than one that only overwrites. */
  readonly frame: CallFrame | undefined;
}

export function withScope(env: Env, scope: Scope): Env {
  return { scope, file: env.file, module: env.module, frame: env.frame };
}

/** Where a schema's own code runs: in `scope` (by default the module's globals it was defined
 * in), its file and module, outside any lambda call. */
export function definitionEnv(def: SchemaDef, scope: Scope = def.scope): Env {
  return { scope, file: def.file, module: def.module, frame: undefined };
}
