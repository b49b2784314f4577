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
import { threadId } from 'node:worker_threads';
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

/** Temporary names this thread has handed out: unique with its process and thread, without drawing random bytes per entry. */
let temporaries = 0;

export class AstCache {
  private readonly build = (buildId ??= readBuildId());
  /** The entry `get` missed last: a miss is parsed and `put` at once, with the same text. */
  private missed: { file: string; source: string; entry: string } | undefined;
  /** Whether the folder is known to exist: made once, and again if it went away. */
  private made = false;

  /** `writable` false: entries are read, none written (`--read-only`). */
  constructor(
    readonly dir: string,
    private readonly writable: boolean,
  ) {}

  private entryOf(file: string, source: string): string {
    const m = this.missed;
    if (m && m.file === file && m.source === source) return m.entry;
    const hash = crypto.createHash('sha256');
    for (const part of [this.build, file, source]) hash.update(part).update('\0');
    return path.join(this.dir, hash.digest('hex'));
  }

  /** The tree parsed from `source` for `file` before, if kept. */
  get(file: string, source: string): A.Module | undefined {
    if (source.length > MAX_CACHED_SOURCE) return undefined;
    const entry = this.entryOf(file, source);
    try {
      return v8.deserialize(fs.readFileSync(entry)) as A.Module;
    } catch {
      // no entry, or one that is not a tree
      this.missed = { file, source, entry };
      return undefined;
    }
  }

  /** Keeps the tree just parsed (before anything reads it: nothing may have changed it). */
  put(file: string, source: string, module: A.Module): void {
    if (!this.writable || source.length > MAX_CACHED_SOURCE) return;
    const entry = this.entryOf(file, source);
    this.missed = undefined;
    const temporary = `${entry}.${process.pid}.${threadId}.${temporaries++}`;
    try {
      if (!this.made) {
        fs.mkdirSync(this.dir, { recursive: true });
        this.made = true;
      }
      if (!pruned.has(this.dir)) this.prune();
      const tree = v8.serialize(module);
      try {
        fs.writeFileSync(temporary, tree);
      } catch (e) {
        // the folder went away while the process ran (a user clearing the cache): made again
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        fs.mkdirSync(this.dir, { recursive: true });
        fs.writeFileSync(temporary, tree);
      }
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
