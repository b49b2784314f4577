/**
 * Imports during one run. System modules come from the host, plugins from the run's registries,
 * and packages are loaded once per run: reused from the package cache when an earlier evaluation
 * still holds, else parsed, checked and evaluated, with import cycles refused with their chain.
 *
 * While a package is evaluated, the loader records what the evaluation depends on beyond its
 * files (the options it reads, the packages it imports) and what a run reusing it must redo (the
 * instances it makes, in order with its imports). An evaluation that reaches outside the program
 * (see ProgramHost.reachesOutside), imports a plugin, or imports a package that is not kept, is
 * not kept either.
 */
import type * as A from './ast.js';
import { kclError, throwAll, type Diagnostic } from '../diagnostics/diagnostics.js';
import { BUILTIN_NAMES, type Evaluator } from './eval/evaluator.js';
import { InstanceRegistry } from './eval/instances.js';
import { SYSTEM_MODULES } from './eval/system/index.js';
import { repr, type ModuleValue, type Value } from './eval/values.js';
import { packageAt, packageTarget, parseFile, parseFiles, type PackageFiles } from './loader.js';
import type { AstCache } from './ast-cache.js';
import type { EvaluatedPackage, JournalItem, PackageCache } from './package-cache.js';
import { PLUGIN_PREFIX, type PluginRegistry } from './plugins.js';
import { resolveNames } from './resolver.js';

export interface LoaderSettings {
  root: string;
  cache: PackageCache;
  /** The run's evaluator, which evaluates the packages too. */
  evaluator: () => Evaluator;
  /** The run's options (`-D`, settings files). */
  options: ReadonlyMap<string, Value>;
  /** Part of what a package evaluates to (kcl.mod's version rules, see kcl-mod.ts). */
  configKeysInScope: boolean;
  /** See VersionRules.undefinedSchemaNamesReadUndefined. */
  undefinedSchemaNamesReadUndefined?: boolean;
  /** The run's plugins, and the ones kcl ships, asked when the run's have no such plugin. */
  plugins: PluginRegistry;
  standardPlugins: PluginRegistry;
  /** Parsed files kept on disk between runs, if any. */
  astCache?: AstCache;
}

/** A package being evaluated, and what its evaluation has depended on so far. */
interface Recording {
  pkgpath: string;
  options: Map<string, string | undefined>;
  journal: JournalItem[];
  /** Whether the evaluation may be kept. */
  keep: boolean;
}

interface Loaded {
  module: ModuleValue;
  /** What the cache keeps of it; undefined when its evaluation may not be kept. */
  evaluated?: EvaluatedPackage;
}

/** An option's value as the cache compares it: `repr` tells 1 from 1.0 and True from "True". */
function optionText(v: Value | undefined): string | undefined {
  return v === undefined ? undefined : repr(v);
}

export class PackageLoader {
  /** The packages import targets hold, read once per run. */
  private readonly located = new Map<string, PackageFiles | undefined>();
  private readonly loaded = new Map<string, Loaded>();
  /** The packages under evaluation, the innermost last: the chain an import cycle reports. */
  private readonly recordings: Recording[] = [];
  private readonly holding = new Map<EvaluatedPackage, boolean>();
  private outside = false;
  /** The run's instances: those made while a package is evaluated go to its journal. */
  readonly instances = new InstanceRegistry((inst, pkgpath) =>
    this.current()?.journal.push({ kind: 'instance', inst, pkgpath }),
  );

  constructor(private readonly settings: LoaderSettings) {}

  /** `option(key)`: the run's value, recorded for the package being evaluated. */
  option(key: string): Value | undefined {
    const v = this.settings.options.get(key);
    const rec = this.current();
    if (rec && !rec.options.has(key)) rec.options.set(key, optionText(v));
    return v;
  }

  /** Whether anything in the run, in a package or the main files, reached outside the program. */
  get reachedOutside(): boolean {
    return this.outside;
  }

  /** The package being evaluated, if any, depends on something outside the program. */
  reachesOutside(): void {
    this.outside = true;
    const rec = this.current();
    if (rec) rec.keep = false;
  }

  /** Every import of these modules must name something that exists. kcl's loader finds a
   * missing package before any name is resolved, so a misspelt import is reported at the import,
   * not at the first use of the name it failed to bind; and it reports every one. */
  checkImports(modules: A.Module[]): void {
    const problems: Diagnostic[] = [];
    for (const m of modules) {
      for (const stmt of m.body) {
        if (stmt.type !== 'Import' || SYSTEM_MODULES.has(stmt.path) || stmt.path.startsWith(PLUGIN_PREFIX)) continue;
        if (this.locate(stmt.path, m.file)) continue;
        const target = packageTarget(stmt.path, m.file, this.settings.root);
        const position = { file: m.file, line: stmt.line, column: stmt.column };
        problems.push({
          kind: 'CannotFindModule',
          message: `Cannot find the module ${stmt.path} from ${target}`,
          position,
        });
      }
    }
    throwAll(problems);
  }

  /** The module `import spec` written in `fromFile` binds. */
  importModule(spec: string, fromFile: string): ModuleValue {
    const systemModule = SYSTEM_MODULES.get(spec);
    if (systemModule) return systemModule();
    if (spec.startsWith(PLUGIN_PREFIX)) {
      // the plugins are the run's own: a package holding one cannot serve another run
      this.reachesOutside();
      return this.settings.plugins.find(spec) ?? this.settings.standardPlugins.module(spec);
    }
    const pkg = this.locate(spec, fromFile);
    if (!pkg)
      throw kclError(
        'CannotFindModule',
        `pkgpath ${spec} not found in the program (looked under ${this.settings.root})`,
      );
    const loaded = this.load(pkg);
    const rec = this.current();
    if (rec && loaded.evaluated) rec.journal.push({ kind: 'import', pkgpath: pkg.pkgpath, pkg: loaded.evaluated });
    else if (rec) rec.keep = false;
    return loaded.module;
  }

  /** Whether an import in this run has run the package `import spec` written in `fromFile`
   * names; system modules and plugins need no running. */
  importedYet(spec: string, fromFile: string): boolean {
    if (SYSTEM_MODULES.has(spec) || spec.startsWith(PLUGIN_PREFIX)) return true;
    const pkg = this.locate(spec, fromFile);
    return pkg !== undefined && this.loaded.has(pkg.pkgpath);
  }

  private current(): Recording | undefined {
    return this.recordings[this.recordings.length - 1];
  }

  private locate(spec: string, fromFile: string): PackageFiles | undefined {
    return this.packageAt(packageTarget(spec, fromFile, this.settings.root));
  }

  private packageAt(target: string): PackageFiles | undefined {
    if (!this.located.has(target)) this.located.set(target, packageAt(target, this.settings.root));
    return this.located.get(target);
  }

  private cacheKey(pkgpath: string): string {
    return JSON.stringify([
      this.settings.root,
      pkgpath,
      this.settings.configKeysInScope,
      this.settings.undefinedSchemaNamesReadUndefined === true,
    ]);
  }

  private load(pkg: PackageFiles): Loaded {
    const done = this.loaded.get(pkg.pkgpath);
    if (done) return done;
    const inCycle = this.recordings.findIndex((r) => r.pkgpath === pkg.pkgpath);
    if (inCycle >= 0) {
      const chain = [...this.recordings.slice(inCycle).map((r) => r.pkgpath), pkg.pkgpath].join(' -> ');
      throw kclError('RecursiveLoad', `There is a circular import reference between modules: ${chain}`);
    }
    const cached = this.settings.cache.find(this.cacheKey(pkg.pkgpath), (p) => this.holds(p));
    return cached ? this.reuse(pkg.pkgpath, cached) : this.evaluate(pkg);
  }

  /** Loads a kept evaluation into this run, as evaluating it would have: its imports are loaded
   * and its instances counted, in the order its evaluation did. */
  private reuse(pkgpath: string, pkg: EvaluatedPackage): Loaded {
    const loaded: Loaded = { module: pkg.module, evaluated: pkg };
    this.loaded.set(pkgpath, loaded);
    for (const item of pkg.journal) {
      if (item.kind === 'instance') this.instances.replay(item.inst, item.pkgpath);
      else if (!this.loaded.has(item.pkgpath)) this.reuse(item.pkgpath, item.pkg);
    }
    return loaded;
  }

  private evaluate(pkg: PackageFiles): Loaded {
    const rec: Recording = { pkgpath: pkg.pkgpath, options: new Map(), journal: [], keep: true };
    this.recordings.push(rec);
    let files: A.Module[];
    let members: Map<string, Value>;
    try {
      files = parseFiles(pkg.files, this.settings.astCache);
      this.checkImports(files);
      resolveNames(files, BUILTIN_NAMES, pkg.pkgpath, {
        undefinedSchemaNamesReadUndefined: this.settings.undefinedSchemaNamesReadUndefined,
      });
      // `_` names are not printed, but other packages may read them (`pkg._name`), as in kcl
      members = new Map(this.settings.evaluator().runModules(files, pkg.pkgpath).scope.vars);
    } finally {
      this.recordings.pop();
    }
    const module: ModuleValue = { kind: 'module', name: pkg.pkgpath, members };
    const evaluated = rec.keep
      ? { module, target: pkg.target, files, options: rec.options, journal: rec.journal }
      : undefined;
    if (evaluated) this.settings.cache.store(this.cacheKey(pkg.pkgpath), evaluated);
    const loaded: Loaded = { module, evaluated };
    this.loaded.set(pkg.pkgpath, loaded);
    return loaded;
  }

  /** Whether a kept evaluation is what evaluating the package now would give. */
  private holds(pkg: EvaluatedPackage): boolean {
    let known = this.holding.get(pkg);
    if (known === undefined) {
      known = this.stillHolds(pkg);
      this.holding.set(pkg, known);
    }
    return known;
  }

  private stillHolds(pkg: EvaluatedPackage): boolean {
    const now = this.packageAt(pkg.target);
    if (!now || now.files.length !== pkg.files.length) return false;
    for (let i = 0; i < now.files.length; i++) {
      if (now.files[i] !== pkg.files[i].file || !this.parsesTo(now.files[i], pkg.files[i])) return false;
    }
    for (const [key, text] of pkg.options) if (optionText(this.settings.options.get(key)) !== text) return false;
    for (const item of pkg.journal) {
      if (item.kind !== 'import') continue;
      const loaded = this.loaded.get(item.pkgpath);
      if (loaded ? loaded.evaluated !== item.pkg : !this.holds(item.pkg)) return false;
    }
    return true;
  }

  /** Whether a file's text is still the one `module` was parsed from; a file that no longer
   * parses is not, and evaluating the package again reports the error where kcl would. */
  private parsesTo(file: string, module: A.Module): boolean {
    try {
      return parseFile(file) === module;
    } catch {
      return false;
    }
  }
}
