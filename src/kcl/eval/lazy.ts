/**
 * Declaration-order independence, as kcl has it for module globals and schema attributes: a
 * statement list runs in order, but reading a name first runs the statements that still have
 * to define it. So `r = v` sees the final value of `v` even when `v` is reassigned further down,
 * and a schema body may use an attribute declared below it.
 */
import type * as A from '../ast.js';
import type { Env } from './env.js';

interface Entry {
  stmt: A.Stmt;
  env: Env;
  defines: readonly string[];
  state: 'pending' | 'running' | 'done';
}

/** The name an import binds: its `as` name, or the last part of its path. */
export function importedName(s: A.ImportStmt): string {
  return s.asName ?? s.path.split('.').pop()!;
}

/** The names a statement may bind: its targets, and those of both branches of an `if`. */
export function definedNames(s: A.Stmt, out: string[] = []): string[] {
  switch (s.type) {
    case 'Attr':
      out.push(s.name);
      break;
    case 'Assign':
      for (const t of s.targets) out.push(t.name);
      break;
    case 'AugAssign':
    case 'Unification':
      out.push(s.target.name);
      break;
    case 'Schema':
    case 'Rule':
    case 'TypeAlias':
      out.push(s.name);
      break;
    case 'If':
      for (const b of [...s.body, ...s.orelse]) definedNames(b, out);
      break;
    case 'Import':
      out.push(importedName(s));
      break;
  }
  return out;
}

// A schema body's statements are added again for every instance; what they bind never changes.
const namesCache = new WeakMap<A.Stmt, readonly string[]>();

function namesOf(stmt: A.Stmt): readonly string[] {
  let names = namesCache.get(stmt);
  if (!names) namesCache.set(stmt, (names = definedNames(stmt)));
  return names;
}

export class LazyStatements {
  private readonly entries: Entry[] = [];
  private readonly pending = new Map<string, Entry[]>();
  /** Every name the statements bind, in the order they first appear. */
  readonly order: string[] = [];
  private readonly seen = new Set<string>();
  private readonly running: Entry[] = [];

  constructor(private readonly exec: (stmt: A.Stmt, env: Env) => void) {}

  add(stmt: A.Stmt, env: Env): void {
    const entry: Entry = { stmt, env, defines: namesOf(stmt), state: 'pending' };
    this.entries.push(entry);
    for (const n of entry.defines) {
      if (!this.seen.has(n)) {
        this.seen.add(n);
        this.order.push(n);
      }
      const list = this.pending.get(n);
      if (list) list.push(entry);
      else this.pending.set(n, [entry]);
    }
  }

  defines(name: string): boolean {
    return this.seen.has(name);
  }

  /** Runs, now, the statements that have yet to bind `name`; but inside a statement that binds
   * `name` itself (`_items += [x]`), a read sees the value so far. */
  resolve(name: string): void {
    const list = this.pending.get(name);
    if (!list) return;
    if (this.running.some((e) => e.defines.includes(name))) return;
    for (const e of list) if (e.state === 'pending') this.run(e);
    if (list.every((e) => e.state !== 'pending')) this.pending.delete(name);
  }

  /** The statements that have yet to run and would bind `name`, with the files they are in. */
  waiting(name: string): { stmt: A.Stmt; file: string }[] {
    return (this.pending.get(name) ?? [])
      .filter((e) => e.state === 'pending')
      .map((e) => ({ stmt: e.stmt, file: e.env.file }));
  }

  hasPending(name: string): boolean {
    return this.pending.get(name)?.some((e) => e.state === 'pending') ?? false;
  }

  runAll(): void {
    for (const e of this.entries) if (e.state === 'pending') this.run(e);
  }

  private run(e: Entry): void {
    e.state = 'running';
    this.running.push(e);
    try {
      this.exec(e.stmt, e.env);
    } finally {
      this.running.pop();
    }
    e.state = 'done';
  }
}
