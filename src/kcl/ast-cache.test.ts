import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AstCache } from './ast-cache.js';
import { parseModule } from './parser.js';
import { runKcl } from './run.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-ast-cache-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const SOURCE = 'schema App:\n    name: str\n    port: int = 80\n\napp = App {name = "web"}\nbig = 9007199254740993\n';

describe('AstCache', () => {
  it('gives back the tree it kept, equal to a fresh parse, for the same file and text only', () => {
    const cache = new AstCache(path.join(dir, 'ast'), true);
    const file = path.join(dir, 'main.k');
    cache.put(file, SOURCE, parseModule(SOURCE, file));
    expect(cache.get(file, SOURCE)).toEqual(parseModule(SOURCE, file));
    expect(cache.get(file, `${SOURCE}x = 1\n`)).toBeUndefined();
    expect(cache.get(path.join(dir, 'other.k'), SOURCE)).toBeUndefined();
  });

  it('reads an entry that is not a tree as a miss', () => {
    const cache = new AstCache(path.join(dir, 'ast'), true);
    const file = path.join(dir, 'main.k');
    cache.put(file, SOURCE, parseModule(SOURCE, file));
    const [entry] = fs.readdirSync(path.join(dir, 'ast'));
    fs.writeFileSync(path.join(dir, 'ast', entry!), 'not a serialized tree');
    expect(cache.get(file, SOURCE)).toBeUndefined();
  });

  it('keeps a miss under the entry it looked for, and keeps writing once its folder is removed', () => {
    const cache = new AstCache(path.join(dir, 'ast'), true);
    const file = path.join(dir, 'main.k');
    expect(cache.get(file, SOURCE)).toBeUndefined();
    cache.put(file, SOURCE, parseModule(SOURCE, file));
    expect(cache.get(file, SOURCE)).toEqual(parseModule(SOURCE, file));
    fs.rmSync(path.join(dir, 'ast'), { recursive: true });
    const other = path.join(dir, 'other.k');
    cache.put(other, SOURCE, parseModule(SOURCE, other));
    expect(cache.get(other, SOURCE)).toEqual(parseModule(SOURCE, other));
    // nothing but entries: no temporary file is left behind
    expect(fs.readdirSync(path.join(dir, 'ast'))).toHaveLength(1);
  });

  it('writes nothing when it is read-only', () => {
    const cache = new AstCache(path.join(dir, 'ast'), false);
    const file = path.join(dir, 'main.k');
    cache.put(file, SOURCE, parseModule(SOURCE, file));
    expect(fs.existsSync(path.join(dir, 'ast'))).toBe(false);
    expect(cache.get(file, SOURCE)).toBeUndefined();
  });

  it('leaves a file too large for it to the parser', () => {
    const cache = new AstCache(path.join(dir, 'ast'), true);
    const file = path.join(dir, 'main.k');
    const large = `s = "${'x'.repeat(1 << 20)}"\n`;
    cache.put(file, large, parseModule(large, file));
    expect(cache.get(file, large)).toBeUndefined();
  });

  it('serves a run the same result from kept parses, and the new one once a file changes', () => {
    const main = path.join(dir, 'main.k');
    fs.writeFileSync(main, SOURCE);
    const run = () => runKcl({ files: [main], astCache: new AstCache(path.join(dir, 'ast'), true) }).yaml;
    const first = run();
    expect(fs.readdirSync(path.join(dir, 'ast')).length).toBe(1);
    expect(run()).toBe(first);
    fs.writeFileSync(main, SOURCE.replace('"web"', '"api"'));
    expect(run()).toContain('name: api');
  });
});
