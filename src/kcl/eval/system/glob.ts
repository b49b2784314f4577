/**
 * Glob patterns as kcl's file.glob (Rust's glob crate) reads them: `*`, `?` and `[...]`/`[!...]`
 * within one path component, `**` as a whole component for any depth of directories, dot files
 * matched like any other, and matches listed in sorted order, spelled from the pattern's own
 * prefix (`./*.json` gives `./a.json`).
 *
 * The walk stays in the workspace: the pattern's literal prefix must be inside it, and entries
 * whose real path leaves it (through symlinks) are neither listed nor entered.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { kclError } from '../../../diagnostics/diagnostics.js';
import type { SystemContext } from './common.js';
import { staysInside, workspacePath } from './workspace.js';

const META = /[*?[]/;

/** One component's pattern as a RegExp, or an error text for a malformed class. */
function componentRegex(component: string): RegExp | string {
  let out = '';
  for (let i = 0; i < component.length; i++) {
    const c = component[i];
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = component.indexOf(']', i + 2);
      if (end < 0) return `invalid range pattern at position ${i}`;
      let body = component.slice(i + 1, end);
      const negated = body.startsWith('!');
      if (negated) body = body.slice(1);
      out += `[${negated ? '^' : ''}${body.replace(/[\\\]^]/g, (x) => '\\' + x)}]`;
      i = end;
    } else out += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`, 'u');
}

function isDirectory(abs: string): boolean {
  try {
    return fs.statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

function children(abs: string): string[] {
  try {
    return fs.readdirSync(abs).sort();
  } catch {
    return [];
  }
}

/** The paths matching `pattern`, relative ones resolved against the work dir but listed as written. */
export function globPaths(ctx: SystemContext, pattern: string): string[] {
  const fail = (why: string): never => {
    throw kclError('EvaluationError', `Failed to read glob pattern: ${why}`);
  };
  const parts = pattern.split('/');
  const firstMeta = parts.findIndex((p) => META.test(p) || p === '**');
  const literal = firstMeta < 0 ? parts : parts.slice(0, firstMeta);
  const prefix = literal.join('/') || (pattern.startsWith('/') ? '/' : '');
  const base = workspacePath(ctx, 'glob', prefix === '' ? '.' : prefix, { shown: pattern });
  if (firstMeta < 0) return fs.existsSync(base) && staysInside(ctx, base) ? [pattern] : [];
  const matchers = parts.slice(firstMeta).map((p) => {
    if (p === '**') return '**' as const;
    if (p.includes('**')) fail('recursive wildcards must form a single path component');
    const re = componentRegex(p);
    return typeof re === 'string' ? fail(re) : re;
  });
  const out: string[] = [];
  // real paths of directories `**` has entered, so that a symlink cycle ends the descent
  const entered = new Set<string>();
  const join = (shown: string, name: string): string =>
    shown === '' ? name : shown.endsWith('/') ? shown + name : `${shown}/${name}`;
  const walk = (abs: string, shown: string, i: number): void => {
    if (i === matchers.length) {
      out.push(shown);
      return;
    }
    const m = matchers[i];
    if (m === '**') {
      const real = fs.realpathSync(abs);
      if (entered.has(`${i}:${real}`)) return;
      entered.add(`${i}:${real}`);
      // zero directories, then each subdirectory in turn
      walk(abs, shown, i + 1);
      for (const name of children(abs)) {
        const child = path.join(abs, name);
        if (isDirectory(child) && staysInside(ctx, child)) walk(child, join(shown, name), i);
      }
      return;
    }
    const last = i === matchers.length - 1;
    for (const name of children(abs)) {
      if (!m.test(name)) continue;
      const child = path.join(abs, name);
      if (!staysInside(ctx, child) || (!last && !isDirectory(child))) continue;
      walk(child, join(shown, name), i + 1);
    }
  };
  if (!isDirectory(base)) return [];
  walk(base, prefix, 0);
  // `**` can reach one path in more than one way
  return [...new Set(out)];
}
