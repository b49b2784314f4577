/**
 * The sample's part of `npm run bench`: a stack that imports the whole model library of
 * konfig-sample, compiled cold by the CLI, and warm in one process when one file of the stack
 * changes (the parse cache keeps the library's ASTs).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runKcl } from './run.js';
import { readSettings } from './settings.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(HERE, '..', 'cli.js');
const SAMPLE = path.resolve(HERE, '..', '..', 'konfig-sample');
const STACK = 'appops/guestbook/prod';
const TARGET_COLD_MS = 1500;
const TARGET_WARM_MS = 100;
const RUNS = 5;

export interface BenchResult {
  name: string;
  ok: boolean | undefined;
  detail: string;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function kclLines(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir)) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) n += kclLines(p);
    else if (p.endsWith('.k')) n += readFileSync(p, 'utf8').split('\n').length - 1;
  }
  return n;
}

export function benchSampleStack(): BenchResult[] {
  const stackDir = path.join(SAMPLE, STACK);
  if (!existsSync(stackDir) || !existsSync(CLI)) {
    console.log('  sample stack   skipped: konfig-sample or dist/cli.js not found');
    return [{ name: 'sample stack cold', ok: undefined, detail: 'skipped' }];
  }
  const settings = readSettings(path.join(stackDir, 'kcl.yaml'));
  const libraryLines = kclLines(path.join(SAMPLE, 'base', 'pkg'));

  const cold: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [CLI, 'kcl', 'run', '-Y', 'kcl.yaml'], { cwd: stackDir, encoding: 'utf8', timeout: 60_000 });
    cold.push(performance.now() - t0);
    if (r.status !== 0) return [{ name: 'sample stack compiles', ok: false, detail: r.stderr.split('\n')[0] ?? `exit ${r.status}` }];
  }

  // warm: one process, the stack's main.k edited before every run
  const edits = mkdtempSync(path.join(tmpdir(), 'kdeck-bench-sample-'));
  const main = settings.files.find((f) => path.basename(f) === 'main.k')!;
  const source = readFileSync(main, 'utf8');
  const files = (edited: string) => settings.files.map((f) => (f === main ? edited : f));
  runKcl({ files: settings.files, options: settings.options });
  const warm: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const edited = path.join(edits, `main-${i}.k`);
    writeFileSync(edited, `${source}\n# edit ${i}\n`);
    const t0 = performance.now();
    runKcl({ files: files(edited), options: settings.options });
    warm.push(performance.now() - t0);
  }
  rmSync(edits, { recursive: true, force: true });

  const coldMs = median(cold);
  const warmMs = median(warm);
  console.log(`  sample stack   ${STACK} importing ${libraryLines.toLocaleString('en-US')} lines of base/pkg`);
  console.log(`                 cold kdeck kcl run median ${coldMs.toFixed(0)} ms of [${cold.map((x) => x.toFixed(0)).join(', ')}] ms`);
  console.log(`                 warm, main.k changed, median ${warmMs.toFixed(1)} ms of [${warm.map((x) => x.toFixed(1)).join(', ')}] ms`);
  return [
    { name: `sample stack cold < ${TARGET_COLD_MS} ms`, ok: coldMs < TARGET_COLD_MS, detail: `${coldMs.toFixed(0)} ms` },
    { name: `sample stack warm < ${TARGET_WARM_MS} ms`, ok: warmMs < TARGET_WARM_MS, detail: `${warmMs.toFixed(1)} ms` },
  ];
}
