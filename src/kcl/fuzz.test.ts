/**
 * Mutation fuzzing of the whole pipeline (lexer, parser, evaluator, YAML output). The property:
 * whatever the input, `runKcl` either returns a result or throws a KclError. Anything else (a
 * TypeError from an unchecked AST shape, a RangeError from unbounded recursion, an exception from
 * the YAML printer) would reach the user as a JavaScript stack trace instead of a diagnostic.
 *
 * The seed is fixed so a failure reproduces; the report prints the exact input.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { KclError, renderDiagnostic } from '../diagnostics/diagnostics.js';
import { runKcl } from './run.js';
import { Random } from '../sandbox/random.js';

const SEED = 0x6b_64_65_63; // "kdec"
/** Per corpus file; with 8 files this is 9,600 mutated inputs, 10,002 with the sample's. */
const MUTANTS_PER_FILE = 1200;
const CORPUS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata', 'corpus');
const SAMPLE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'konfig-sample');
/** Files of the sample mutated in place, inside a copy of the repository, so each mutant runs
 * with the whole model library around it (imports, schemas, the render step). */
const SAMPLE_TARGETS = [
  'appops/guestbook/prod/main.k',
  'appops/guestbook/base/base.k',
  'base/pkg/models/frontend/server.k',
];
const SAMPLE_STACK = 'appops/guestbook/prod';
const SAMPLE_MUTANTS_PER_FILE = 134;

/** The sandbox's seeded generator (mulberry32): the point is reproducible mutants. */
const rngOf = (seed: number) => {
  const r = new Random(seed);
  return () => r.next();
};

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];
const between = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));

interface Tok {
  start: number;
  end: number;
}

/**
 * A deliberately rough tokenizer of our own: mutations must not depend on the lexer under test,
 * and cutting strings or numbers in odd places is fine, even useful.
 */
const ROUGH_TOKEN =
  /#[^\n]*|"""[^]*?"""|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|\d[\w.]*|\$?[A-Za-z_]\w*|\*\*=?|\/\/=?|[-+*/%|&^<>=!]=|->|\.\.\.|\?\.|\S/g;

function roughTokens(source: string): Tok[] {
  const toks: Tok[] = [];
  for (const m of source.matchAll(ROUGH_TOKEN)) {
    // mutating inside comments would be wasted on the evaluator
    if (!m[0].startsWith('#')) toks.push({ start: m.index, end: m.index + m[0].length });
  }
  return toks;
}

const INSERTIONS = [
  'schema',
  'lambda',
  'if',
  'elif',
  'else',
  'for',
  'in',
  'all',
  'any',
  'map',
  'filter',
  'check',
  'import',
  'mixin',
  'protocol',
  'rule',
  'assert',
  'as',
  'not',
  'and',
  'or',
  'is',
  'None',
  'Undefined',
  'True',
  'False',
  'type',
  'self',
  'super',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ':',
  '=',
  '+=',
  '-=',
  ',',
  '.',
  '?.',
  '?',
  '**',
  '*',
  '$',
  '@',
  '|',
  '->',
  '...',
  '\n',
  '\n    ',
  '\n  ',
  '\t',
  '\\',
  '\\\n',
  '"',
  "'",
  '"""',
  '${',
  '}}',
  '#',
  ';',
  '0',
  '-1',
  '1Ki',
  '1e309',
  '0x',
  '""',
  '[]',
  '{}',
  'x',
  '_',
  'print',
  'len',
  'option("x")',
  'Undefined.x',
];

type MutationKind = 'delete' | 'duplicate' | 'swap' | 'truncate' | 'bytes' | 'insert' | 'replace' | 'deepen';
const KINDS: readonly MutationKind[] = [
  'delete',
  'duplicate',
  'swap',
  'truncate',
  'bytes',
  'insert',
  'replace',
  'deepen',
];
/** How deep `deepen` nests or how long it chains: below, near and far past the nesting limit. */
const DEPTHS = [3, 50, 399, 401, 3000];
/** What `deepen` wraps a token in, or chains after it. */
const WRAPPERS: readonly (readonly [string, string])[] = [
  ['(', ')'],
  ['[', ']'],
  ['{a: ', '}'],
  ['[x for x in ', ']'],
  ['1 if True else ', ''],
  ['', ' + 1'],
  ['', '.a'],
  ['', '[0]'],
];
/** First-mutation schedule: `replace` twice, since it is the kind that most often still parses. */
const SCHEDULE: readonly MutationKind[] = [...KINDS, 'replace'];

/** Token classes for `replace`: a like-for-like swap mostly keeps the syntax and probes the evaluator. */
function tokenClass(text: string): string {
  if (/^["']/.test(text)) return 'string';
  if (/^\d/.test(text)) return 'number';
  if (/^\$?[A-Za-z_]/.test(text)) return 'name';
  return 'punct';
}

function splice(buf: Buffer, start: number, end: number, insert: Buffer | string): Buffer {
  return Buffer.concat([
    buf.subarray(0, start),
    typeof insert === 'string' ? Buffer.from(insert) : insert,
    buf.subarray(end),
  ]);
}

/** Applies one mutation; token positions are recomputed each time because earlier edits move them. */
function mutate(input: Buffer, kind: MutationKind, rng: Rng): { output: Buffer; note: string } {
  const text = input.toString('latin1'); // one char per byte, so offsets are byte offsets
  const toks = roughTokens(text);
  if (toks.length === 0 || kind === 'bytes') {
    const at = between(rng, 0, input.length);
    const bytes = Buffer.from(Array.from({ length: between(rng, 1, 8) }, () => between(rng, 0, 255)));
    return { output: splice(input, at, at, bytes), note: `bytes ${bytes.toString('hex')} @${at}` };
  }
  const t = pick(rng, toks);
  switch (kind) {
    case 'delete':
      return { output: splice(input, t.start, t.end, ''), note: `delete @${t.start}` };
    case 'duplicate': {
      const piece = input.subarray(t.start, t.end);
      // glued duplicates make new tokens (`aa`, `==`), spaced ones repeat the token
      const sep = rng() < 0.5 ? '' : ' ';
      return {
        output: splice(input, t.end, t.end, Buffer.concat([Buffer.from(sep), piece])),
        note: `duplicate @${t.start}`,
      };
    }
    case 'swap': {
      // nearby swaps keep most of the structure, which reaches deeper into the evaluator
      const j = Math.min(toks.length - 1, Math.max(0, toks.indexOf(t) + between(rng, -6, 6)));
      const [a, b] = t.start <= toks[j].start ? [t, toks[j]] : [toks[j], t];
      if (a === b) return { output: splice(input, a.start, a.end, ''), note: `delete @${a.start}` };
      const output = Buffer.concat([
        input.subarray(0, a.start),
        input.subarray(b.start, b.end),
        input.subarray(a.end, b.start),
        input.subarray(a.start, a.end),
        input.subarray(b.end),
      ]);
      return { output, note: `swap @${a.start} @${b.start}` };
    }
    case 'truncate': {
      const at = rng() < 0.5 ? t.start : between(rng, 0, input.length);
      return { output: input.subarray(0, at), note: `truncate @${at}` };
    }
    case 'replace': {
      const cls = tokenClass(text.slice(t.start, t.end));
      const same = toks.filter((u) => tokenClass(text.slice(u.start, u.end)) === cls);
      const other = pick(rng, same);
      return {
        output: splice(input, t.start, t.end, input.subarray(other.start, other.end)),
        note: `replace @${t.start} with @${other.start}`,
      };
    }
    case 'deepen': {
      // the pathological shapes (deep brackets, long chains) around an arbitrary token
      const [open, close] = pick(rng, WRAPPERS);
      const n = pick(rng, DEPTHS);
      const output = Buffer.concat([
        input.subarray(0, t.start),
        Buffer.from(open.repeat(n)),
        input.subarray(t.start, t.end),
        Buffer.from(close.repeat(n)),
        input.subarray(t.end),
      ]);
      return { output, note: `deepen ${JSON.stringify(open + close)} x${n} @${t.start}` };
    }
    case 'insert': {
      const word = pick(rng, INSERTIONS);
      const at = rng() < 0.5 ? t.start : t.end;
      const padded = rng() < 0.7 ? ` ${word} ` : word;
      return { output: splice(input, at, at, padded), note: `insert ${JSON.stringify(word)} @${at}` };
    }
  }
}

interface Failure {
  note: string;
  input: string;
  error: string;
}

const corpus = readdirSync(CORPUS_DIR)
  .filter((f) => f.endsWith('.k'))
  .sort();

const workDir = mkdtempSync(path.join(tmpdir(), 'kdeck-fuzz-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function describeError(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}\n${e.stack ?? ''}`;
  return `non-Error thrown: ${String(e)}`;
}

/** Runs one input; returns why it broke the property, or undefined when it held. */
function check(file: string, source: Buffer): string | undefined {
  writeFileSync(file, source);
  let outcome: unknown;
  try {
    outcome = runKcl({ files: [file] });
  } catch (e) {
    if (!(e instanceof KclError)) return describeError(e);
    try {
      // the CLI renders every diagnostic; a position the renderer cannot handle is a crash too
      renderDiagnostic(e.diagnostic, (f) => (f === file ? source.toString('utf8') : undefined));
    } catch (renderError) {
      return `renderDiagnostic failed on ${JSON.stringify(e.diagnostic)}: ${describeError(renderError)}`;
    }
    return undefined;
  }
  const yaml = (outcome as { yaml?: unknown } | undefined)?.yaml;
  return typeof yaml === 'string' ? undefined : `runKcl returned no yaml string: ${String(outcome)}`;
}

function report(name: string, failures: Failure[], total: number): string {
  const shown = failures
    .slice(0, 3)
    .map(
      (f, i) =>
        `--- failure ${i + 1}: ${f.note}\n--- input (JSON-escaped):\n${JSON.stringify(f.input)}\n--- input:\n${f.input}\n--- error:\n${f.error}`,
    );
  return `${failures.length}/${total} mutants of ${name} broke the result-or-KclError property\n${shown.join('\n\n')}`;
}

describe('kcl fuzz: every input yields a result or a KclError', () => {
  it('has a corpus', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(8);
  });

  it.each(corpus)('corpus file %s runs cleanly unmutated', (name) => {
    const source = readFileSync(path.join(CORPUS_DIR, name));
    const file = path.join(workDir, `pristine-${name}`);
    writeFileSync(file, source);
    // the corpus is valid KCL: anything but a result here is an evaluator gap, not fuzz noise
    expect(() => runKcl({ files: [file] })).not.toThrow();
  });

  it.each(corpus.map((name, index) => [name, index] as const))('mutants of %s', (name, index) => {
    const original = readFileSync(path.join(CORPUS_DIR, name));
    const rng = rngOf(SEED + index * 7919);
    const failures: Failure[] = [];
    for (let i = 0; i < MUTANTS_PER_FILE; i++) {
      // a fixed schedule for the first mutation so every kind is exercised; stack 0-2 more
      const notes: string[] = [];
      let input: Buffer = original;
      const steps = 1 + (rng() < 0.3 ? between(rng, 1, 2) : 0);
      for (let s = 0; s < steps; s++) {
        const kind = s === 0 ? SCHEDULE[i % SCHEDULE.length] : pick(rng, KINDS);
        const { output, note } = mutate(input, kind, rng);
        input = output;
        notes.push(`${kind}: ${note}`);
      }
      const file = path.join(workDir, `${path.basename(name, '.k')}-${i}.k`);
      const error = check(file, input);
      if (error !== undefined) {
        failures.push({ note: `${name} #${i} (${notes.join('; ')})`, input: input.toString('utf8'), error });
      }
      rmSync(file, { force: true });
    }
    if (failures.length > 0) expect.fail(report(name, failures, MUTANTS_PER_FILE));
  });
});

describe('kcl fuzz: mutants of the sample repository compile or give a KclError', () => {
  const copy = mkdtempSync(path.join(tmpdir(), 'kdeck-fuzz-sample-'));
  cpSync(SAMPLE_DIR, copy, { recursive: true });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));
  const stack = path.join(copy, SAMPLE_STACK);
  const files = ['../base/base.k', 'main.k', path.join(copy, 'base/pkg/render/render.k')].map((f) =>
    path.resolve(stack, f),
  );

  it('compiles the stack unmutated', () => {
    expect(runKcl({ files, options: [['cluster', 'sandbox-b']] }).yaml).toContain('resources:');
  });

  it.each(SAMPLE_TARGETS.map((name, index) => [name, index] as const))('mutants of konfig-sample/%s', (name, index) => {
    const target = path.join(copy, name);
    const original = readFileSync(target);
    const rng = rngOf(SEED + 104729 + index * 7919);
    const failures: Failure[] = [];
    for (let i = 0; i < SAMPLE_MUTANTS_PER_FILE; i++) {
      const kind = SCHEDULE[i % SCHEDULE.length];
      const { output, note } = mutate(original, kind, rng);
      writeFileSync(target, output);
      try {
        runKcl({ files, options: [['cluster', 'sandbox-b']] });
      } catch (e) {
        if (!(e instanceof KclError))
          failures.push({
            note: `${name} #${i} (${kind}: ${note})`,
            input: output.toString('utf8'),
            error: describeError(e),
          });
      }
    }
    writeFileSync(target, original);
    if (failures.length > 0) expect.fail(report(name, failures, SAMPLE_MUTANTS_PER_FILE));
  });
});
