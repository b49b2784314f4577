/**
 * Runs every pathological input (pathological.ts) through the real command line, one process
 * each, and reports its outcome, wall time and peak memory against the bar: each ends within
 * 10 s and 500 MB, in a diagnostic (non-zero exit) or the expected result.
 *
 *   node dist/bench/pathological.js (npm run bench:pathological)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PATHOLOGICAL_INPUTS, type PathologicalRun } from '../src/kcl/pathological.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(HERE, '..', 'bin', 'kdeck.js');
const HOOK = path.join(HERE, 'rss-hook.js');
const MAX_SECONDS = 10;
const MAX_MB = 500;

function argsOf(spec: PathologicalRun): string[] {
  return [
    ...(spec.readOnly ? ['--read-only'] : []),
    'kcl',
    'run',
    ...(spec.settings ?? []).flatMap((s) => ['-Y', s]),
    ...(spec.timeout ? ['--timeout', spec.timeout] : []),
    ...spec.files,
  ];
}

function main(): number {
  const root = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-pathological-report-'));
  let failures = 0;
  console.log(`${'input'.padEnd(44)} ${'outcome'.padEnd(12)} ${'time'.padStart(7)} ${'peak'.padStart(8)}  bar`);
  try {
    PATHOLOGICAL_INPUTS.forEach((input, index) => {
      if (input.available && !input.available()) return;
      const dir = path.join(root, String(index));
      fs.mkdirSync(dir);
      const spec = input.make(dir);
      const rssFile = path.join(root, `rss-${index}`);
      const started = performance.now();
      const child = spawnSync(process.execPath, ['--import', HOOK, CLI, ...argsOf(spec)], {
        cwd: dir,
        env: { ...process.env, KDECK_RSS_FILE: rssFile, NO_COLOR: '1' },
        encoding: 'utf8',
        maxBuffer: 256 * 2 ** 20,
        timeout: 60_000,
      });
      const seconds = (performance.now() - started) / 1000;
      const mb = fs.existsSync(rssFile) ? Number(fs.readFileSync(rssFile, 'utf8')) / 1024 : NaN;
      const expected = input.expected;
      const outcomeOk =
        'result' in expected
          ? child.status === 0 && expected.result(child.stdout)
          : child.status !== 0 && expected.diagnostic.test(child.stderr) && !/internal error/.test(child.stderr);
      const outcome = child.status === 0 ? 'result' : child.signal ? `killed ${child.signal}` : `exit ${child.status}`;
      const ok = outcomeOk && seconds <= MAX_SECONDS && mb <= MAX_MB;
      if (!ok) failures++;
      console.log(
        `${input.name.padEnd(44)} ${(outcome + (outcomeOk ? '' : '?')).padEnd(12)} ${seconds.toFixed(2).padStart(6)}s ${mb.toFixed(0).padStart(5)} MB  ${ok ? 'ok' : 'FAIL'}`,
      );
      fs.rmSync(dir, { recursive: true, force: true });
    });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  console.log(failures === 0 ? `all within ${MAX_SECONDS} s and ${MAX_MB} MB` : `${failures} over the bar`);
  return failures === 0 ? 0 : 1;
}

process.exitCode = main();
