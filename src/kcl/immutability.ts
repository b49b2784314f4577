/**
 * A package's public globals are bound once, as kcl's resolver checks it before anything runs
 * (sema's init_scope_with_stmts, walk_aug_assign_stmt): so a second binding is reported even in a
 * branch that never runs, and every one is reported, not only the first. Schemas and rules bind
 * their names too, and a second schema of the same name is a UniqueKeyError. A name written with
 * a leading `_` may change.
 */
import type * as A from './ast.js';
import type { Diagnostic, Position } from '../diagnostics/diagnostics.js';
import { importedName } from './eval/lazy.js';

const mutable = (name: string) => name.startsWith('_');

const declaration = (s: A.AttrStmt): A.Target => ({ name: s.name, path: [], loc: s.nameLoc });

/** `merged`: the assignments kcl's pre-processing merges with other statements of the same name
 * into one config (config-merge.ts); they bind the name but never change it. */
export function globalRebindings(modules: readonly A.Module[], merged: ReadonlySet<A.Stmt>): Diagnostic[] {
  const problems: Diagnostic[] = [];
  // kcl first declares every schema and rule of the package, then scans its assignments
  const declared = new Map<string, Position>();
  for (const m of modules) {
    for (const s of m.body) {
      if (s.type !== 'Schema' && s.type !== 'Rule') continue;
      const at = { file: m.file, line: s.line, column: s.column };
      if (declared.has(s.name))
        problems.push({ kind: 'UniqueKeyError', message: `Unique key error name '${s.name}'`, position: at });
      else declared.set(s.name, at);
    }
  }
  const rebound = (t: A.Target, file: string, imports: ReadonlyMap<string, Position>, isMerged: boolean) => {
    const at = { file, line: t.loc.line, column: t.loc.column };
    // a path under an imported module changes the module, which is as immutable as any global
    const first = (t.path.length > 0 ? imports.get(t.name) : undefined) ?? declared.get(t.name);
    if (first && !mutable(t.name) && !isMerged) {
      problems.push({
        kind: 'ImmutableError',
        message: `Can not change the value of '${t.name}', because it was declared immutable`,
        position: at,
        related: [{ position: first, message: `The variable '${t.name}' is declared here` }],
        note: `change the variable name to '_${t.name}' to make it mutable`,
      });
    } else if (!first) declared.set(t.name, at);
  };
  const scan = (stmts: readonly A.Stmt[], file: string, imports: ReadonlyMap<string, Position>) => {
    for (const s of stmts) {
      if (s.type === 'Assign') for (const t of s.targets) rebound(t, file, imports, merged.has(s));
      // `a: int = 1` at the top level is an assignment with a type
      else if (s.type === 'Attr' && s.value) rebound(declaration(s), file, imports, false);
      else if (s.type === 'Unification' && !declared.has(s.target.name))
        declared.set(s.target.name, { file, line: s.target.loc.line, column: s.target.loc.column });
      else if (s.type === 'If') {
        scan(s.body, file, imports);
        scan(s.orelse, file, imports);
      }
    }
  };
  for (const m of modules) {
    const imports = new Map<string, Position>();
    for (const s of m.body)
      if (s.type === 'Import') imports.set(importedName(s), { file: m.file, line: s.line, column: s.column });
    scan(m.body, m.file, imports);
  }
  problems.push(...augmentedGlobals(modules));
  return problems;
}

/** `a += 1` where a public global `a` was assigned before it, in the order kcl walks the package;
 * a schema instance written in place (`a += S {...}`) is a config to merge, not a change. */
function augmentedGlobals(modules: readonly A.Module[]): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const first = new Map<string, Position>();
  const walk = (stmts: readonly A.Stmt[], file: string) => {
    for (const s of stmts) {
      if (s.type === 'Assign' || (s.type === 'Attr' && s.value)) {
        for (const t of s.type === 'Assign' ? s.targets : [declaration(s)])
          if (!first.has(t.name)) first.set(t.name, { file, line: t.loc.line, column: t.loc.column });
      } else if (s.type === 'AugAssign') {
        const name = s.target.name;
        const at = { file, line: s.target.loc.line, column: s.target.loc.column };
        const declared = first.get(name);
        if (mutable(name) || s.value.type === 'SchemaExpr' || !declared) {
          if (!declared) first.set(name, at);
          continue;
        }
        problems.push({
          kind: 'ImmutableError',
          message: `Immutable variable '${name}' is modified during compiling`,
          position: at,
          related: [{ position: declared, message: `The variable '${name}' is declared here firstly` }],
          note: `change the variable name to '_${name}' to make it mutable`,
        });
      } else if (s.type === 'If') {
        walk(s.body, file);
        walk(s.orelse, file);
      }
    }
  };
  for (const m of modules) walk(m.body, m.file);
  return problems;
}
