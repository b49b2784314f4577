/**
 * Finding and reading KCL packages. The root of a program is the folder holding `kcl.mod`
 * (searched upwards from the main files), or the main files' folder when there is none. A
 * package is a folder of `.k` files (or a single `.k` file): `import a.b` reads `<root>/a/b`,
 * `import .b` reads `b` beside the importing file, `import ..b` one folder up.
 *
 * Parsed files are cached by path and text, so a watch-mode recompile re-parses only what
 * changed: the same AST object comes back exactly while a file's text is unchanged, which the
 * package cache relies on to know that a package's files are the ones it was evaluated from.
 * A file is not even read again while the file system shows it untouched since it was read (see
 * untouched below).
 */
import fs from 'node:fs';
import path from 'node:path';
import type * as A from './ast.js';
import { KclError, throwAll, type Diagnostic } from '../diagnostics/diagnostics.js';
import { readSource, sourceStat } from './input-limits.js';
import { parseModule } from './parser.js';
import type { AstCache } from './ast-cache.js';

export interface PackageFiles {
  /** Dotted path from the root (`base.pkg.models`), as kcl names packages. */
  pkgpath: string;
  /** The folder, or the file without `.k`, that imports of the package name. */
  target: string;
  files: string[];
}

interface CachedParse {
  source: string;
  module: A.Module;
  /** The file's stat just before it was read (see stampOf). */
  stamp: string;
  /** When it was read, in ms since the epoch. */
  readAt: number;
}

const parseCache = new Map<string, CachedParse>();

/** How long before a read a file's last change must be for its stat to vouch for its text: more
 * than the coarsest timestamp clock of the file systems in use (FAT's 2 s), so that a change made
 * after the read gets a later change time than the one recorded. */
const SETTLED_MS = 3000;

/** What a change to the file's content changes: its identity, size, and modification and change
 * times (the change time cannot be set back by hand as the modification time can). */
function stampOf(stat: fs.BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/** Whether the file is still the text read into `cached`: the stat is the one recorded then, and
 * the file had last changed well before that read (git's answer to "racily clean" files), so any
 * change since would show in the stat. */
function untouched(cached: CachedParse, stat: fs.BigIntStats): boolean {
  return stampOf(stat) === cached.stamp && Number(stat.ctimeNs / 1_000_000n) < cached.readAt - SETTLED_MS;
}

/** Parses a file, reusing the last AST when its text has not changed (this process's, or the one `disk` kept). */
export function parseFile(file: string, disk?: AstCache): A.Module {
  const stat = sourceStat(file);
  const cached = parseCache.get(file);
  if (cached && untouched(cached, stat)) return cached.module;
  const readAt = Date.now();
  const source = readSource(file, stat);
  const stamp = stampOf(stat);
  if (cached && cached.source === source) {
    parseCache.set(file, { ...cached, stamp, readAt });
    return cached.module;
  }
  let module = disk?.get(file, source);
  if (!module) {
    module = parseModule(source, file);
    disk?.put(file, source, module);
  }
  parseCache.set(file, { source, module, stamp, readAt });
  return module;
}

/** Parses the files of a program or package; throws the errors of all of them together, as kcl
 * parses every file before it reports. */
export function parseFiles(files: readonly string[], disk?: AstCache): A.Module[] {
  const problems: Diagnostic[] = [];
  const modules: A.Module[] = [];
  for (const file of files) {
    try {
      modules.push(parseFile(file, disk));
    } catch (e) {
      if (!(e instanceof KclError)) throw e;
      problems.push(e.diagnostic);
    }
  }
  throwAll(problems);
  return modules;
}

/** The folder with `kcl.mod` above `start`, or `start` itself when there is none. */
export function findRoot(start: string): string {
  return kclModAbove(start) ?? path.resolve(start);
}

/** The nearest folder at or above `start` that holds `kcl.mod`. */
export function kclModAbove(start: string): string | undefined {
  return folderAbove(start, 'kcl.mod');
}

/** The nearest folder at or above `start` that holds a file called `name`. */
export function folderAbove(start: string, name: string): string | undefined {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, name))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The `.k` files of a folder (tests aside), or undefined when `dir` is not a folder. One readdir
 * answers both, where an exists and a stat before it cost two more system calls for every
 * imported package on every recompile. */
function kclFilesIn(dir: string): string[] | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (e) {
    // nothing there, or not a folder; a folder that cannot be read is an error
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw e;
  }
  return names
    .filter((f) => f.endsWith('.k') && !f.endsWith('_test.k'))
    .sort()
    .map((f) => path.join(dir, f));
}

/** The folder (or, with `.k` added, the file) that `import <spec>` written in `fromFile` names. */
export function packageTarget(spec: string, fromFile: string, root: string): string {
  const dots = /^\.+/.exec(spec)?.[0].length ?? 0;
  const parts = spec.slice(dots).split('.');
  let base = root;
  if (dots > 0) {
    base = path.dirname(fromFile);
    for (let i = 1; i < dots; i++) base = path.dirname(base);
  }
  return path.join(base, ...parts);
}

/** The package a folder (or, with `.k` added, a file) holds, or undefined when nothing is there. */
export function packageAt(target: string, root: string): PackageFiles | undefined {
  const pkgpath = path.relative(root, target).split(path.sep).join('.');
  const files = kclFilesIn(target);
  if (files) return files.length > 0 ? { pkgpath, target, files } : undefined;
  if (fs.existsSync(`${target}.k`)) return { pkgpath, target, files: [`${target}.k`] };
  return undefined;
}
