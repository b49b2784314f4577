/**
 * Ink, loaded before any view that draws with it. Ink finishes loading with a top-level await (its
 * layout engine, yoga-layout, compiles WebAssembly), so only `import()` can load it: kdeck's
 * shipped command line is one CommonJS script whose compiled code V8 keeps from run to run
 * (scripts/bundle.ts), where a static `import … from 'ink'` becomes a `require` that cannot wait.
 * The bundle resolves those static imports to what this function left under INK_MODULES, so every
 * entry into the views awaits it first; run from the sources, it only loads Ink a little earlier.
 */
import { importPackage } from '../import-package.js';

/** Where the loaded modules are left for the bundle, by package name. */
export const INK_MODULES = Symbol.for('kdeck.ink-modules');

/** Ink and the packages that draw with it: what the views import, and what the bundle must not `require`. */
export const INK_PACKAGES = ['ink', 'ink-select-input'] as const;

/** Loads Ink and the packages that draw with it. */
export async function loadInk(): Promise<void> {
  const modules = await Promise.all(INK_PACKAGES.map((name) => importPackage<object>(name)));
  (globalThis as Record<symbol, unknown>)[INK_MODULES] ??= Object.fromEntries(
    INK_PACKAGES.map((name, i) => [name, modules[i]]),
  );
}

/**
 * A view module, imported once Ink is loaded: the commands' live views are loaded only for a
 * terminal, since Ink and React take longer to load than a small apply takes to run, and logs,
 * CI and `--output json` never draw them. `load` is the caller's own `import()`, so the
 * bundle sees which module it names.
 */
export async function importView<M>(load: () => Promise<M>): Promise<M> {
  await loadInk();
  return load();
}
