/**
 * The files a stack's compile reads: its stack, project and settings files, the KCL files the
 * settings name and every package they import (followed through the parse cache, so this costs
 * little after a compile), and the project's CRD folder. Watch mode recompiles a stack when one
 * of them changes, or when a file appears in or leaves one of its folders (a package gains a
 * file). Import statements are followed even when a file does not compile, so that fixing a
 * broken import is noticed.
 */
import path from 'node:path';
import { findRoot, packageAt, packageTarget, parseFile, type PackageFiles } from '../kcl/loader.js';
import { PLUGIN_PREFIX } from '../kcl/plugins.js';
import { runOptionsFromSettings } from '../kcl/settings.js';
import { settingsFiles, type CompileOptions } from './compile.js';
import { PROJECT_FILE, STACK_FILE, type Stack } from './workspace.js';

export interface StackInputs {
  /** Absolute paths of the files read. */
  files: string[];
  /** Folders whose listing matters: imported packages, the CRD folder. */
  folders: string[];
}

/**
 * The KCL files `file` imports from the workspace (system modules and plugins aside). `located`
 * keeps the packages found so far: the files of a stack import the same few packages hundreds of
 * times, and each look lists a folder.
 */
function importsOf(
  file: string,
  root: string,
  located: Map<string, PackageFiles | undefined>,
): { files: string[]; folder: string }[] {
  let body;
  try {
    body = parseFile(file).body;
  } catch {
    // a file that does not parse imports nothing we can know yet; it is itself an input
    return [];
  }
  const found: { files: string[]; folder: string }[] = [];
  for (const stmt of body) {
    if (stmt.type !== 'Import' || stmt.path.startsWith(PLUGIN_PREFIX)) continue;
    const target = packageTarget(stmt.path, file, root);
    if (!located.has(target)) located.set(target, packageAt(target, root));
    const pkg = located.get(target);
    if (!pkg) continue;
    // a file added beside a package's files may join the package (a false alarm for a
    // one-file package costs one recompile)
    found.push({ files: pkg.files, folder: path.dirname(pkg.files[0]) });
  }
  return found;
}

export function stackInputs(stack: Stack, options: Pick<CompileOptions, 'settings'> = {}): StackInputs {
  const files = new Set<string>([path.join(stack.dir, STACK_FILE), path.join(stack.project.dir, PROJECT_FILE)]);
  const folders = new Set<string>([stack.dir, path.join(path.dirname(stack.dir), 'crd')]);
  let kclFiles: string[] = [];
  try {
    const settings = settingsFiles(stack, options.settings ?? []);
    for (const f of settings) files.add(f);
    kclFiles = runOptionsFromSettings(settings, stack.dir).files.map((f) => path.resolve(stack.dir, f));
  } catch {
    // broken settings are reported by the compile; the stack folder is watched all the same
  }
  const root = findRoot(stack.dir);
  files.add(path.join(root, 'kcl.mod'));
  const queue = [...kclFiles];
  const located = new Map<string, PackageFiles | undefined>();
  while (queue.length) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const pkg of importsOf(file, root, located)) {
      folders.add(pkg.folder);
      queue.push(...pkg.files.filter((f) => !files.has(f)));
    }
  }
  return { files: [...files].sort(), folders: [...folders].sort() };
}
