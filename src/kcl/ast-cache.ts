/**
 * Parsed files kept on disk from one run to the next, as kcl keeps its own (`.kclvm/cache`): a
 * cold compile of a Konfig stack parses a few hundred files, nearly all unchanged since the last
 * run, and reading their trees back takes a quarter of the time parsing them does. An entry is
 * found by a hash of the build that parsed it, the file's path and its text, so it never stands
 * for another text, another file or another parser. Entries are written whole (a temporary file
 * renamed over), and one that cannot be read is a miss: the cache can only save time.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import type * as A from './ast.js';

/** Files larger than this are parsed every time: their trees would take as much room again. */
const MAX_CACHED_SOURCE = 1 << 20;
/** Entries kept at most: every edit leaves the entry of the text before it behind. */
const MAX_ENTRIES = 10_000;

/**
 * The build that parses, as this module's file: every build writes it again (tsc's output and
 * the bundle alike, where it shares its chunk with the parser), and V8's version, which the
 * serialized form depends on.
 */
function readBuildId(): string {
  const self = fileURLToPath(import.meta.url);
  try {
    const stat = fs.statSync(self);
    return `${self}:${stat.size}:${stat.mtimeMs}:${process.versions.v8}`;
  } catch {
    return `${self}:${process.versions.v8}`;
  }
}

/** The build does not change while the process runs: read once, not at every compile. */
let buildId: string | undefined;

/**
 * The folders pruned by this process: a cache is made for every compile (the console's, at
 * every save), and listing a folder of thousands of entries each time would be a save's cost.
 */
const pruned = new Set<string>();

export class AstCache {
  private readonly build = (buildId ??= readBuildId());

  /** `writable` false: entries are read, none written (`--read-only`). */
  constructor(
    readonly dir: string,
    private readonly writable: boolean,
  ) {}

  private entryOf(file: string, source: string): string {
    const hash = crypto.createHash('sha256');
    for (const part of [this.build, file, source]) hash.update(part).update('\0');
    return path.join(this.dir, hash.digest('hex'));
  }

  /** The tree parsed from `source` for `file` before, if kept. */
  get(file: string, source: string): A.Module | undefined {
    if (source.length > MAX_CACHED_SOURCE) return undefined;
    try {
      return v8.deserialize(fs.readFileSync(this.entryOf(file, source))) as A.Module;
    } catch {
      // no entry, or one that is not a tree
      return undefined;
    }
  }

  /** Keeps the tree just parsed (before anything reads it: nothing may have changed it). */
  put(file: string, source: string, module: A.Module): void {
    if (!this.writable || source.length > MAX_CACHED_SOURCE) return;
    const entry = this.entryOf(file, source);
    const temporary = `${entry}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      if (!pruned.has(this.dir)) this.prune();
      fs.writeFileSync(temporary, v8.serialize(module));
      fs.renameSync(temporary, entry);
    } catch {
      // a full disk or a folder that cannot be written costs the next run time, nothing else
      fs.rmSync(temporary, { force: true });
    }
  }

  /** Once per process that writes: past MAX_ENTRIES, the older half goes (by when it was written). */
  private prune(): void {
    pruned.add(this.dir);
    const names = fs.readdirSync(this.dir);
    if (names.length <= MAX_ENTRIES) return;
    const written = (name: string) => {
      try {
        return fs.statSync(path.join(this.dir, name)).mtimeMs;
      } catch {
        return 0;
      }
    };
    const byAge = names.map((name) => ({ name, at: written(name) })).sort((a, b) => a.at - b.at);
    for (const { name } of byAge.slice(0, names.length - MAX_ENTRIES / 2))
      fs.rmSync(path.join(this.dir, name), { force: true });
  }
}
