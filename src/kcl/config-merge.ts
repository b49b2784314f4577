/**
 * Which top-level `name = S {...}` statements of the main package merge their config with other
 * statements of the same name (kcl's sema/pre_process/config.rs, ConfigMergeTransformer): one
 * followed by `name: S {...}` does, so a stack's main.k completes the config its base.k started,
 * required attributes included. The evaluator merges them as it merges repeated `name: S {...}`,
 * each config in its own file, instantiated once after the last.
 *
 * A public `name = S {...}` said again merged too until kcl v0.4.6 (which made it an error);
 * since, only a private name's reassignment counts, and it starts the name over.
 */
import type * as A from './ast.js';

export interface MergeOptions {
  /** kcl before v0.4.6: `name = S {...}` said again merges like `name: S {...}`. */
  mergeRepeatedAssignments: boolean;
}

export function mergedAssignments(modules: A.Module[], opts: MergeOptions): ReadonlySet<A.Stmt> {
  const declarations = new Map<string, A.Stmt[]>();
  for (const m of modules) {
    for (const stmt of m.body) {
      if (stmt.type === 'Unification' && stmt.target.path.length === 0) {
        const list = declarations.get(stmt.target.name);
        if (list) list.push(stmt);
        else declarations.set(stmt.target.name, [stmt]);
      } else if (stmt.type === 'Assign' && stmt.value.type === 'SchemaExpr') {
        for (const t of stmt.targets) {
          if (t.path.length > 0) continue;
          const list = declarations.get(t.name);
          if (!list) declarations.set(t.name, [stmt]);
          else if (t.name.startsWith('_')) list.splice(0, list.length, stmt);
          else if (opts.mergeRepeatedAssignments) list.push(stmt);
        }
      }
    }
  }
  const merged = new Set<A.Stmt>();
  for (const list of declarations.values()) {
    if (list.length > 1) for (const s of list) if (s.type === 'Assign') merged.add(s);
  }
  return merged;
}
