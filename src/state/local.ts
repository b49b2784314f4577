/**
 * The local state backend: one JSON file per (project, stack, cluster) under
 * `<workspace>/.kdeck/state/`, written atomically (temp file, fsync, rename, fsync of the folder)
 * so that a crash leaves either the old state or the new one, and a lock file beside it. A lock
 * is taken over when its holder's process on this machine is gone, or when it has run out
 * without a renewal (a holder on another machine sharing the folder).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UserError } from '../diagnostics/user-error.js';
import {
  DEFAULT_LOCK_SECONDS,
  isExpired,
  lastOperations,
  LockedError,
  LockLostError,
  StateConflictError,
  type Lock,
  type LockHolder,
  type StateBackend,
} from './backend.js';
import { describeKey, type OperationRecord, type State, type StateKey } from './model.js';
import { isAlive, writeDurably, writeDurablyAsync } from './durable-file.js';
import { settledHistory, thisMachine } from './liveness.js';

export const STATE_DIR = path.join('.kdeck', 'state');

/** A name safe as one path segment on every platform, and reversible. */
const segment = (s: string) => encodeURIComponent(s).replaceAll('.', '%2E');
const unsegment = (s: string) => decodeURIComponent(s);

/** A file's identity and version: every write replaces the file (a new inode), so another
 * writer's changes it, as would an edit in place (size or modification time). */
const stampOf = (st: fs.Stats | undefined) => (st ? `${st.ino}:${st.size}:${st.mtimeMs}` : '');

const stateText = (state: State) => `${JSON.stringify(state, null, 2)}\n`;

const sameHolder = (a: LockHolder | undefined, b: LockHolder) => a?.id === b.id && a.since === b.since;

export class LocalStateBackend implements StateBackend {
  readonly description: string;
  private readonly dir: string;
  /** The serial of what this backend last wrote to each file, with the file's stamp then: while
   * the stamp holds, the file is that write, and a write checks its serial without reading the
   * whole state back (an apply writes a growing state many times). */
  private readonly written = new Map<string, { serial: number; stamp: string }>();

  constructor(
    workspaceRoot: string,
    private readonly lockSeconds = DEFAULT_LOCK_SECONDS,
  ) {
    this.dir = path.join(workspaceRoot, STATE_DIR);
    this.description = `local files under ${this.dir}`;
  }

  fileOf(key: StateKey): string {
    return path.join(this.dir, segment(key.project), segment(key.stack), `${segment(key.cluster)}.json`);
  }

  private lockFileOf(key: StateKey): string {
    return this.fileOf(key).replace(/\.json$/, '.lock');
  }

  async read(key: StateKey): Promise<State | undefined> {
    return this.readSync(key);
  }

  private readSync(key: StateKey): State | undefined {
    const file = this.fileOf(key);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new UserError(
        `cannot read the state of ${describeKey(key)} from ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
        1,
      );
    }
    try {
      const state = JSON.parse(text) as State;
      if (typeof state.serial !== 'number' || !Array.isArray(state.resources)) throw new Error('not a state');
      return state;
    } catch {
      throw new UserError(
        `the state file ${file} is damaged (not a kdeck state); restore it from version control or a backup before running apply or destroy on ${describeKey(key)}`,
        1,
      );
    }
  }

  async write(state: State, expectedSerial: number): Promise<State> {
    const stored = this.storedSerial(state);
    if (stored !== expectedSerial) throw new StateConflictError(state, expectedSerial, stored);
    const next: State = { ...state, serial: expectedSerial + 1 };
    const file = this.fileOf(state);
    // the writes and fsyncs run on libuv's threads: an apply writes its state while its calls and
    // watches go on, and a synchronous fsync stopped all of them for its duration (the lock keeps
    // other writers out, and the caller writes one state at a time)
    await writeDurablyAsync(file, stateText(next));
    this.written.set(file, { serial: next.serial, stamp: stampOf(fs.statSync(file)) });
    return next;
  }

  private storedSerial(key: StateKey): number {
    const file = this.fileOf(key);
    const mine = this.written.get(file);
    if (mine && mine.stamp === stampOf(fs.statSync(file, { throwIfNoEntry: false }))) return mine.serial;
    return this.readSync(key)?.serial ?? 0;
  }

  async importState(state: State): Promise<void> {
    const stored = this.readSync(state);
    if (stored) throw new StateConflictError(state, 0, stored.serial);
    writeDurably(this.fileOf(state), stateText(state));
  }

  async history(key: StateKey, count: number): Promise<OperationRecord[]> {
    // an operation whose process died still says `running`: its lock says otherwise
    return settledHistory(lastOperations(this.readSync(key), count), await this.lockHolder(key), thisMachine());
  }

  private expiresFrom(now: Date): string {
    return new Date(now.getTime() + this.lockSeconds * 1000).toISOString();
  }

  async lockHolder(key: StateKey): Promise<LockHolder | undefined> {
    try {
      return JSON.parse(fs.readFileSync(this.lockFileOf(key), 'utf8')) as LockHolder;
    } catch {
      return undefined;
    }
  }

  async lock(key: StateKey, asked: LockHolder): Promise<Lock> {
    const file = this.lockFileOf(key);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    let holder: LockHolder = { ...asked, expires: this.expiresFrom(new Date()) };
    let tookOverFrom: LockHolder | undefined;
    // the holder is written in full before the lock appears: link() publishes it atomically
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, `${JSON.stringify(holder, null, 2)}\n`);
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          fs.linkSync(tmp, file);
          break;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
          const current = await this.lockHolder(key);
          // a holder on this machine whose process is gone crashed, and one that stopped renewing
          // its lock let it run out: either lock is stale
          const crashed =
            current && current.host === os.hostname() && current.pid !== holder.pid && !isAlive(current.pid);
          const stale = current && (crashed || isExpired(current, new Date()));
          if (attempt === 0 && (stale || !current)) {
            tookOverFrom = current;
            fs.rmSync(file, { force: true });
            continue;
          }
          throw new LockedError(key, current ?? holder);
        }
      }
    } finally {
      fs.rmSync(tmp, { force: true });
    }
    let released = false;
    return {
      get holder() {
        return holder;
      },
      durationSeconds: this.lockSeconds,
      ...(tookOverFrom ? { tookOverFrom } : {}),
      renew: async () => {
        const current = await this.lockHolder(key);
        if (!sameHolder(current, holder)) throw new LockLostError(key, current);
        holder = { ...holder, expires: this.expiresFrom(new Date()) };
        writeDurably(file, `${JSON.stringify(holder, null, 2)}\n`);
      },
      release: async () => {
        if (released) return;
        released = true;
        if (sameHolder(await this.lockHolder(key), holder)) fs.rmSync(file, { force: true });
      },
    };
  }

  async forceUnlock(key: StateKey, expected?: LockHolder): Promise<LockHolder | undefined> {
    const holder = await this.lockHolder(key);
    if (!holder || (expected && !sameHolder(holder, expected))) return undefined;
    fs.rmSync(this.lockFileOf(key), { force: true });
    return holder;
  }

  async list(): Promise<StateKey[]> {
    const keys: StateKey[] = [];
    const dirs = (d: string) =>
      fs.existsSync(d)
        ? fs
            .readdirSync(d, { withFileTypes: true })
            .filter((e) => e.isDirectory())
            .map((e) => e.name)
        : [];
    for (const project of dirs(this.dir).sort()) {
      for (const stack of dirs(path.join(this.dir, project)).sort()) {
        for (const f of fs.readdirSync(path.join(this.dir, project, stack)).sort()) {
          if (f.endsWith('.json'))
            keys.push({
              project: unsegment(project),
              stack: unsegment(stack),
              cluster: unsegment(f.slice(0, -'.json'.length)),
            });
        }
      }
    }
    return keys;
  }
}
