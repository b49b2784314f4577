/**
 * kdeck's rule for KCL programs: evaluation touches no file outside the workspace. Every path a
 * system module reads or writes goes through `workspacePath`, which resolves it (relative paths
 * against the work dir) and refuses it unless both the path as written and the real path behind
 * its symlinks lie inside the workspace root.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { kclError } from '../../../diagnostics/diagnostics.js';
import type { SystemContext } from './common.js';

export function baseDir(ctx: SystemContext): string {
  return path.resolve(ctx.workspaceRoot, ctx.workdir || '.');
}

function inside(root: string, p: string, allowRoot: boolean): boolean {
  const rel = path.relative(root, p);
  if (rel === '') return allowRoot;
  return !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** The real path of `p` when it exists, else of its deepest existing ancestor plus the rest. */
function realPathOf(p: string): string {
  const missing: string[] = [];
  let current = p;
  for (;;) {
    try {
      return path.join(fs.realpathSync(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return p;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

export interface PathOptions {
  /** Writes, moves and deletes may not target the workspace root itself. */
  modifies?: boolean;
  /** What to name in a refusal when `p` is derived from what the program wrote (a glob's prefix). */
  shown?: string;
}

/** The absolute path `p` names, or a refusal naming it when it leaves the workspace. */
export function workspacePath(ctx: SystemContext, fn: string, p: string, options: PathOptions = {}): string {
  const root = path.resolve(ctx.workspaceRoot);
  const abs = path.resolve(baseDir(ctx), p);
  const refuse = (why: string): never => {
    throw kclError('EvaluationError', `${fn}() refuses the path '${options.shown ?? p}': ${why}`);
  };
  // under --read-only nothing is written, whatever the program asks
  if (options.modifies && ctx.readOnly) refuse('kdeck runs with --read-only, under which a program writes no file');
  if (!inside(root, abs, true)) refuse(`it resolves to '${abs}', outside the workspace '${root}'`);
  if (options.modifies && abs === root) refuse(`it is the workspace root '${root}'`);
  const real = realPathOf(abs);
  if (!inside(realPathOf(root), real, !options.modifies)) {
    refuse(`it resolves through a symbolic link to '${real}', outside the workspace '${root}'`);
  }
  return abs;
}

/** Whether a path found while walking the workspace (by glob) still resolves inside it. */
export function staysInside(ctx: SystemContext, abs: string): boolean {
  const root = path.resolve(ctx.workspaceRoot);
  return inside(realPathOf(root), realPathOf(abs), true);
}

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  ENOENT: 'No such file or directory',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EEXIST: 'File exists',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  ENOTEMPTY: 'Directory not empty',
  EBUSY: 'Device or resource busy',
  EXDEV: 'Invalid cross-device link',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long',
};

/** A Node fs error as Rust's io::Error prints it, which is what kcl's messages end with. */
export function ioMessage(e: unknown): string {
  if (typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string') {
    const errno = (os.constants.errno as Record<string, number | undefined>)[e.code];
    const text = DESCRIPTIONS[e.code];
    if (text !== undefined) return errno === undefined ? text : `${text} (os error ${errno})`;
  }
  return e instanceof Error ? e.message : String(e);
}

/** Runs an fs operation, turning its failure into kcl's message for it. */
export function io<T>(message: string, run: () => T): T {
  try {
    return run();
  } catch (e) {
    throw kclError('EvaluationError', `${message}: ${ioMessage(e)}`);
  }
}

/** File contents as a str; kcl's read_to_string refuses bytes that are not UTF-8. */
export function readText(abs: string, shown: string): string {
  const bytes = io(`failed to access the file '${shown}'`, () => fs.readFileSync(abs));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw kclError('EvaluationError', `failed to access the file '${shown}': stream did not contain valid UTF-8`);
  }
}
