/**
 * `kcl_plugin.project_context`, the plugin kusion shipped with KCL (kcl-lang/kcl-plugin,
 * project_context/plugin.py): Konfig models written for KCL v0.4 read the project and stack
 * they are compiled for with it (`ctx.get_project_context()['name']`).
 *
 * The stack is the folder of the first input file outside `base/pkg` that holds `stack.yaml`;
 * its project is the folder above. Missing files read as `{}`, as in the plugin.
 */
import fs from 'node:fs';
import path from 'node:path';
import { yamlDocuments } from './eval/system/yaml.js';
import { DictValue, type Value } from './eval/values.js';
import type { PluginFunction } from './plugins.js';

export const PROJECT_CONTEXT_PLUGIN = 'project_context';

const BASE_PKG_PATH = 'base/pkg';
const STACK_FILE = 'stack.yaml';
const PROJECT_FILE = 'project.yaml';
const CRD_DIR = 'crd';

export interface CompileContext {
  /** The input files, as absolute paths. */
  files: string[];
  workDir: string;
}

function stackRoot(ctx: CompileContext): string | undefined {
  for (const file of ctx.files) {
    // the plugin tests the path as text, so a file anywhere under a `base/pkg` folder is shared code
    if (file.split(path.sep).join('/').includes(BASE_PKG_PATH)) continue;
    const dir = path.dirname(path.resolve(ctx.workDir, file));
    if (fs.statSync(path.join(dir, STACK_FILE), { throwIfNoEntry: false })?.isFile()) return dir;
  }
  return undefined;
}

/** The first document of a YAML file, `{}` when there is no such file. */
function loadIfExists(file: string | undefined): Value {
  if (file === undefined || !fs.statSync(file, { throwIfNoEntry: false })?.isFile()) return new DictValue();
  return yamlDocuments(fs.readFileSync(file, 'utf8'))[0] ?? null;
}

function foldersUnder(dir: string): string[] {
  const subdirs = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
  return [dir, ...subdirs.flatMap((e) => foldersUnder(path.join(dir, e.name)))];
}

/** Every YAML document of the files under `dir`, in the plugin's order: folders by path text
 * (`sorted(os.walk(dir))`), then the files of each by name. */
function documentsUnder(dir: string): Value[] {
  const out: Value[] = [];
  for (const folder of foldersUnder(dir).sort()) {
    const files = fs
      .readdirSync(folder, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort();
    for (const f of files) out.push(...yamlDocuments(fs.readFileSync(path.join(folder, f), 'utf8')));
  }
  return out;
}

export function projectContextPlugin(ctx: CompileContext): Record<string, PluginFunction> {
  return {
    get_project_current_path: () => ctx.workDir,
    get_project_input_file: () => [...ctx.files],
    get_stack_context: () => {
      const stack = stackRoot(ctx);
      return loadIfExists(stack && path.join(stack, STACK_FILE));
    },
    get_project_context: () => {
      const stack = stackRoot(ctx);
      return loadIfExists(stack && path.join(path.dirname(stack), PROJECT_FILE));
    },
    get_project_crds: () => {
      const stack = stackRoot(ctx);
      const crds = stack && path.join(path.dirname(stack), CRD_DIR);
      return crds && fs.existsSync(crds) ? documentsUnder(crds) : [];
    },
  };
}
