/**
 * An ES module package, imported by name when it is needed. kdeck's shipped command line is one
 * CommonJS script run from the code V8 kept for it (scripts/bundle.ts, src/launch.ts), where an
 * `import()` of the script's own fails: Node 20 drops a script's import callback when V8 reads its
 * code from that kept code. The bundle therefore swaps this module for one that imports through the
 * launcher, which Node loaded as a module of its own; everywhere else it is a plain `import()`.
 */

/** Where the launcher leaves its import for the bundle's importPackage. */
export const LAUNCHER_IMPORT = Symbol.for('kdeck.import-package');

export function importPackage<T>(name: string): Promise<T> {
  return import(name) as Promise<T>;
}
