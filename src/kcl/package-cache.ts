/**
 * Evaluated packages kept across runs in one process, so that a recompile (watch mode, or the
 * next stack of a workspace) does not evaluate again a model library that did not change.
 *
 * A package's evaluation is kept only when it depended on nothing but its files, the packages it
 * imported and the options it read: not when it printed, read files, the clock or the
 * environment, called a plugin, or imported a package that did (the loader, packages.ts, records
 * this while it evaluates). A later run reuses it while it still holds: the package's files are
 * the same (the parse cache hands out the same AST exactly while a file's text is unchanged),
 * every option it read has the same value, and every package it imported still holds in turn.
 *
 * Reuse is safe because the evaluator never changes a value once made (unions, merges, `+=` and
 * path assignments all build new values; see config.ts and evaluator.ts), and because a package
 * keeps nothing of the run that evaluated it: its lambdas run in the run calling them, and
 * schema instances are counted per run (instances.ts).
 */
import type * as A from './ast.js';
import type { DictValue, ModuleValue } from './eval/values.js';

/** What a package's evaluation did that a run reusing it must do too, in order. */
export type JournalItem =
  /** It made a schema instance, which `Schema.instances()` counts in every run using the package. */
  | { kind: 'instance'; inst: DictValue; pkgpath: string }
  /** It imported a package, which a run reusing it loads too (with that package's own journal). */
  | { kind: 'import'; pkgpath: string; pkg: EvaluatedPackage };

export interface EvaluatedPackage {
  readonly module: ModuleValue;
  /** The folder (or file without `.k`) the package is in. */
  readonly target: string;
  /** The parsed files it was evaluated from. */
  readonly files: readonly A.Module[];
  /** The options its evaluation read, each with its value's text then (undefined: not set). */
  readonly options: ReadonlyMap<string, string | undefined>;
  readonly journal: readonly JournalItem[];
}

/** How many evaluations of one package are kept: one per set of option values it is run with
 * (stacks of several clusters in one workspace), the most recently used first. */
const VARIANTS_PER_PACKAGE = 4;

export class PackageCache {
  private readonly packages = new Map<string, EvaluatedPackage[]>();

  /** The evaluation of the package named by `key` that still holds, if any. */
  find(key: string, holds: (pkg: EvaluatedPackage) => boolean): EvaluatedPackage | undefined {
    const variants = this.packages.get(key);
    const i = variants?.findIndex(holds) ?? -1;
    if (!variants || i < 0) return undefined;
    const [found] = variants.splice(i, 1);
    variants.unshift(found);
    return found;
  }

  store(key: string, pkg: EvaluatedPackage): void {
    const variants = this.packages.get(key) ?? [];
    this.packages.set(key, [pkg, ...variants].slice(0, VARIANTS_PER_PACKAGE));
  }
}

/** The cache every run of this process shares unless it is given its own. */
export const PROCESS_PACKAGE_CACHE = new PackageCache();
