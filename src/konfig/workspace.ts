/**
 * A Konfig repository on disk, laid out the KusionStack way: the root holds `kcl.mod`, a project
 * folder holds `project.yaml`, and every folder holding `stack.yaml` below a project is one of its
 * stacks. Projects and stacks are found by walking down; a stack finds its project by walking up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, type Node } from 'yaml';
import { kclError, type Position } from '../diagnostics/diagnostics.js';
import { folderAbove, kclModAbove } from '../kcl/loader.js';
import { parseYamlFile, positionOf } from '../kcl/settings.js';

export interface Project {
  name: string;
  dir: string;
  /** Relative to the workspace root, with `/` separators (`appops/guestbook`). */
  path: string;
  stacks: Stack[];
}

export interface Stack {
  name: string;
  dir: string;
  path: string;
  project: { name: string; dir: string };
  /** The kube context the stack deploys to; undefined means the current context. */
  cluster?: string;
}

export interface Workspace {
  root: string;
  projects: Project[];
}

export const PROJECT_FILE = 'project.yaml';
export const STACK_FILE = 'stack.yaml';

/** Folders that never hold projects: VCS data, dependencies, kdeck's own state. */
const SKIPPED = new Set(['node_modules', 'crd', 'ci-test']);

function workspaceError(message: string, position?: Position) {
  return kclError('WorkspaceError', message, position);
}

/** The folder holding `kcl.mod` at or above `start`. */
export function findWorkspaceRoot(start: string): string {
  const from = path.resolve(start);
  if (!fs.existsSync(from)) throw workspaceError(`${from} does not exist`);
  const root = kclModAbove(from);
  if (!root)
    throw workspaceError(
      `no kcl.mod at or above ${from}: a Konfig repository has kcl.mod at its root; run kdeck inside one, or pass its path`,
    );
  return root;
}

interface NamedFile {
  name: string;
  cluster?: string;
}

/** Reads `project.yaml` or `stack.yaml`: a mapping whose `name` defaults to the folder name. */
function readNamedFile(file: string): NamedFile {
  const what = path.basename(file);
  const { doc, text } = parseYamlFile(file, what);
  const top = doc.contents;
  const at = (node: Node) => positionOf(file, text, node);
  const fallback = path.basename(path.dirname(file));
  if (top === null || (isScalar(top) && top.value === null)) return { name: fallback };
  if (!isMap(top)) throw workspaceError(`${what} must be a mapping (name: ...)`, at(top));
  const field = (key: string): string | undefined => {
    const node = top.get(key, true);
    if (node === undefined || (isScalar(node) && node.value === null)) return undefined;
    if (!isScalar(node) || typeof node.value !== 'string' || node.value === '') {
      throw workspaceError(`${key} in ${what} must be a non-empty string`, at(node));
    }
    return node.value;
  };
  return { name: field('name') ?? fallback, cluster: field('cluster') };
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

function stackAt(dir: string, root: string, project: { name: string; dir: string }): Stack {
  const { name, cluster } = readNamedFile(path.join(dir, STACK_FILE));
  return { name, dir, path: toPosix(path.relative(root, dir)), project, cluster };
}

function subfolders(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SKIPPED.has(e.name))
    .map((e) => path.join(dir, e.name))
    .sort();
}

function stacksUnder(dir: string, root: string, project: { name: string; dir: string }): Stack[] {
  const found: Stack[] = [];
  for (const sub of subfolders(dir)) {
    if (fs.existsSync(path.join(sub, STACK_FILE))) found.push(stackAt(sub, root, project));
    else found.push(...stacksUnder(sub, root, project));
  }
  return found;
}

function projectAt(dir: string, root: string): Project {
  const { name } = readNamedFile(path.join(dir, PROJECT_FILE));
  return { name, dir, path: toPosix(path.relative(root, dir)), stacks: stacksUnder(dir, root, { name, dir }) };
}

function projectsUnder(dir: string, root: string): Project[] {
  if (fs.existsSync(path.join(dir, PROJECT_FILE))) return [projectAt(dir, root)];
  return subfolders(dir).flatMap((sub) => projectsUnder(sub, root));
}

/** The nearest folder at or above `dir` (and inside `root`) holding `file`. */
function enclosing(dir: string, root: string, file: string): string | undefined {
  const found = folderAbove(dir, file);
  return found && !path.relative(root, found).startsWith('..') ? found : undefined;
}

/**
 * The projects at or below `dir`, or the one enclosing it, with their stacks; `root` is the
 * repository's root.
 */
export function loadWorkspace(dir: string): Workspace {
  const from = path.resolve(dir);
  const root = findWorkspaceRoot(from);
  const inside = enclosing(from, root, PROJECT_FILE);
  return { root, projects: inside ? [projectAt(inside, root)] : projectsUnder(from, root) };
}

/** The stack whose folder is `dir`; every way of not being one is an error naming the folder. */
export function loadStack(dir: string): { root: string; stack: Stack } {
  const from = path.resolve(dir);
  const root = findWorkspaceRoot(from);
  if (!fs.existsSync(path.join(from, STACK_FILE))) {
    const projectDir = enclosing(from, root, PROJECT_FILE);
    const stacks = projectDir
      ? stacksUnder(projectDir, root, { name: path.basename(projectDir), dir: projectDir })
      : [];
    const hint = stacks.length
      ? `stacks of this project: ${stacks.map((s) => path.relative(from, s.dir) || '.').join(', ')}`
      : `kdeck ls ${path.relative(process.cwd(), root) || '.'} lists the stacks of this repository`;
    throw workspaceError(
      `${from} is not a stack folder (it has no ${STACK_FILE}); run in a stack folder or pass one with -w (${hint})`,
    );
  }
  const projectDir = enclosing(path.dirname(from), root, PROJECT_FILE);
  if (!projectDir) {
    throw workspaceError(
      `the stack ${toPosix(path.relative(root, from))} is not inside a project: no ${PROJECT_FILE} in any folder between it and the repository root ${root}`,
      { file: path.join(from, STACK_FILE), line: 1, column: 1 },
    );
  }
  const project = { name: readNamedFile(path.join(projectDir, PROJECT_FILE)).name, dir: projectDir };
  return { root, stack: stackAt(from, root, project) };
}
