import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AstCache, writeKeptParses } from './ast-cache.js';
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

/** The cache module as another process finds it: nothing read yet, the pack on disk alone. */
async function freshModule(): Promise<typeof import('./ast-cache.js')> {
  vi.resetModules();
  return import('./ast-cache.js');
}

/** The files a pack on disk keeps trees for, from its header. */
function packedFiles(pack: string): string[] {
  const data = fs.readFileSync(pack);
  const start = data.indexOf('\n') + 1;
  const header = JSON.parse(data.toString('utf8', start + 4, start + 4 + data.readUInt32LE(start))) as {
    entries: [string, string, number][];
  };
  return header.entries.map(([file]) => file);
}

describe('AstCache', () => {
  it('gives back the tree it kept, in another process too, equal to a fresh parse, for the same file and text only', async () => {
    const file = path.join(dir, 'main.k');
    new AstCache(path.join(dir, 'ast'), true).put(file, SOURCE, parseModule(SOURCE, file));
    writeKeptParses();
    expect(fs.readdirSync(path.join(dir, 'ast'))).toEqual(['pack']);
    const { AstCache: Later } = await freshModule();
    const cache = new Later(path.join(dir, 'ast'), true);
    expect(cache.get(file, SOURCE)).toEqual(parseModule(SOURCE, file));
    expect(cache.get(file, `${SOURCE}x = 1\n`)).toBeUndefined();
    expect(cache.get(path.join(dir, 'other.k'), SOURCE)).toBeUndefined();
  });

  it('reads a pack that is not one, or one of another build, as empty, and replaces it', async () => {
    const file = path.join(dir, 'main.k');
    new AstCache(path.join(dir, 'ast'), true).put(file, SOURCE, parseModule(SOURCE, file));
    writeKeptParses();
    const pack = path.join(dir, 'ast', 'pack');
    const written = fs.readFileSync(pack);
    // the same pack, written by another build: its build id overwritten in place
    const header = written.toString('latin1');
    const build = /"build":"([^"]*)"/.exec(header)![1];
    fs.writeFileSync(pack, Buffer.from(header.replace(build, 'x'.repeat(build.length)), 'latin1'));
    const other = await freshModule();
    expect(new other.AstCache(path.join(dir, 'ast'), true).get(file, SOURCE)).toBeUndefined();

    fs.writeFileSync(pack, 'not a pack');
    const broken = await freshModule();
    const cache = new broken.AstCache(path.join(dir, 'ast'), true);
    expect(cache.get(file, SOURCE)).toBeUndefined();
    cache.put(file, SOURCE, parseModule(SOURCE, file));
    broken.writeKeptParses();
    const { AstCache: Later } = await freshModule();
    expect(new Later(path.join(dir, 'ast'), true).get(file, SOURCE)).toEqual(parseModule(SOURCE, file));
  });

  it('writes its pack again once its folder is removed, leaving no temporary file behind', () => {
    const cache = new AstCache(path.join(dir, 'ast'), true);
    const file = path.join(dir, 'main.k');
    cache.put(file, SOURCE, parseModule(SOURCE, file));
    writeKeptParses();
    fs.rmSync(path.join(dir, 'ast'), { recursive: true });
    const other = path.join(dir, 'other.k');
    cache.put(other, SOURCE, parseModule(SOURCE, other));
    writeKeptParses();
    expect(fs.readdirSync(path.join(dir, 'ast'))).toEqual(['pack']);
  });

  it('keeps one entry per file: an edit replaces the tree of the text before', async () => {
    const file = path.join(dir, 'main.k');
    const edited = `${SOURCE}x = 1\n`;
    const cache = new AstCache(path.join(dir, 'ast'), true);
    cache.put(file, SOURCE, parseModule(SOURCE, file));
    cache.put(file, edited, parseModule(edited, file));
    writeKeptParses();
    expect(packedFiles(path.join(dir, 'ast', 'pack'))).toEqual([file]);
    const { AstCache: Later } = await freshModule();
    const later = new Later(path.join(dir, 'ast'), true);
    expect(later.get(file, SOURCE)).toBeUndefined();
    expect(later.get(file, edited)).toEqual(parseModule(edited, file));
  });

  it('removes the entry files an earlier build kept one per parse, and temporary packs abandoned', () => {
    const ast = path.join(dir, 'ast');
    fs.mkdirSync(ast, { recursive: true });
    fs.writeFileSync(path.join(ast, 'a'.repeat(64)), 'a tree kept by an earlier build');
    const abandoned = path.join(ast, 'pack.123.1.0');
    fs.writeFileSync(abandoned, 'half a pack');
    const longAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(abandoned, longAgo, longAgo);
    // another writer's, still being written
    fs.writeFileSync(path.join(ast, 'pack.456.1.0'), 'half a pack');
    const file = path.join(dir, 'main.k');
    new AstCache(ast, true).put(file, SOURCE, parseModule(SOURCE, file));
    writeKeptParses();
    expect(fs.readdirSync(ast).sort()).toEqual(['pack', 'pack.456.1.0']);
  });

  it('writes nothing when it is read-only', () => {
    const cache = new AstCache(path.join(dir, 'ast'), false);
    const file = path.join(dir, 'main.k');
    cache.put(file, SOURCE, parseModule(SOURCE, file));
    writeKeptParses();
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

  it('serves a run the same result from kept parses, and the new one once a file changes', async () => {
    const main = path.join(dir, 'main.k');
    fs.writeFileSync(main, SOURCE);
    const first = runKcl({ files: [main], astCache: new AstCache(path.join(dir, 'ast'), true) }).yaml;
    writeKeptParses();
    const later = await freshModule();
    const run = () => runKcl({ files: [main], astCache: new later.AstCache(path.join(dir, 'ast'), true) }).yaml;
    expect(run()).toBe(first);
    fs.writeFileSync(main, SOURCE.replace('"web"', '"api"'));
    expect(run()).toContain('name: api');
  });
});
