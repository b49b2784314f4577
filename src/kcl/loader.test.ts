import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { packageAt, parseFile } from './loader.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-loader-'));
  file = path.join(dir, 'main.k');
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Parses the file as if `later` ms had passed since it was written. */
function parseLater(later: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + later);
  try {
    return parseFile(file);
  } finally {
    vi.useRealTimers();
  }
}

const reads = () => vi.spyOn(fs, 'readFileSync');

it('does not read again a file untouched since it was read, long after its last change', () => {
  fs.writeFileSync(file, 'a = 1\n');
  const first = parseLater(10_000);
  const read = reads();
  expect(parseFile(file)).toBe(first);
  expect(read).not.toHaveBeenCalled();
});

it('reads again a file read soon after its last change, and keeps its tree while the text is the same', () => {
  fs.writeFileSync(file, 'a = 1\n');
  const first = parseFile(file);
  const read = reads();
  expect(parseFile(file)).toBe(first);
  expect(read).toHaveBeenCalled();
});

it('sees a change of the same size made right after a read', () => {
  fs.writeFileSync(file, 'a = 1\n');
  parseLater(10_000);
  fs.writeFileSync(file, 'a = 2\n');
  const changed = parseFile(file);
  expect(changed.body[0]).toMatchObject({ type: 'Assign', value: { value: 2n } });
});

it('finds a package in a folder of .k files (tests aside) or in a single .k file, and none elsewhere', () => {
  const at = (rel: string) => path.join(dir, rel);
  fs.mkdirSync(at('models'));
  fs.writeFileSync(at('models/b.k'), 'b = 1\n');
  fs.writeFileSync(at('models/a.k'), 'a = 1\n');
  fs.writeFileSync(at('models/a_test.k'), 't = 1\n');
  fs.mkdirSync(at('empty'));
  fs.writeFileSync(at('util.k'), 'u = 1\n');
  fs.writeFileSync(at('notes'), 'not kcl\n');
  expect(packageAt(at('models'), dir)).toEqual({
    pkgpath: 'models',
    target: at('models'),
    files: [at('models/a.k'), at('models/b.k')],
  });
  expect(packageAt(at('util'), dir)).toEqual({ pkgpath: 'util', target: at('util'), files: [at('util.k')] });
  expect(packageAt(at('empty'), dir)).toBeUndefined();
  expect(packageAt(at('missing'), dir)).toBeUndefined();
  expect(packageAt(at('notes'), dir)).toBeUndefined();
  expect(packageAt(at('util.k/inner'), dir)).toBeUndefined();
});
