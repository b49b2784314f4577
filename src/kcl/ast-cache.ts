/**
 * Parsed files kept on disk from one run to the next, as kcl keeps its own (`.kclvm/cache`): a
 * cold compile of a Konfig stack parses a hundred files or more, nearly all unchanged since the
 * last run, and reading their trees back takes a quarter of the time parsing them does. A file's
 * entry holds the tree of the text it had when last parsed, with a hash of that text, in a pack
 * made by one build of the parser: it never stands for another text, file or parser.
 *
 * The entries of a workspace live in one file, the pack: creating a file per entry cost a cold
 * compile more (about 70 ms of its 650) than serializing the trees did. A process reads the pack
 * once, and `writeKeptParses` writes it whole (a temporary file renamed over) after a compile
 * that parsed something new. Two processes writing at once lose each other's new entries, never
 * an entry's integrity; a pack that cannot be read is empty: the cache can only save time.
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
/** The most a pack holds, the entries used last kept first: a workspace's files come and go
 * (branches, renames), and a file no longer compiled keeps its entry until pushed out. */
const MAX_PACK_BYTES = 16 << 20;
const PACK_FILE = 'pack';
/** The pack's first bytes; a pack of another layout is read as empty, and replaced. */
const MAGIC = Buffer.from('kdeck-ast-pack 1\n');

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

/** The pack's header: the build that wrote it, and its entries (the file, a hash of the text
 * parsed, the tree's size) in the order their trees follow the header. */
interface PackHeader {
  build: string;
  entries: [file: string, hash: string, bytes: number][];
}

/** A file's kept tree, and the hash of the text it was parsed from. */
interface Entry {
  hash: string;
  tree: Uint8Array;
}

/** A pack as this thread knows it: an entry per file (the last text parsed; an edit replaces
 * the entry of the text before), in the order they were last used (the last used last), each
 * tree a slice of the file read or serialized here. */
interface Pack {
  readonly file: string;
  /** The build it was read for, and is written by. */
  readonly build: string;
  readonly entries: Map<string, Entry>;
  /** Whether it holds entries the file does not. */
  changed: boolean;
}

/** The packs this thread has read, by folder: a cache is made for every compile (the console's,
 * at every save), and reading the pack again each time would be a save's cost. */
const packs = new Map<string, Pack>();

function readPack(file: string, build: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch {
    return entries;
  }
  try {
    if (data.length < MAGIC.length + 4 || !data.subarray(0, MAGIC.length).equals(MAGIC)) return entries;
    const headerBytes = data.readUInt32LE(MAGIC.length);
    let at = MAGIC.length + 4;
    const header = JSON.parse(data.toString('utf8', at, at + headerBytes)) as PackHeader;
    if (header.build !== build) return entries;
    at += headerBytes;
    for (const [sourceFile, hash, bytes] of header.entries) {
      if (at + bytes > data.length) break;
      entries.set(sourceFile, { hash, tree: data.subarray(at, at + bytes) });
      at += bytes;
    }
  } catch {
    // a header that is not one: an empty pack, replaced at the next write
    entries.clear();
  }
  return entries;
}

/** The pack's bytes: its entries used last, as many as fit in MAX_PACK_BYTES. */
function packBytes(pack: Pack): Buffer {
  const kept: [string, Entry][] = [];
  let total = 0;
  for (const entry of [...pack.entries].reverse()) {
    if (total + entry[1].tree.length > MAX_PACK_BYTES) continue;
    kept.push(entry);
    total += entry[1].tree.length;
  }
  kept.reverse();
  const header: PackHeader = { build: pack.build, entries: kept.map(([file, e]) => [file, e.hash, e.tree.length]) };
  const headerText = Buffer.from(JSON.stringify(header));
  const size = Buffer.alloc(4);
  size.writeUInt32LE(headerText.length);
  return Buffer.concat([MAGIC, size, headerText, ...kept.map(([, e]) => e.tree)]);
}

/** Temporary names this thread has handed out: unique with its process and thread, without drawing random bytes per write. */
let temporaries = 0;

/** The folders this thread has tidied (see tidy). */
const tidied = new Set<string>();

/** A writer's temporary file this old is one it never renamed: its thread was stopped mid-write. */
const ABANDONED_MS = 60_000;

/** Removes what nothing will read: the entry files of builds that kept one per parse (named by
 * a hash), and temporary packs abandoned by a writer. */
function tidy(dir: string): void {
  tidied.add(dir);
  const now = Date.now();
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if (/^[0-9a-f]{64}$/.test(name)) fs.rmSync(file, { force: true });
    else if (name.startsWith(`${PACK_FILE}.`)) {
      try {
        if (now - fs.statSync(file).mtimeMs > ABANDONED_MS) fs.rmSync(file, { force: true });
      } catch {
        // renamed or removed by its writer meanwhile
      }
    }
  }
}

/** Writes the packs this thread added entries to: after a compile, once its parses are in. */
export function writeKeptParses(): void {
  for (const [dir, pack] of packs) {
    if (!pack.changed) continue;
    pack.changed = false;
    const temporary = `${pack.file}.${process.pid}.${threadId}.${temporaries++}`;
    try {
      const bytes = packBytes(pack);
      try {
        fs.writeFileSync(temporary, bytes);
      } catch (e) {
        // the folder is new, or went away while the process ran (a user clearing the cache)
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(temporary, bytes);
      }
      fs.renameSync(temporary, pack.file);
      if (!tidied.has(dir)) tidy(dir);
    } catch {
      // a full disk or a folder that cannot be written costs the next run time, nothing else
      fs.rmSync(temporary, { force: true });
    }
  }
}

export class AstCache {
  private readonly pack: Pack;
  /** The text hashed last: a miss is parsed and `put` at once, with the same text. */
  private hashed: { file: string; source: string; hash: string } | undefined;

  /** `writable` false: entries are read, none kept (`--read-only`). */
  constructor(
    readonly dir: string,
    private readonly writable: boolean,
  ) {
    let pack = packs.get(dir);
    if (!pack) {
      const file = path.join(dir, PACK_FILE);
      const build = (buildId ??= readBuildId());
      pack = { file, build, entries: readPack(file, build), changed: false };
      packs.set(dir, pack);
    }
    this.pack = pack;
  }

  /** The tree parsed from `source` for `file` before, if kept. */
  get(file: string, source: string): A.Module | undefined {
    if (source.length > MAX_CACHED_SOURCE) return undefined;
    const entry = this.pack.entries.get(file);
    if (entry?.hash === this.hashOf(file, source)) {
      try {
        const module = v8.deserialize(entry.tree) as A.Module;
        // used last, so kept longest
        this.pack.entries.delete(file);
        this.pack.entries.set(file, entry);
        return module;
      } catch {
        // an entry that is not a tree: parsed again, and replaced
      }
    }
    return undefined;
  }

  /** Keeps the tree just parsed (before anything reads it: nothing may have changed it), in
   * place of the file's entry before, for `writeKeptParses` to write. */
  put(file: string, source: string, module: A.Module): void {
    if (!this.writable || source.length > MAX_CACHED_SOURCE) return;
    this.pack.entries.delete(file);
    this.pack.entries.set(file, { hash: this.hashOf(file, source), tree: v8.serialize(module) });
    this.pack.changed = true;
  }

  /** The hash of a text, made once for a miss's `get` and the `put` that follows it. */
  private hashOf(file: string, source: string): string {
    const last = this.hashed;
    if (last && last.file === file && last.source === source) return last.hash;
    const hash = crypto.createHash('sha256').update(source).digest('hex');
    this.hashed = { file, source, hash };
    return hash;
  }
}
