import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { parseFile } from './loader.js';

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
