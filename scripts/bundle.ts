/**
 * The shipped program: tsc's output (dist/src) bundled by esbuild into dist/bin.
 *
 * The command line is one CommonJS script, kdeck-main.cjs, run by kdeck.js (package.json `bin`,
 * src/launch.ts) from the code V8 compiled for it the run before: Node 20 keeps no compiled code
 * for ES modules, and compiling kdeck's megabyte of JavaScript cost every process about 70 ms.
 * Its `import()`s of kdeck's own modules stay lazy (esbuild runs a module's body on its first
 * import), so a command still runs only the code it uses. Three kinds of package stay outside it:
 * - Ink and ink-select-input, ES modules that finish loading with a top-level await, which a
 *   `require` cannot wait for: src/views/ink.ts imports them before any view is loaded, and the
 *   views' static imports of them read what it loaded (inkShim below);
 * - React, which Ink imports itself: the views must use that same copy of it;
 * - those of EXTERNAL.
 *
 * kdeck.js, the launcher, is a CommonJS script too (dist/bin/package.json says so), which spares
 * every process Node's ES module loader. The threads and processes kdeck starts are ES modules
 * beside it (.mjs), sharing chunks:
 *   compile-worker.mjs  the console's compile thread (src/app/console/compiler.ts)
 *   daemon-main.mjs     a workspace's sandbox daemon, a detached process (src/app/workspace-sandbox.ts)
 * They are found relative to the script's own location (`import.meta.url`, which the script gets
 * from its file name), and run long enough that their compile does not count.
 *
 * Last, an apply of a sample stack to a sandbox leaves V8's code for the script beside it
 * (trainCodeCache).
 *
 * Usage: node dist/scripts/bundle.js   (the last step of `npm run build`, after tsc)
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build, type Plugin } from 'esbuild';
import { LAUNCHER_IMPORT } from '../src/import-package.js';
import { startSandbox } from '../src/sandbox/launcher.js';
import { INK_MODULES, INK_PACKAGES } from '../src/views/ink.js';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLE_DIR = path.join(DIST, 'bin');

/**
 * Left to Node's resolver at run time. client-node is imported only for a kubeconfig user with an
 * exec or auth-provider plugin, and bundled it would bring its generated API models whole (13 MB);
 * Ink imports react-devtools-core only in its DevTools mode (DEV=true), which kdeck turns off
 * (src/terminal-env.ts), and it is not installed.
 */
const EXTERNAL = ['@kubernetes/client-node', 'react-devtools-core'];

/**
 * The views' static imports of an INK_PACKAGES package: the module src/views/ink.ts loaded, with
 * the names the package exports (read here, from the installed package).
 */
async function inkShim(name: string): Promise<string> {
  const names = Object.keys((await import(name)) as object);
  const named = names.filter((n) => n !== 'default');
  return [
    `const loaded = globalThis[Symbol.for(${JSON.stringify(Symbol.keyFor(INK_MODULES))})]?.[${JSON.stringify(name)}];`,
    `if (!loaded) throw new Error('kdeck: a view was loaded before loadInk() (src/views/ink.ts) loaded ${name}');`,
    ...(names.includes('default') ? ['export default loaded.default;'] : []),
    `export const { ${named.join(', ')} } = loaded;`,
  ].join('\n');
}

/** src/import-package.ts in the script: an import through the launcher (src/launch.ts). */
const IMPORT_THROUGH_LAUNCHER = `export const importPackage = (name) => globalThis[Symbol.for(${JSON.stringify(
  Symbol.keyFor(LAUNCHER_IMPORT),
)})](name);`;

const commonJsScript: Plugin = {
  name: 'common-js-script',
  setup(b) {
    const ink = new RegExp(`^(${INK_PACKAGES.join('|')})$`);
    b.onResolve({ filter: ink }, (args) => ({ path: args.path, namespace: 'ink-shim' }));
    b.onLoad({ filter: /.*/, namespace: 'ink-shim' }, async (args) => ({
      contents: await inkShim(args.path),
      loader: 'js',
    }));
    b.onLoad({ filter: /[\\/]src[\\/]import-package\.js$/ }, () => ({
      contents: IMPORT_THROUGH_LAUNCHER,
      loader: 'js',
    }));
  },
};

/**
 * The CommonJS packages in the ES module bundle `require` Node's own modules; an ES module has no
 * `require` of its own.
 */
const REQUIRE_BANNER =
  "import { createRequire as kdeckCreateRequire } from 'node:module'; const require = kdeckCreateRequire(import.meta.url);";

/** The sample stack whose apply the kept code is made from (trainCodeCache), and its time limit. */
const TRAINING_STACK = 'appops/guestbook/dev';
const TRAINING_LIMIT_MS = 120_000;

/** What every bundle here is: for Node 20, with a map beside it, quiet unless something is wrong. */
const FOR_NODE = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' } as const;

/** What `import.meta.url` is in the CommonJS scripts: their own file's URL. */
const IMPORT_META_URL = 'kdeckImportMetaUrl';
const COMMON_JS_SCRIPT = {
  ...FOR_NODE,
  format: 'cjs',
  define: { 'import.meta.url': IMPORT_META_URL },
  banner: { js: `const ${IMPORT_META_URL} = require('node:url').pathToFileURL(__filename).href;` },
} as const;

// chunk names carry their content's hash: the last build's chunks would linger
fs.rmSync(BUNDLE_DIR, { recursive: true, force: true });
await build({
  entryPoints: { 'kdeck-main': path.join(DIST, 'src', 'cli.js') },
  outdir: BUNDLE_DIR,
  outExtension: { '.js': '.cjs' },
  ...COMMON_JS_SCRIPT,
  external: [...EXTERNAL, 'react', 'react/jsx-runtime'],
  plugins: [commonJsScript],
  // without the comments esbuild keeps, a few of which hold non-ASCII characters, the script is
  // ASCII, which V8 keeps one byte a character: read, hashed and lazily compiled at every start
  // in a third less time than the two-byte copy (a fresh process's compile of a Konfig stack,
  // about 35 ms of 400). The map names the lines of dist/src that a stack trace's positions are in.
  minifyWhitespace: true,
});
await build({ entryPoints: { kdeck: path.join(DIST, 'src', 'launch.js') }, outdir: BUNDLE_DIR, ...COMMON_JS_SCRIPT });
// the launcher is CommonJS under the package's `"type": "module"`: Node's ES module loader, which
// an ES module launcher started, cost every process about 6 ms before kdeck's first line
fs.writeFileSync(path.join(BUNDLE_DIR, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
await build({
  entryPoints: {
    'compile-worker': path.join(DIST, 'src', 'app', 'console', 'compile-worker.js'),
    'daemon-main': path.join(DIST, 'src', 'sandbox', 'daemon-main.js'),
  },
  outdir: BUNDLE_DIR,
  outExtension: { '.js': '.mjs' },
  chunkNames: '[name]-[hash]',
  ...FOR_NODE,
  splitting: true,
  format: 'esm',
  external: EXTERNAL,
  banner: { js: REQUIRE_BANNER },
});
// a package imported with import() would fail there (src/import-package.ts says why)
const main = fs.readFileSync(path.join(BUNDLE_DIR, 'kdeck-main.cjs'), 'utf8');
const dynamicImport = /\bimport\(\s*["'`]/.exec(main);
if (dynamicImport) {
  const line = main.slice(0, dynamicImport.index).split('\n').length;
  throw new Error(`kdeck-main.cjs:${line} imports a package with import(); use importPackage (src/import-package.ts)`);
}
await trainCodeCache();

/**
 * Leaves V8's code for the script beside it (src/launch.ts), made by the apply of a sample stack
 * to a sandbox: on a copy of it, which has no parses kept, so that the code holds the parser's and
 * the evaluator's as well as the plan's, the apply's and the health checks'. Without the sample (a
 * build outside this repository), or should the apply fail, by a run of `kdeck --version`.
 */
async function trainCodeCache(): Promise<void> {
  const kdeck = path.join(BUNDLE_DIR, 'kdeck.js');
  const sample = path.join(DIST, '..', 'konfig-sample');
  const training = { ...process.env, KDECK_CODE_CACHE_TRAINING: '1' };
  const run = promisify(execFile);
  if (fs.existsSync(sample)) {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-training-'));
    const sandbox = await startSandbox({ clusters: 1, timings: { podStartMs: 0, readinessDelayMs: 0 } });
    try {
      fs.cpSync(sample, copy, { recursive: true, filter: (from) => path.basename(from) !== '.kdeck' });
      const args = ['--kubeconfig', sandbox.kubeconfigPath, '--context', 'sandbox-a', 'apply', '--yes', '-w'];
      // not execFileSync: the sandbox answers from this process
      await run(process.execPath, [kdeck, ...args, TRAINING_STACK], {
        cwd: copy,
        env: training,
        timeout: TRAINING_LIMIT_MS,
      });
      return;
    } catch (e) {
      console.warn(`bundle: the code cache is made without the sample's apply, which failed: ${String(e)}`);
    } finally {
      await sandbox.stop();
      fs.rmSync(copy, { recursive: true, force: true });
    }
  }
  await run(process.execPath, [kdeck, '--version'], { env: training, timeout: TRAINING_LIMIT_MS });
}
