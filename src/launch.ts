#!/usr/bin/env node
/**
 * The shipped `kdeck` (dist/bin/kdeck.js, itself a CommonJS script once bundled): runs the command
 * line, bundled as one CommonJS script (kdeck-main.cjs, scripts/bundle.ts), from the code V8
 * compiled for it before. Node 20 keeps no compiled code for ES modules, and every kdeck process
 * compiled kdeck's JavaScript again: a quarter of a small apply's time before its first request.
 *
 * The kept code lies beside the script, one file per V8 version. The build writes it after an
 * apply of a sample stack (KDECK_CODE_CACHE_TRAINING), so that it holds the code of the compiler,
 * the plan and the apply as well as the command line's; a run that finds none (the first after
 * Node changed) writes what its start compiled. V8 checks the kept code against the script and its
 * own flags and compiles afresh when they differ; such a run leaves the file alone, for the runs
 * with the usual flags. A one-shot command runs with V8 flags of its own (src/launch-mode.ts), set
 * back to the defaults whenever V8 checks kept code against them. Files are written whole or not
 * at all, and a folder kdeck cannot write to costs the compile, nothing else.
 */
import { isAscii } from 'node:buffer';
import fs from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { importPackage, LAUNCHER_IMPORT } from './import-package.js';
import { ONE_SHOT_V8_FLAGS, runsLong, V8_DEFAULT_FLAGS } from './launch-mode.js';

const script = fileURLToPath(new URL('./kdeck-main.cjs', import.meta.url));
const codeCache = `${script}.${process.versions.v8}.code-cache`;
const oneShot = !runsLong(process.argv.slice(2));

/**
 * Runs `load` under V8's default flags, which kept code is made and checked under: kdeck's own
 * (the build trains it so) and Node's for its modules. Under a one-shot command's flags V8 refused
 * Node's, and http2, tls, crypto and the rest compiled from their source: about 15 ms of an apply.
 */
function underDefaultFlags<T>(load: () => T): T {
  if (!oneShot) return load();
  v8.setFlagsFromString(V8_DEFAULT_FLAGS);
  try {
    return load();
  } finally {
    v8.setFlagsFromString(ONE_SHOT_V8_FLAGS);
  }
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

function keep(data: Buffer): void {
  const temporary = `${codeCache}.${process.pid}`;
  try {
    fs.writeFileSync(temporary, data);
    fs.renameSync(temporary, codeCache);
  } catch {
    fs.rmSync(temporary, { force: true });
  }
}

// the script is ASCII (scripts/bundle.ts), which reads as Latin-1 in a fifth of the time UTF-8
// decoding takes (1.6 MB: about 3 ms); a script that is not is decoded as what it is
const bytes = fs.readFileSync(script);
const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
const cachedData = readOrUndefined(codeCache);
const compiled = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
  filename: script,
  cachedData,
});
if (oneShot) v8.setFlagsFromString(ONE_SHOT_V8_FLAGS);
const run = compiled.runInThisContext() as (
  exports: object,
  require: NodeJS.Require,
  module: { exports: object },
  filename: string,
  dirname: string,
) => void;
// the script's ES module packages (src/import-package.ts), found from this folder as from its own
(globalThis as Record<symbol, unknown>)[LAUNCHER_IMPORT] = importPackage;
const requireFromScript = createRequire(script);
/** Node's modules the script loaded: each is loaded under the default flags the first time. */
const loaded = new Set<string>();
// a long-running command runs under the defaults already: its requires need no look
const required = oneShot
  ? Object.assign((id: string): unknown => {
      if (!isBuiltin(id) || loaded.has(id)) return requireFromScript(id);
      loaded.add(id);
      return underDefaultFlags(() => requireFromScript(id));
    }, requireFromScript)
  : requireFromScript;
const module = { exports: {} };
run.call(module.exports, module.exports, required, module, script, path.dirname(script));
const keepCompiled = () => keep(underDefaultFlags(() => compiled.createCachedData()));
if (process.env.KDECK_CODE_CACHE_TRAINING) process.once('exit', keepCompiled);
// after the script's top level ran, which compiled what every command runs
else if (cachedData === undefined) keepCompiled();
