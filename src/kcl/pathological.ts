/**
 * Inputs built to break a compiler: deep nesting, long chains, huge literals and files, huge
 * allocations, endless programs, files that are not files. Each one must end in a diagnostic or
 * a correct result. pathological.test.ts checks the outcomes; pathological-report.ts runs each
 * through the real command line and reports its time and peak memory.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** A run as `kdeck [--read-only] kcl run [-Y settings] [--timeout D] files...` takes it. */
export interface PathologicalRun {
  files: string[];
  settings?: string[];
  timeout?: string;
  readOnly?: boolean;
}

export type Expected = { result: (yaml: string) => boolean } | { diagnostic: RegExp };

export interface PathologicalInput {
  name: string;
  /** Writes the input's files under `dir` (an empty folder of its own). */
  make(dir: string): PathologicalRun;
  expected: Expected;
  /** Only where the platform has it (FIFOs). */
  available?: () => boolean;
}

const NESTED = { diagnostic: /nested more than \d+ levels deep/ };

function program(dir: string, source: string, name = 'main.k'): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, source);
  return file;
}

const one = (dir: string, source: string): PathologicalRun => ({ files: [program(dir, source)] });

/** Statements of small tokens up to `bytes`: the worst case for the parser's memory. */
function manyStatements(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `x${i} = {a: 1, b: [1, 2, 3], c: "hello"}\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join('');
}

export const PATHOLOGICAL_INPUTS: readonly PathologicalInput[] = [
  {
    name: '4,000 nested parentheses',
    make: (dir) => one(dir, `a = ${'('.repeat(4000)}1${')'.repeat(4000)}\n`),
    expected: NESTED,
  },
  {
    name: '10,000 nested lists',
    make: (dir) => one(dir, `a = ${'['.repeat(10000)}${']'.repeat(10000)}\n`),
    expected: NESTED,
  },
  {
    name: '5,000 nested dicts',
    make: (dir) => one(dir, `a = ${'{a: '.repeat(5000)}1${'}'.repeat(5000)}\n`),
    expected: NESTED,
  },
  {
    name: '5,000 chained if-else expressions',
    make: (dir) => one(dir, `a = ${'1 if False else '.repeat(5000)}2\n`),
    expected: NESTED,
  },
  {
    name: '3,000 nested calls',
    make: (dir) => one(dir, `f = lambda x { x }\na = ${'f('.repeat(3000)}1${')'.repeat(3000)}\n`),
    expected: NESTED,
  },
  {
    // one string token, in which the token pass sees no bracket: the tree check has to find it
    name: '1,000 nested parentheses inside a string interpolation',
    make: (dir) => one(dir, `a = "\${${'('.repeat(1000)}1${')'.repeat(1000)}}"\n`),
    expected: NESTED,
  },
  {
    name: '2,000 nested if blocks',
    make: (dir) =>
      one(
        dir,
        Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i)}if True:\n`).join('') + `${' '.repeat(2000)}a = 1\n`,
      ),
    expected: NESTED,
  },
  {
    name: 'a 10,000-term + chain',
    make: (dir) => one(dir, `a = ${Array(10000).fill('1').join(' + ')}\n`),
    expected: { result: (yaml) => yaml === 'a: 10000\n' },
  },
  {
    name: 'a flat 2,000-term + chain',
    make: (dir) => one(dir, `a = ${Array(2000).fill('1').join(' + ')}\n`),
    expected: { result: (yaml) => yaml === 'a: 2000\n' },
  },
  {
    name: 'a 10,000-term and chain',
    make: (dir) => one(dir, `a = ${Array(10000).fill('True').join(' and ')}\n`),
    expected: { result: (yaml) => yaml === 'a: true\n' },
  },
  {
    name: 'a 20 MB string literal',
    make: (dir) => one(dir, `a = "${'x'.repeat(20 * 2 ** 20)}"\n`),
    expected: { result: (yaml) => yaml.length === 20 * 2 ** 20 + 4 && yaml.startsWith('a: xxx') },
  },
  {
    name: 'a 20 MB string literal with a line break',
    make: (dir) => one(dir, `a = "${'x'.repeat(10 * 2 ** 20)}\\n${'y'.repeat(10 * 2 ** 20)}"\n`),
    expected: { result: (yaml) => yaml.startsWith('a: |-\n  xxx') && yaml.endsWith('yyy\n') },
  },
  {
    name: 'a string literal of 5 million escapes',
    make: (dir) => one(dir, `a = "${'x\\"'.repeat(5 * 2 ** 20)}"\n`),
    expected: { result: (yaml) => yaml === `a: ${'x"'.repeat(5 * 2 ** 20)}\n` },
  },
  {
    name: '[i for i in range(10000000000)]',
    make: (dir) => one(dir, 'a = [i for i in range(10000000000)]\n'),
    expected: { diagnostic: /range\(10000000000\) would make a list of 10000000000 items/ },
  },
  {
    name: '[0] * 10000000000',
    make: (dir) => one(dir, 'a = [0] * 10000000000\n'),
    expected: { diagnostic: /repeating a list 10000000000 times would make a list/ },
  },
  {
    name: '"x" * 10000000000',
    make: (dir) => one(dir, 'a = "x" * 10000000000\n'),
    expected: { diagnostic: /repeating a string 10000000000 times would make a string/ },
  },
  {
    name: 'a 50 MB file',
    make: (dir) => one(dir, manyStatements(50 * 2 ** 20)),
    expected: { diagnostic: /larger than the 32\.0 MiB a kcl file may be/ },
  },
  {
    name: 'a 5 MB file of small statements',
    make: (dir) => one(dir, manyStatements(5 * 2 ** 20)),
    expected: { diagnostic: /more than \d+ tokens/ },
  },
  {
    name: '/dev/zero',
    make: () => ({ files: ['/dev/zero'] }),
    expected: { diagnostic: /not a regular file/ },
    available: () => fs.existsSync('/dev/zero'),
  },
  {
    name: 'a FIFO',
    make: (dir) => {
      const fifo = path.join(dir, 'fifo.k');
      execFileSync('mkfifo', [fifo]);
      return { files: [fifo] };
    },
    expected: { diagnostic: /not a regular file/ },
    available: () => process.platform !== 'win32',
  },
  {
    name: 'a directory as a file',
    make: (dir) => {
      fs.mkdirSync(path.join(dir, 'main.k'));
      fs.writeFileSync(path.join(dir, 'kcl.yaml'), 'kcl_cli_configs:\n  file:\n    - main.k\n');
      return { files: [], settings: [path.join(dir, 'kcl.yaml')] };
    },
    expected: { diagnostic: /is a directory, not a kcl file/ },
  },
  {
    name: 'a missing stack entry',
    make: (dir) => {
      fs.writeFileSync(path.join(dir, 'kcl.yaml'), 'kcl_cli_configs:\n  file:\n    - main.k\n');
      return { files: [], settings: [path.join(dir, 'kcl.yaml')] };
    },
    expected: { diagnostic: /does not exist/ },
  },
  {
    name: 'a runaway program under --timeout 1s',
    make: (dir) => ({
      ...one(dir, 'a = sum([x * y for x in range(9000) for y in range(9000)])\n'),
      timeout: '1s',
    }),
    expected: { diagnostic: /ran longer than the 1s that --timeout 1s allows/ },
  },
  {
    name: 'file.write under --read-only',
    make: (dir) => ({ ...one(dir, 'import file\nfile.write("out.txt", "x")\na = 1\n'), readOnly: true }),
    expected: { diagnostic: /--read-only/ },
  },
];
