/**
 * `kcl run` in-process: files and options in, YAML out. Shared by the `kdeck kcl run` command,
 * the conformance runner's subject, and (later) stack compilation.
 */
import fs from 'node:fs';
import path from 'node:path';
import type * as A from './ast.js';
import { KclError, kclError, type Position } from '../diagnostics/diagnostics.js';
import { union } from './eval/config.js';
import { BUILTIN_NAMES, Evaluator, lastEvaluatedLine } from './eval/evaluator.js';
import {
  DictValue,
  isDict,
  isList,
  isFunction,
  isModule,
  isSchemaType,
  isUndefined,
  repr,
  UNDEFINED,
  type Value,
} from './eval/values.js';
import type { SystemContext } from './eval/system/common.js';
import { findRoot, parseFiles } from './loader.js';
import type { AstCache } from './ast-cache.js';
import { mergedAssignments } from './config-merge.js';
import { versionRules } from './kcl-mod.js';
import { applyOverrides } from './override.js';
import { PROCESS_PACKAGE_CACHE, type PackageCache } from './package-cache.js';
import { PackageLoader } from './packages.js';
import { planDocuments } from './plan.js';
import { PluginRegistry } from './plugins.js';
import { PROJECT_CONTEXT_PLUGIN, projectContextPlugin } from './project-context-plugin.js';
import { resolveNames } from './resolver.js';
import { exhaustionAsDiagnostic, type RunGuards } from './run-guards.js';
import { Budget } from './eval/budget.js';
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
  /** Imported packages kept from earlier runs; by default the one the whole process shares. */
  packageCache?: PackageCache;
  /** A deadline and `--read-only` (see run-guards.ts). */
  guards?: RunGuards;
  /** Parsed files kept on disk between runs (ast-cache.ts); none by default. */
  astCache?: AstCache;
}

/** What a run did besides computing its result. */
interface RunFacts {
  /** What `print()` wrote, which kcl shows before the result. */
  printed: string;
  /**
   * Whether it reached outside the program (files, the environment, the clock, its output, a
   * plugin; see ProgramHost.reachesOutside): running it again may give another result or act twice.
   */
  reachedOutside: boolean;
}

export interface RunResult extends RunFacts {
  /** The output as `kcl run` prints it (computed on demand: a compile for apply only needs the data). */
  readonly yaml: string;
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

/**
 * What `-S` selects, as kcl's planner finds it in a config: each path split at its dots, a list
 * indexed by a number and a config by a key; several paths make a list of their values. A path
 * that finds nothing fails at the line kcl's runtime ended on, the last statement's.
 */
function selectPaths(root: Value, paths: readonly string[], modules: readonly A.Module[]): Value {
  if (!isDict(root)) return root;
  const values = paths.map((path) => {
    const v = valueAtPath(root, path);
    if (v === undefined)
      throw kclError('EvaluationError', `invalid path select operand ${path}, value not found`, {
        ...endOfRun(modules),
        lineOnly: true,
      });
    return v;
  });
  return values.length === 1 ? values[0] : values;
}

function valueAtPath(root: Value, path: string): Value | undefined {
  let v: Value | undefined = root;
  for (const key of path.split('.')) {
    if (isList(v)) v = /^\+?\d+$/.test(key) ? v[Number(key)] : undefined;
    else if (isDict(v)) v = v.get(key);
    else return undefined;
  }
  return v;
}

/** Where a run ends: the last expression walked in the last statement of the last file. */
function endOfRun(modules: readonly A.Module[]): Position {
  const last = modules.at(-1);
  const stmt = last?.body.at(-1);
  if (!last || !stmt) return { file: last?.file ?? '', line: 1, column: 1 };
  const value = stmt.type === 'Assign' || stmt.type === 'Attr' ? stmt.value : undefined;
  return { file: last.file, line: value ? lastEvaluatedLine(value) : stmt.line, column: 1 };
}

/**
 * The files of a run as kcl takes them: `${KCL_MOD}` is the folder holding kcl.mod, a folder
 * stands for its .k files (tests aside), and a file named twice (on the command line and in a
 * settings file) is compiled once, where it first came.
 */
function inputFiles(given: string[], workDir: string): string[] {
  const files = new Set<string>();
  for (const f of given) {
    const resolved = path.resolve(
      workDir,
      f.includes('${KCL_MOD}') ? f.replaceAll('${KCL_MOD}', findRoot(workDir)) : f,
    );
    const inFolder = isFolder(resolved)
      ? fs
          .readdirSync(resolved)
          .filter((n) => n.endsWith('.k') && !n.endsWith('_test.k'))
          .sort()
          .map((n) => path.join(resolved, n))
      : [resolved];
    for (const file of inFolder) files.add(file);
  }
  return [...files];
}

function isFolder(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

export function runKcl(opts: RunOptions): RunResult {
  try {
    return runProgram(opts);
  } catch (e) {
    throw exhaustionAsDiagnostic(e);
  }
}

function runProgram(opts: RunOptions): RunResult {
  const workDir = opts.workDir ?? process.cwd();
  const files = inputFiles(opts.files, workDir);
  let modules = parseFiles(files, opts.astCache);
  if (opts.overrides?.length) {
    // parsed files are cached and shared: change copies
    modules = modules.map((m) => structuredClone(m));
    applyOverrides(modules, opts.overrides);
  }
  const root = findRoot(files.length > 0 ? path.dirname(files[0]) : workDir);
  const rules = versionRules(root);
  const optionValues = new Map<string, Value>();
  for (const [k, raw] of opts.options ?? []) optionValues.set(k, parseOptionValue(raw));
  const packages = new PackageLoader({
    root,
    cache: opts.packageCache ?? PROCESS_PACKAGE_CACHE,
    evaluator: () => evaluator,
    options: optionValues,
    configKeysInScope: rules.configKeysInScope,
    undefinedSchemaNamesReadUndefined: rules.undefinedSchemaNamesReadUndefined,
    plugins: opts.plugins ?? new PluginRegistry(),
    standardPlugins: new PluginRegistry().register(PROJECT_CONTEXT_PLUGIN, projectContextPlugin({ files, workDir })),
    astCache: opts.astCache,
  });
  packages.checkImports(modules);
  const merged = mergedAssignments(modules, { mergeRepeatedAssignments: rules.repeatedAssignmentsMerge });
  resolveNames(modules, BUILTIN_NAMES, '', {
    undefinedSchemaNamesReadUndefined: rules.undefinedSchemaNamesReadUndefined,
    mergedAssignments: merged,
  });
  let printed = '';
  let manifests: { documents: Value[]; options: YamlStreamOptions } | undefined;
  const system: SystemContext = {
    workspaceRoot: root,
    modulePath: root,
    currentFile: () => evaluator.currentFile,
    setManifestsOutput: (documents, options) => (manifests = { documents, options }),
    readOnly: opts.guards?.readOnly,
  };
  const evaluator: Evaluator = new Evaluator(
    {
      print: (text) => {
        // a package that prints must print again in every run
        packages.reachesOutside();
        printed += text;
      },
      option: (key) => packages.option(key),
      system,
      reachesOutside: () => packages.reachesOutside(),
    },
    {
      showHidden: opts.showHidden,
      importModule: (spec, fromFile) => packages.importModule(spec, fromFile),
      configKeysInScope: rules.configKeysInScope,
      schemaAttributesBeforeConfigKeys: rules.schemaAttributesBeforeConfigKeys,
      requiredAttributesCheckedOnlyWhereWritten: rules.requiredAttributesCheckedOnlyWhereWritten,
      undefinedSchemaNamesReadUndefined: rules.undefinedSchemaNamesReadUndefined,
      packageImportedYet: rules.laterImportsReadUndefined
        ? (spec, fromFile) => packages.importedYet(spec, fromFile)
        : undefined,
      mergedAssignments: merged,
      instances: packages.instances,
      budget: new Budget(opts.guards?.deadline),
    },
  );
  const ctx = evaluator.runModules(modules);
  const facts = (): RunFacts => ({ printed, reachedOutside: packages.reachedOutside });
  // manifests.yaml_stream(...) replaces the program's output with its stream, as in kcl
  if (manifests !== undefined) {
    // the v0.4-era toolchain left empty lists out of these documents too, as its planner did
    const documents = rules.emptyListsPrinted ? manifests.documents : manifests.documents.map(withoutEmptyLists);
    return output(facts(), documents, manifests.options);
  }
  const globals = new DictValue();
  for (const name of ctx.order) {
    const v = ctx.scope.vars.get(name);
    if (v !== undefined && isOutput(name, v, opts.showHidden ?? false))
      globals.entries.set(name, evaluator.finished(v, ctx));
  }
  // bare expression statements print as the result; with globals they must agree with them
  let result: Value = globals;
  if (ctx.scalars.length > 0 && rules.bareExpressionsPrinted) {
    const start: Value = globals.size > 0 ? globals : UNDEFINED;
    result = ctx.scalars.reduce((acc: Value, s) => unionAtRoot(acc, s.value, s.position), start);
  }
  if (opts.pathSelectors?.length) result = selectPaths(result, opts.pathSelectors, modules);
  const encode = { sortKeys: opts.sortKeys, ignorePrivate: !opts.showHidden, ignoreNone: opts.disableNone };
  const plan = { showHidden: opts.showHidden, disableNone: opts.disableNone, omitEmptyLists: !rules.emptyListsPrinted };
  // kcl's planner prints a list of configs (`-S persons`) as a stream of documents, one each
  if (isList(result) && result.every(isDict)) {
    return output(
      facts(),
      result.flatMap((d) => planDocuments(d, plan)),
      encode,
    );
  }
  if (!isDict(result))
    return runResult(
      facts(),
      () => toYaml(result, encode),
      () => [plainData(result, encode)],
    );
  return output(facts(), planDocuments(result, plan), encode);
}

/** A document with the empty lists among its values left out, and nothing else changed. */
function withoutEmptyLists(doc: Value): Value {
  if (!isDict(doc)) return doc;
  return planDocuments(doc, { omitEmptyLists: true, showHidden: true })[0] ?? new DictValue();
}

function output(run: RunFacts, documents: Value[], options: YamlStreamOptions): RunResult {
  return runResult(
    run,
    () => toYamlStream(documents, options),
    () => documents.map((d) => plainData(d, options)),
  );
}

/** A result whose YAML is written the first time it is read, and once: writing it took as long as the evaluation. */
function runResult(run: RunFacts, yaml: () => string, data: () => unknown[]): RunResult {
  let text: string | undefined;
  return {
    ...run,
    get yaml() {
      return (text ??= yaml());
    },
    data,
  };
}

/** Adds a bare expression's value to the program's result; a conflict is worded as kcl words it
 * at the root (a config shown as `{...}`) and placed at the expression's line, as a runtime error. */
function unionAtRoot(acc: Value, value: Value, position: Position): Value {
  if (acc === UNDEFINED || isDict(acc) === isDict(value)) {
    try {
      return union(acc, value);
    } catch (e) {
      throw e instanceof KclError && !e.diagnostic.position
        ? new KclError({ ...e.diagnostic, position: { ...position, lineOnly: true } })
        : e;
    }
  }
  const [config, other] = isDict(acc) ? [acc, value] : [value, acc];
  throw kclError(
    'EvaluationError',
    `conflicting values between ${config === acc ? '{...}' : repr(other)} and ${config === acc ? repr(other) : '{...}'}`,
    { ...position, lineOnly: true },
  );
}
