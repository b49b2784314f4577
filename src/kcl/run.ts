/**
 * `kcl run` in-process: files and options in, YAML out. Shared by the `kdeck kcl run` command,
 * the conformance runner's subject, and (later) stack compilation.
 */
import path from 'node:path';
import { kclError } from './diagnostics.js';
import { union } from './eval/config.js';
import { BUILTIN_NAMES, Evaluator } from './eval/evaluator.js';
import {
  DictValue,
  isDict,
  isFunction,
  isModule,
  isSchemaType,
  isUndefined,
  UNDEFINED,
  type ModuleValue,
  type Value,
} from './eval/values.js';
import { SYSTEM_MODULES } from './eval/system/index.js';
import type { SystemContext } from './eval/system/common.js';
import type * as A from './ast.js';
import { findRoot, locatePackage, packageTarget, parseFile } from './loader.js';
import { mergedAssignments } from './config-merge.js';
import { versionRules } from './kcl-mod.js';
import { applyOverrides } from './override.js';
import { planDocuments } from './plan.js';
import { PLUGIN_PREFIX, PluginRegistry } from './plugins.js';
import { PROJECT_CONTEXT_PLUGIN, projectContextPlugin } from './project-context-plugin.js';
import { resolveNames } from './resolver.js';
import { plainData, toYaml, toYamlStream, type YamlStreamOptions } from './yaml.js';

export interface RunOptions {
  files: string[];
  /** `-D key=value` pairs, values as written on the command line. */
  options?: [string, string][];
  workDir?: string;
  sortKeys?: boolean;
  showHidden?: boolean;
  /** `-n`: leave None values out of the output. */
  disableNone?: boolean;
  /** `-S`: print only the value at this path (`name.attr`, optionally `pkg:name.attr`). */
  pathSelectors?: string[];
  /** Host functions behind `import kcl_plugin.NAME`. */
  plugins?: PluginRegistry;
  /** `-O path.to.key=value` / `-O path.to.key-`, applied to the main files before they run. */
  overrides?: string[];
}

export interface RunResult {
  /** What `print()` wrote, which kcl shows before the result. */
  printed: string;
  yaml: string;
  /** The output documents as plain data, filtered as the YAML is (computed on demand). */
  data(): unknown[];
}

/** Turns a `-D` value into a KCL value: numbers, booleans, None, JSON lists and dicts; else a string. */
export function parseOptionValue(raw: string): Value {
  if (/^[-+]?\d+$/.test(raw)) return BigInt(raw);
  if (/^[-+]?(\d+\.\d*|\.\d+)$/.test(raw)) return Number(raw);
  if (raw === 'True' || raw === 'true') return true;
  if (raw === 'False' || raw === 'false') return false;
  if (raw === 'None' || raw === 'null') return null;
  if (/^[[{"]/.test(raw)) {
    try {
      return fromPlain(JSON.parse(raw));
    } catch {
      return raw;
    }
  }
  return raw;
}

export function fromPlain(x: unknown): Value {
  if (x === null || x === undefined) return null;
  if (typeof x === 'number') return Number.isInteger(x) ? BigInt(x) : x;
  if (typeof x === 'string' || typeof x === 'boolean') return x;
  if (Array.isArray(x)) return x.map(fromPlain);
  if (typeof x === 'object') return new DictValue(Object.entries(x).map(([k, v]) => [k, fromPlain(v)]));
  return String(x);
}

/** Splits `key=value`; kcl refuses an empty key or value and a second `=`. */
export function parseOptionArg(arg: string): [string, string] {
  const i = arg.indexOf('=');
  const key = i === -1 ? '' : arg.slice(0, i);
  const value = i === -1 ? '' : arg.slice(i + 1);
  if (!key || !value || value.includes('=')) {
    throw kclError('OptionError', `Invalid value for top level arguments: '${arg}' (expected -D key=value)`);
  }
  return [key, value];
}

/** The globals kcl prints: public, and data rather than functions, schemas or modules. */
function isOutput(name: string, v: Value, showHidden: boolean): boolean {
  if (name.startsWith('_') && !showHidden) return false;
  return !isUndefined(v) && !isFunction(v) && !isSchemaType(v) && !isModule(v);
}

function select(root: Value, selector: string): Value {
  const spec = selector.includes(':') ? selector.slice(selector.indexOf(':') + 1) : selector;
  let v: Value = root;
  for (const part of spec.split('.').filter(Boolean)) {
    const next: Value | undefined = isDict(v) ? v.get(part) : undefined;
    if (next === undefined) throw kclError('EvaluationError', `invalid path selector '${selector}': '${part}' not found`);
    v = next;
  }
  return v;
}

/**
 * Every import of these modules must name something that exists. kcl's loader finds a missing
 * package before any name is resolved, so a misspelt import is reported at the import, not at
 * the first use of the name it failed to bind.
 */
function checkImports(modules: A.Module[], root: string): void {
  for (const m of modules) {
    for (const stmt of m.body) {
      if (stmt.type !== 'Import' || SYSTEM_MODULES.has(stmt.path) || stmt.path.startsWith(PLUGIN_PREFIX)) continue;
      if (locatePackage(stmt.path, m.file, root)) continue;
      const target = packageTarget(stmt.path, m.file, root);
      throw kclError('CannotFindModule', `Cannot find the module ${stmt.path} from ${target}`, { file: m.file, line: stmt.line, column: stmt.column });
    }
  }
}

/** Loads imported packages on demand, each once, and refuses import cycles with their chain;
 * system modules (`import math`) come from the host. */
function packageImporter(
  root: string,
  evaluator: () => Evaluator,
  system: SystemContext,
  plugins: PluginRegistry,
  standardPlugins: PluginRegistry,
): (spec: string, fromFile: string) => ModuleValue {
  const loaded = new Map<string, ModuleValue>();
  const loading: string[] = [];
  return (spec, fromFile) => {
    const systemModule = SYSTEM_MODULES.get(spec);
    if (systemModule) return systemModule(system);
    if (spec.startsWith(PLUGIN_PREFIX)) return plugins.find(spec) ?? standardPlugins.module(spec);
    const pkg = locatePackage(spec, fromFile, root);
    if (!pkg) throw kclError('CannotFindModule', `pkgpath ${spec} not found in the program (looked under ${root})`);
    const done = loaded.get(pkg.pkgpath);
    if (done) return done;
    if (loading.includes(pkg.pkgpath)) {
      const chain = [...loading.slice(loading.indexOf(pkg.pkgpath)), pkg.pkgpath].join(' -> ');
      throw kclError('RecursiveLoad', `There is a circular import reference between modules: ${chain}`);
    }
    loading.push(pkg.pkgpath);
    try {
      const modules = pkg.files.map(parseFile);
      checkImports(modules, root);
      resolveNames(modules, BUILTIN_NAMES, pkg.pkgpath);
      const ctx = evaluator().runModules(modules);
      // `_` names are not printed, but other packages may read them (`pkg._name`), as in kcl
      const members = new Map<string, Value>(ctx.scope.vars);
      const module: ModuleValue = { kind: 'module', name: pkg.pkgpath, members };
      loaded.set(pkg.pkgpath, module);
      return module;
    } finally {
      loading.pop();
    }
  };
}

export function runKcl(opts: RunOptions): RunResult {
  const workDir = opts.workDir ?? process.cwd();
  const files = opts.files.map((f) => path.resolve(workDir, f));
  let modules = files.map(parseFile);
  if (opts.overrides?.length) {
    // parsed files are cached and shared: change copies
    modules = modules.map((m) => structuredClone(m));
    applyOverrides(modules, opts.overrides);
  }
  const root = findRoot(files.length > 0 ? path.dirname(files[0]) : workDir);
  checkImports(modules, root);
  const rules = versionRules(root);
  resolveNames(modules, BUILTIN_NAMES);
  const optionValues = new Map<string, Value>();
  for (const [k, raw] of opts.options ?? []) optionValues.set(k, parseOptionValue(raw));
  let printed = '';
  let manifests: { documents: Value[]; options: YamlStreamOptions } | undefined;
  const system: SystemContext = {
    workspaceRoot: root,
    modulePath: root,
    currentFile: () => evaluator.currentFile,
    setManifestsOutput: (documents, options) => (manifests = { documents, options }),
  };
  const standardPlugins = new PluginRegistry().register(PROJECT_CONTEXT_PLUGIN, projectContextPlugin({ files, workDir }));
  const importModule = packageImporter(root, () => evaluator, system, opts.plugins ?? new PluginRegistry(), standardPlugins);
  const evaluator: Evaluator = new Evaluator(
    { print: (text) => (printed += text), option: (key) => optionValues.get(key) },
    {
      showHidden: opts.showHidden,
      importModule,
      configKeysInScope: rules.configKeysInScope,
      mergedAssignments: mergedAssignments(modules, { mergeRepeatedAssignments: rules.repeatedAssignmentsMerge }),
    },
  );
  const ctx = evaluator.runModules(modules);
  // manifests.yaml_stream(...) replaces the program's output with its stream, as in kcl
  if (manifests !== undefined) return output(printed, manifests.documents, manifests.options);
  const globals = new DictValue();
  for (const name of ctx.order) {
    const v = ctx.scope.vars.get(name);
    if (v !== undefined && isOutput(name, v, opts.showHidden ?? false)) globals.entries.set(name, evaluator.finished(v, ctx));
  }
  // bare expression statements print as the result; with globals they must agree with them
  let result: Value = globals;
  if (ctx.scalars.length > 0 && rules.bareExpressionsPrinted) {
    const start: Value = globals.size > 0 ? globals : UNDEFINED;
    result = ctx.scalars.reduce((acc: Value, v) => union(acc, v), start);
  }
  if (opts.pathSelectors?.length) result = select(result, opts.pathSelectors[0]);
  const encode = { sortKeys: opts.sortKeys, ignorePrivate: !opts.showHidden, ignoreNone: opts.disableNone };
  if (!isDict(result)) return { printed, yaml: toYaml(result, encode), data: () => [plainData(result, encode)] };
  const plan = { showHidden: opts.showHidden, disableNone: opts.disableNone, omitEmptyLists: !rules.emptyListsPrinted };
  return output(printed, planDocuments(result, plan), encode);
}

function output(printed: string, documents: Value[], options: YamlStreamOptions): RunResult {
  return { printed, yaml: toYamlStream(documents, options), data: () => documents.map((d) => plainData(d, options)) };
}
