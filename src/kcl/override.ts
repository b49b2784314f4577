/**
 * `-O [pkg:]path.to.key=value` and `-O [pkg:]path.to.key-`, as `kcl run` has them: the program is
 * changed before it runs. The path starts at a global; each further part is a key of the config
 * it holds (`app.spec.replicas=3`); a missing key is added, `-` removes the entry.
 */
import type * as A from './ast.js';
import { kclError } from '../diagnostics/diagnostics.js';
import { parseInterpolation } from './parser.js';

interface Override {
  path: string[];
  /** The new value as source text; undefined to delete. */
  value?: string;
  spec: string;
}

function parseSpec(spec: string): Override {
  const body = spec.includes(':') && spec.indexOf(':') < spec.search(/[=-]/) ? spec.slice(spec.indexOf(':') + 1) : spec;
  const eq = body.indexOf('=');
  const bad = () => kclError('UsageError', `invalid override '${spec}': expected path.to.key=value or path.to.key-`);
  if (eq === -1) {
    if (!body.endsWith('-')) throw bad();
    const path = body.slice(0, -1).split('.');
    if (path.some((p) => !p)) throw bad();
    return { path, spec };
  }
  const path = body.slice(0, eq).split('.');
  if (path.some((p) => !p)) throw bad();
  return { path, value: body.slice(eq + 1), spec };
}

const NO_LOC: A.Loc = { line: 0, column: 0, endLine: 0, endColumn: 0 };

function keyName(key: A.Expr | undefined): string | undefined {
  if (key?.type === 'Identifier' && key.names.length === 1) return key.names[0];
  if (key?.type === 'StringLit' && !key.parts) return key.value;
  return undefined;
}

/** The config literal an expression writes, if it is one (`{...}` or `S {...}`). */
function configOf(e: A.Expr): A.ConfigExpr | undefined {
  if (e.type === 'ConfigExpr') return e;
  if (e.type === 'SchemaExpr' && e.config.type === 'ConfigExpr') return e.config;
  return undefined;
}

function entry(name: string, value: A.Expr): A.ConfigEntry {
  return { type: 'ConfigEntry', key: { type: 'Identifier', names: [name], ...NO_LOC }, op: '=', value, ...NO_LOC };
}

function applyToConfig(config: A.ConfigExpr, keys: string[], value: A.Expr | undefined): void {
  const [key, ...rest] = keys;
  const index = config.items.findIndex((i) => i.type === 'ConfigEntry' && keyName(i.key) === key);
  const found = index === -1 ? undefined : (config.items[index] as A.ConfigEntry);
  if (rest.length === 0) {
    if (value === undefined) {
      if (index !== -1) config.items.splice(index, 1);
    } else if (found) {
      config.items[index] = { ...found, op: '=', value };
    } else {
      config.items.push(entry(key, value));
    }
    return;
  }
  let inner = found && configOf(found.value);
  if (!inner) {
    if (value === undefined) return;
    inner = { type: 'ConfigExpr', items: [], ...NO_LOC };
    if (found) config.items[index] = { ...found, value: inner };
    else config.items.push({ ...entry(key, inner), op: ':' });
  }
  applyToConfig(inner, rest, value);
}

/** Applies the overrides to the main package's files, in place. */
export function applyOverrides(modules: A.Module[], specs: string[]): void {
  for (const spec of specs) {
    const o = parseSpec(spec);
    const value = o.value === undefined ? undefined : parseInterpolation(o.value, '<override>', 1, 1);
    const [name, ...keys] = o.path;
    let target: { module: A.Module; index: number; stmt: A.AssignStmt | A.UnificationStmt } | undefined;
    for (const module of modules) {
      module.body.forEach((stmt, index) => {
        if (
          (stmt.type === 'Assign' && stmt.targets.some((t) => t.name === name && t.path.length === 0)) ||
          (stmt.type === 'Unification' && stmt.target.name === name)
        ) {
          target = { module, index, stmt };
        }
      });
    }
    if (!target) {
      if (value === undefined || keys.length > 0)
        throw kclError('UsageError', `invalid override '${spec}': there is no global '${name}' to change`);
      const last = modules[modules.length - 1];
      last.body.push({ type: 'Assign', targets: [{ name, path: [], loc: NO_LOC }], value, ...NO_LOC });
      continue;
    }
    const { module, index, stmt } = target;
    if (keys.length === 0) {
      if (value === undefined) module.body.splice(index, 1);
      else if (stmt.type === 'Assign') module.body[index] = { ...stmt, value };
      else
        throw kclError(
          'UsageError',
          `invalid override '${spec}': '${name}' is a schema unification; override one of its keys`,
        );
      continue;
    }
    const config = configOf(stmt.value);
    if (!config) throw kclError('UsageError', `invalid override '${spec}': '${name}' does not hold a config literal`);
    applyToConfig(config, keys, value);
  }
}
