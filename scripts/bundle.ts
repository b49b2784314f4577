/**
 * The shipped program: tsc's output (dist/src) bundled by esbuild into dist/bin. Node 20 has no
 * module compile cache, and finding, reading and compiling the two hundred ES modules kdeck and
 * its packages are made of cost every kdeck process about 0.3 s before it did anything; a bundle
 * is a few files.
 *
 * Three entry points, each started by its path:
 *   kdeck.js           the command line (package.json `bin`)
 *   compile-worker.js  the console's compile thread (src/app/console/compiler.ts)
 *   daemon-main.js     a workspace's sandbox daemon, a detached process (src/app/workspace-sandbox.ts)
 * Their shared chunks sit beside them, because those modules find the entry points relative to
 * their own `import.meta.url`. Code splitting keeps every dynamic `import()` a chunk of its own that
 * loads when it runs: the console (Ink, React) only for `kdeck ui`, each command's work only for
 * that command.
 *
 * Usage: node dist/scripts/bundle.js   (the last step of `npm run build`, after tsc)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLE_DIR = path.join(DIST, 'bin');

const ENTRY_POINTS = {
  kdeck: path.join(DIST, 'src', 'cli.js'),
  'compile-worker': path.join(DIST, 'src', 'app', 'console', 'compile-worker.js'),
  'daemon-main': path.join(DIST, 'src', 'sandbox', 'daemon-main.js'),
};

/**
 * Left to Node's resolver at run time. client-node is imported only for a kubeconfig user with an
 * exec or auth-provider plugin, and bundled it would bring its generated API models whole (13 MB);
 * Ink imports react-devtools-core only in its DevTools mode (DEV=true), which kdeck turns off
 * (src/terminal-env.ts), and it is not installed.
 */
const EXTERNAL = ['@kubernetes/client-node', 'react-devtools-core'];

/**
 * The CommonJS packages in the bundle (commander among them) `require` Node's own modules; an ES
 * module has no `require` of its own.
 */
const REQUIRE_BANNER =
  "import { createRequire as kdeckCreateRequire } from 'node:module'; const require = kdeckCreateRequire(import.meta.url);";

// chunk names carry their content's hash: the last build's chunks would linger
fs.rmSync(BUNDLE_DIR, { recursive: true, force: true });
await build({
  entryPoints: ENTRY_POINTS,
  outdir: BUNDLE_DIR,
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  banner: { js: REQUIRE_BANNER },
  sourcemap: true,
  logLevel: 'warning',
});
