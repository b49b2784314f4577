/**
 * A stack folder to its Spec, as `kusion compile` does it: the settings files (by default
 * `ci-test/settings.yaml` when present, then `kcl.yaml`) give the KCL files and options, the
 * program runs in-process from the stack folder, and its output documents become resources,
 * joined by the project's CRD files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { checkAcyclic, graphOf } from '../graph/graph.js';
import { pointerTokens, referencesIn } from '../graph/references.js';
import { kclError } from '../diagnostics/diagnostics.js';
import type { PackageCache } from '../kcl/package-cache.js';
import type { PluginRegistry } from '../kcl/plugins.js';
import { parseOptionArg, runKcl } from '../kcl/run.js';
import { runOptionsFromSettings } from '../kcl/settings.js';
import type { RunGuards } from '../kcl/run-guards.js';
import { AstCache, writeKeptParses } from '../kcl/ast-cache.js';
import { crdResources } from './crd.js';
import { resourcesOfOutput, specOf } from './spec.js';
import { type Spec } from '../model/resource.js';
import { loadStack, STACK_FILE, type Stack } from './workspace.js';

export interface CompileOptions {
  /** `-Y`: settings files, relative to the stack folder; empty means kusion's defaults. */
  settings?: string[];
  /** `-D key=value`, after the settings' own options (so they win). */
  arguments?: string[];
  /** `-O path=value`. */
  overrides?: string[];
  plugins?: PluginRegistry;
  /** Imported packages kept from earlier compiles; by default the one the whole process shares. */
  packageCache?: PackageCache;
  /** `--eval-timeout` and `--read-only` (see kcl/run-guards.ts). */
  guards?: RunGuards;
  /**
   * Keep parsed files in the workspace's `.kdeck/cache/ast` between runs (kcl/ast-cache.ts),
   * reading them there and, unless `--read-only`, writing them: what kdeck's own commands do.
   */
  keepParses?: boolean;
  /** With keepParses: leave writing them to the caller (`writeKeptParses`), once its answer is
   * out; the console's compile thread does, so that a save's compile does not wait for the disk. */
  writeParsesLater?: boolean;
}

export interface CompiledStack {
  root: string;
  stack: Stack;
  spec: Spec;
  /** What the program printed with `print()`. */
  printed: string;
  /** Whether compiling it again only computes (see RunResult.reachedOutside): no file written,
   * no plugin asked, no clock read. */
  repeatable: boolean;
}

const DEFAULT_SETTINGS = ['ci-test/settings.yaml', 'kcl.yaml'];

/** The settings files of a stack: the given ones, or kusion's defaults that exist (kcl.yaml must). */
export function settingsFiles(stack: Stack, given: string[] = []): string[] {
  if (given.length) return given.map((f) => path.resolve(stack.dir, f));
  const found = DEFAULT_SETTINGS.map((f) => path.join(stack.dir, f)).filter((f) => fs.existsSync(f));
  if (!found.some((f) => path.basename(f) === 'kcl.yaml')) {
    throw kclError(
      'WorkspaceError',
      `the stack ${stack.path} has no kcl.yaml, which names the KCL files to compile (kcl_cli_configs.file); add one as the other stacks of ${stack.project.name} have it, or pass the settings with -Y`,
      { file: path.join(stack.dir, STACK_FILE), line: 1, column: 1 },
    );
  }
  return found;
}

/** Implicit references must name resources of the stack, with a well-formed pointer. */
function checkReferences(spec: Spec): void {
  const ids = new Set(spec.resources.map((r) => r.id));
  for (const r of spec.resources) {
    for (const ref of referencesIn(r.attributes)) {
      const where = `resource ${r.id} at ${ref.at || '/'}`;
      if (!ids.has(ref.target))
        throw kclError('SpecError', `${where} refers to ${ref.target}, which is not a resource of this stack`);
      if (ref.target === r.id) throw kclError('SpecError', `${where} refers to the resource itself`);
      if (!pointerTokens(ref.pointer))
        throw kclError(
          'SpecError',
          `${where}: '${ref.pointer}' is not a JSON pointer (it starts with / and escapes / and ~ as ~1 and ~0)`,
        );
    }
  }
}

export function compileStack(dir: string, options: CompileOptions = {}): CompiledStack {
  const { root, stack } = loadStack(dir);
  const settings = runOptionsFromSettings(settingsFiles(stack, options.settings ?? []), stack.dir);
  if (settings.files.length === 0) {
    throw kclError(
      'WorkspaceError',
      `the settings of stack ${stack.path} name no KCL file (kcl_cli_configs.file is empty)`,
      {
        file: path.join(stack.dir, 'kcl.yaml'),
        line: 1,
        column: 1,
      },
    );
  }
  let result: ReturnType<typeof runKcl>;
  try {
    result = runKcl({
      ...settings,
      options: [...(settings.options ?? []), ...(options.arguments ?? []).map(parseOptionArg)],
      overrides: [...(settings.overrides ?? []), ...(options.overrides ?? [])],
      plugins: options.plugins,
      packageCache: options.packageCache,
      guards: options.guards,
      ...(options.keepParses
        ? { astCache: new AstCache(path.join(root, '.kdeck', 'cache', 'ast'), options.guards?.readOnly !== true) }
        : {}),
    });
  } finally {
    // the parses of a program that fails are as good as those of one that runs
    if (options.keepParses && !options.writeParsesLater) writeKeptParses();
  }
  const spec = specOf([
    ...resourcesOfOutput(result.data(), `the output of stack ${stack.path}`),
    ...crdResources(stack.dir),
  ]);
  checkReferences(spec);
  checkAcyclic(graphOf(spec));
  return { root, stack, spec, printed: result.printed, repeatable: !result.reachedOutside };
}
