/**
 * Runs the upstream KCL grammar suite (tests/grammar) against `dist/bin/kdeck.js kcl run` and judges
 * every case the way upstream's test_grammar.py does, so the pass rate printed here is the one
 * upstream's harness would report.
 *
 *   npm run conformance -- <path to tests/grammar> [--filter s] [--verbose] [--json out.json]
 *
 * The suite is an external checkout and is never vendored into this repository.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse as parseYaml, parseAllDocuments } from 'yaml';

const TEST_FILE = 'main.k';
const STDOUT_GOLDEN = 'stdout.golden';
const STDERR_GOLDEN = 'stderr.golden';
const SETTINGS_FILE = 'settings.yaml';
const CASE_TIMEOUT_MS = 10_000;
const PARALLEL = 2;
/** A runaway case could print without end; past this the rest of its output cannot change the verdict. */
const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'kdeck.js');

type Expectation = 'stdout' | 'stderr' | 'none';

interface CaseResult {
  /** Case folder relative to the suite root, with forward slashes. */
  case: string;
  category: string;
  expect: Expectation;
  args: string[];
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  passed: boolean;
  /** stderr cases: exited with a code > 0, as upstream requires. */
  failsProperly?: boolean;
  /** stderr cases: the normalised golden is contained in the normalised stderr. */
  stderrMatched?: boolean;
  stackTrace: boolean;
  /** Why a case failed, in a few lines: a diff for stdout cases, stderr otherwise. */
  detail?: string;
}

interface RunOutput {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  durationMs: number;
  spawnError?: string;
}

// ------------------------------------------------------------------ discovery

function findCases(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true });
    if (entries.some((e) => e.isFile() && e.name === TEST_FILE)) found.push(dir);
    for (const e of entries) {
      // upstream's os.walk descends into case folders too: nested packages can be cases of their own
      if (e.isDirectory()) walk(path.join(dir, e.name));
    }
  };
  walk(root);
  return found.sort();
}

/** Mirrors `test_settings["kcl_options"].split()`: only a truthy value adds arguments. */
function kclOptions(caseDir: string): string[] {
  const file = path.join(caseDir, SETTINGS_FILE);
  if (!existsSync(file)) return [];
  let settings: unknown;
  try {
    settings = parseYaml(readFileSync(file, 'utf8'));
  } catch (e) {
    // upstream would error on this case; running it without options fails it just the same
    console.warn(`conformance: unreadable ${file}: ${(e as Error).message}`);
    return [];
  }
  if (settings === null || typeof settings !== 'object') return [];
  const opts = (settings as Record<string, unknown>)['kcl_options'];
  if (opts === null || opts === undefined || opts === '') return [];
  return String(opts)
    .split(/\s+/)
    .filter((s) => s.length > 0);
}

// ------------------------------------------------------------------ running

function runCase(caseDir: string, args: string[]): Promise<RunOutput> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, 'kcl', 'run', TEST_FILE, ...args], {
      cwd: caseDir,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let timedOut = false;
    let spawnError: string | undefined;
    let settled = false;
    child.stdout.on('data', (b: Buffer) => {
      if (outBytes < MAX_OUTPUT_BYTES) out.push(b);
      outBytes += b.length;
    });
    child.stderr.on('data', (b: Buffer) => {
      if (errBytes < MAX_OUTPUT_BYTES) err.push(b);
      errBytes += b.length;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, CASE_TIMEOUT_MS);
    const finish = (exitCode: number | null, signal: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        exitCode,
        signal,
        timedOut,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        durationMs: performance.now() - started,
        spawnError,
      });
    };
    child.on('error', (e) => {
      spawnError = e.message;
      finish(null, null);
    });
    // 'close' rather than 'exit': it waits for the pipes to drain, so no output is lost
    child.on('close', (code, signal) => finish(code, signal));
  });
}

async function runPool<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

// ------------------------------------------------------------------ judging

/** Python truthiness, because upstream drops documents with `if r`. */
function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === 0n || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof Map) return v.size > 0;
  return true;
}

function isNumeric(v: unknown): v is number | bigint | boolean {
  return typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean';
}

/**
 * Python `==` over what ruamel loads: mappings are ordered dicts, so key order matters; ints,
 * floats and bools compare by value (1 == 1.0 == True).
 */
function pyEqual(a: unknown, b: unknown): boolean {
  if (isNumeric(a) && isNumeric(b)) {
    const x = typeof a === 'boolean' ? Number(a) : a;
    const y = typeof b === 'boolean' ? Number(b) : b;
    // loose equality is the one JS comparison that is exact between bigint and number
    return x == y;
  }
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    const ea = [...a.entries()];
    const eb = [...b.entries()];
    return ea.every(([k, v], i) => pyEqual(k, eb[i][0]) && pyEqual(v, eb[i][1]));
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => pyEqual(v, b[i]));
  }
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return a === b;
}

/** Loads a YAML stream; undefined when it does not parse, which upstream counts as a failure. */
function loadDocs(text: string): unknown[] | undefined {
  const docs = parseAllDocuments(text, { intAsBigInt: true });
  // parseAllDocuments returns an EmptyStream (not an array) for empty input
  if (!Array.isArray(docs)) return [];
  const values: unknown[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) return undefined;
    values.push(doc.toJS({ mapAsMap: true, maxAliasCount: -1 }));
  }
  return values.filter(truthy);
}

// the escape and C1 control bytes are what an ANSI sequence is made of
// eslint-disable-next-line no-control-regex
const ANSI = /(?:\x1B[@-_]|[\x80-\x9F])[0-?]*[ -/]*[@-~]/g;

function normaliseStderr(text: string): string {
  return text
    .replace(ANSI, '')
    .split(/\r\n|\r|\n/)
    .filter((l) => l.trim().length > 0)
    .join('\n');
}

/** Node prints frames as `    at fn (file:line:col)` or `    at file:///...:line:col`. */
const STACK_FRAME =
  /^\s+at (?:.*\((?:file:\/\/|node:|\/|[A-Za-z]:\\).*:\d+:\d+\)|(?:file:\/\/|node:|\/)\S*:\d+:\d+|.*file:\/\/\/)\s*$/m;

function hasStackTrace(stderr: string): boolean {
  return STACK_FRAME.test(stderr);
}

/** A line diff for humans: LCS over the first few hundred lines, then the first differing lines. */
function lineDiff(expected: string, actual: string, maxLines: number): string {
  const a = expected.split('\n').slice(0, 300);
  const b = actual.split('\n').slice(0, 300);
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while ((i < n || j < m) && out.length < maxLines) {
    if (i < n && j < m && a[i] === b[j]) {
      i++;
      j++;
    } else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) {
      out.push(`+ ${b[j++]}`);
    } else {
      out.push(`- ${a[i++]}`);
    }
  }
  return out.join('\n');
}

function firstLines(text: string, count: number): string {
  const lines = text.split('\n').filter((l) => l.trim().length > 0);
  const head = lines.slice(0, count).join('\n');
  return lines.length > count ? `${head}\n… (${lines.length - count} more lines)` : head;
}

function judge(root: string, caseDir: string, args: string[], run: RunOutput): CaseResult {
  const rel = path.relative(root, caseDir).split(path.sep).join('/');
  const category = rel.split('/')[0] ?? rel;
  const stdoutGolden = path.join(caseDir, STDOUT_GOLDEN);
  const stderrGolden = path.join(caseDir, STDERR_GOLDEN);
  const expect: Expectation = existsSync(stdoutGolden) ? 'stdout' : existsSync(stderrGolden) ? 'stderr' : 'none';
  const result: CaseResult = {
    case: rel,
    category,
    expect,
    args,
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    durationMs: Math.round(run.durationMs),
    passed: true,
    stackTrace: hasStackTrace(run.stderr),
  };
  const failWith = (detail: string) => {
    result.passed = false;
    result.detail = detail;
  };
  const headline = run.spawnError
    ? `could not start: ${run.spawnError}`
    : run.timedOut
      ? `timed out after ${CASE_TIMEOUT_MS / 1000} s`
      : `exit ${run.exitCode ?? `signal ${run.signal}`}`;

  // upstream checks stdout first and stderr next, so a case with both goldens must satisfy both
  if (existsSync(stdoutGolden)) {
    const golden = readFileSync(stdoutGolden, 'utf8');
    const actualDocs = loadDocs(run.stdout);
    const goldenDocs = loadDocs(golden);
    if (run.exitCode !== 0) {
      failWith(`${headline}\n${firstLines(normaliseStderr(run.stderr) || run.stdout, 12)}`);
    } else if (!run.stdout.endsWith('\n') && run.stdout.length > 0) {
      failWith('stdout does not end with a newline');
    } else if (actualDocs === undefined) {
      failWith(`stdout is not valid YAML\n${firstLines(run.stdout, 12)}`);
    } else if (goldenDocs === undefined || !pyEqual(actualDocs, goldenDocs)) {
      failWith(lineDiff(golden.trimEnd(), run.stdout.trimEnd(), 16));
    }
  }
  if (existsSync(stderrGolden)) {
    const golden = normaliseStderr(readFileSync(stderrGolden, 'utf8')).split('${CWD}').join(path.resolve(caseDir));
    const stderr = normaliseStderr(run.stderr);
    result.stderrMatched = stderr.includes(golden);
    result.failsProperly = run.exitCode !== null && run.exitCode > 0;
    if (!result.failsProperly) {
      failWith(`${headline}, expected a failure\n${firstLines(normaliseStderr(run.stderr) || run.stdout, 12)}`);
    } else if (!result.stderrMatched) {
      failWith(`expected stderr to contain:\n${firstLines(golden, 8)}\n--- actual stderr:\n${firstLines(stderr, 12)}`);
    }
  }
  return result;
}

// ------------------------------------------------------------------ reporting

interface Tally {
  stdoutPassed: number;
  stdoutTotal: number;
  /** The normalised golden is contained in stderr, whatever the exit code. */
  stderrMatched: number;
  /** Upstream's verdict: contained and exited with a code > 0. */
  stderrPassed: number;
  stderrNonZero: number;
  stderrTotal: number;
  stackTraces: number;
  timeouts: number;
  noGolden: number;
}

function emptyTally(): Tally {
  return {
    stdoutPassed: 0,
    stdoutTotal: 0,
    stderrMatched: 0,
    stderrPassed: 0,
    stderrNonZero: 0,
    stderrTotal: 0,
    stackTraces: 0,
    timeouts: 0,
    noGolden: 0,
  };
}

function add(t: Tally, r: CaseResult): void {
  if (r.expect === 'stdout') {
    t.stdoutTotal++;
    if (r.passed) t.stdoutPassed++;
  } else if (r.expect === 'stderr') {
    t.stderrTotal++;
    if (r.stderrMatched) t.stderrMatched++;
    if (r.passed) t.stderrPassed++;
    if (r.failsProperly) t.stderrNonZero++;
  } else {
    t.noGolden++;
  }
  if (r.stackTrace) t.stackTraces++;
  if (r.timedOut) t.timeouts++;
}

function pct(n: number, d: number): string {
  return d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`;
}

function printTable(byCategory: Map<string, Tally>, total: Tally): void {
  const header = ['category', 'stdout pass', '%', 'stderr match', '%', 'stderr exit>0', 'stack traces', 'timeouts'];
  const row = (name: string, t: Tally) => [
    name,
    `${t.stdoutPassed}/${t.stdoutTotal}`,
    pct(t.stdoutPassed, t.stdoutTotal),
    `${t.stderrMatched}/${t.stderrTotal}`,
    pct(t.stderrMatched, t.stderrTotal),
    `${t.stderrNonZero}/${t.stderrTotal}`,
    String(t.stackTraces),
    String(t.timeouts),
  ];
  const rows = [...byCategory.entries()].map(([name, t]) => row(name, t));
  const totalRow = row('TOTAL', total);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length), totalRow[i].length));
  const fmt = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  console.log(fmt(header));
  console.log(rule);
  for (const r of rows) console.log(fmt(r));
  console.log(rule);
  console.log(fmt(totalRow));
}

// ------------------------------------------------------------------ main

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      filter: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      json: { type: 'string' },
    },
  });
  const suite = positionals[0];
  if (suite === undefined) {
    console.error(
      'usage: npm run conformance -- <path to kcl tests/grammar> [--filter substring] [--verbose] [--json file]',
    );
    return 2;
  }
  const root = path.resolve(suite);
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    console.error(`conformance: suite path not found or not a directory: ${root}`);
    return 2;
  }
  if (!existsSync(CLI)) {
    console.warn(`conformance: ${CLI} does not exist (run npm run build); every case will fail`);
  }

  const filter = values.filter;
  const cases = findCases(root).filter((dir) => {
    if (filter === undefined) return true;
    return path.relative(root, dir).split(path.sep).join('/').includes(filter);
  });
  if (cases.length === 0) {
    console.log(
      `conformance: no case folders (containing ${TEST_FILE}) under ${root}${filter ? ` matching "${filter}"` : ''}`,
    );
    return 0;
  }
  console.log(
    `conformance: ${cases.length} cases under ${root}, ${PARALLEL} at a time, ${CASE_TIMEOUT_MS / 1000} s each`,
  );

  const started = performance.now();
  let done = 0;
  const progress = process.stderr.isTTY;
  const results = await runPool(cases, PARALLEL, async (dir) => {
    const args = kclOptions(dir);
    const hasGolden = existsSync(path.join(dir, STDOUT_GOLDEN)) || existsSync(path.join(dir, STDERR_GOLDEN));
    // upstream asserts nothing for a case without goldens, so running it would prove nothing
    const run: RunOutput = hasGolden
      ? await runCase(dir, args)
      : { exitCode: null, signal: null, timedOut: false, stdout: '', stderr: '', durationMs: 0 };
    done++;
    if (progress) process.stderr.write(`\r${done}/${cases.length}`);
    return judge(root, dir, args, run);
  });
  if (progress) process.stderr.write('\r\x1B[K');

  const byCategory = new Map<string, Tally>();
  const total = emptyTally();
  for (const r of results) {
    let t = byCategory.get(r.category);
    if (!t) byCategory.set(r.category, (t = emptyTally()));
    add(t, r);
    add(total, r);
  }

  if (values.verbose) {
    const failing = results.filter((r) => r.expect !== 'none' && (!r.passed || r.stackTrace));
    console.log(`\nfailing cases (${failing.length}):`);
    for (const r of failing) {
      const tags = [r.expect, r.timedOut ? 'timeout' : '', r.stackTrace ? 'STACK TRACE' : '']
        .filter(Boolean)
        .join(', ');
      console.log(`\n✗ ${r.case} [${tags}]${r.args.length ? ` (${r.args.join(' ')})` : ''}`);
      if (r.detail) console.log(r.detail.replace(/^/gm, '    '));
    }
    console.log('');
  }

  printTable(byCategory, total);
  const all = total.stdoutTotal + total.stderrTotal;
  const passed = total.stdoutPassed + total.stderrPassed;
  console.log(`\noverall: ${passed}/${all} passed (${pct(passed, all)})`);
  console.log(
    `  stdout cases: ${total.stdoutPassed}/${total.stdoutTotal} (${pct(total.stdoutPassed, total.stdoutTotal)})`,
  );
  console.log(
    `  stderr cases: ${total.stderrPassed}/${total.stderrTotal} passed (${pct(total.stderrPassed, total.stderrTotal)}): golden contained and exit > 0; ` +
      `${total.stderrMatched} with the golden contained`,
  );
  const bar = total.stderrNonZero === total.stderrTotal && total.stackTraces === 0;
  console.log(
    `  errors: ${total.stderrNonZero}/${total.stderrTotal} stderr cases exit non-zero, ${total.stackTraces} cases printed a JS stack trace — ${bar ? 'bar met' : 'bar NOT met'}`,
  );
  if (total.timeouts > 0) console.log(`  timeouts: ${total.timeouts}`);
  if (total.noGolden > 0)
    console.log(`  ${total.noGolden} case folders have no golden file and were not judged (as upstream)`);
  console.log(`  wall time: ${((performance.now() - started) / 1000).toFixed(1)} s`);

  if (values.json !== undefined) {
    writeFileSync(
      values.json,
      JSON.stringify(
        { suite: root, totals: total, categories: Object.fromEntries(byCategory), cases: results },
        null,
        2,
      ) + '\n',
    );
    console.log(`  per-case results written to ${values.json}`);
  }
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(e);
    process.exitCode = 2;
  },
);
