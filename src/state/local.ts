/**
 * The local state backend: one JSON file per (project, stack, cluster) under
 * `<workspace>/.kdeck/state/`, written atomically (temp file, fsync, rename, fsync of the folder)
 * so that a crash leaves either the old state or the new one, and a lock file beside it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UserError } from '../user-error.js';
import { LockedError, StateConflictError, type Lock, type LockHolder, type StateBackend } from './backend.js';
import { describeKey, type State, type StateKey } from './model.js';
import { isAlive, writeDurably } from './durable-file.js';

export const STATE_DIR = path.join('.kdeck', 'state');

/** A name safe as one path segment on every platform, and reversible. */
const segment = (s: string) => encodeURIComponent(s).replaceAll('.', '%2E');
const unsegment = (s: string) => decodeURIComponent(s);

export class LocalStateBackend implements StateBackend {
  readonly description: string;
  private readonly dir: string;

  constructor(workspaceRoot: string) {
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
      throw new UserError(`cannot read the state of ${describeKey(key)} from ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, 1);
    }
    try {
      const state = JSON.parse(text) as State;
      if (typeof state.serial !== 'number' || !Array.isArray(state.resources)) throw new Error('not a state');
      return state;
    } catch {
      throw new UserError(`the state file ${file} is damaged (not a kdeck state); restore it from version control or a backup before running apply or destroy on ${describeKey(key)}`, 1);
    }
  }

  async write(state: State, expectedSerial: number): Promise<State> {
    const stored = this.readSync(state)?.serial ?? 0;
    if (stored !== expectedSerial) throw new StateConflictError(state, expectedSerial, stored);
    const next: State = { ...state, serial: expectedSerial + 1 };
    writeDurably(this.fileOf(state), `${JSON.stringify(next, null, 2)}\n`);
    return next;
  }

  async lockHolder(key: StateKey): Promise<LockHolder | undefined> {
    try {
      return JSON.parse(fs.readFileSync(this.lockFileOf(key), 'utf8')) as LockHolder;
    } catch {
      return undefined;
    }
  }

  async lock(key: StateKey, holder: LockHolder): Promise<Lock> {
    const file = this.lockFileOf(key);
    fs.mkdirSync(path.dirname(file), { recursive: true });
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
          // a holder on this machine whose process is gone crashed: its lock is stale
          const stale = current && current.host === os.hostname() && current.pid !== holder.pid && !isAlive(current.pid);
          if (attempt === 0 && (stale || !current)) {
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
      holder,
      release: async () => {
        if (released) return;
        released = true;
        const current = await this.lockHolder(key);
        if (current?.id === holder.id && current.since === holder.since) fs.rmSync(file, { force: true });
      },
    };
  }

  async forceUnlock(key: StateKey): Promise<LockHolder | undefined> {
    const holder = await this.lockHolder(key);
    fs.rmSync(this.lockFileOf(key), { force: true });
    return holder;
  }

  async list(): Promise<StateKey[]> {
    const keys: StateKey[] = [];
    const dirs = (d: string) => (fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name) : []);
    for (const project of dirs(this.dir).sort()) {
      for (const stack of dirs(path.join(this.dir, project)).sort()) {
        for (const f of fs.readdirSync(path.join(this.dir, project, stack)).sort()) {
          if (f.endsWith('.json')) keys.push({ project: unsegment(project), stack: unsegment(stack), cluster: unsegment(f.slice(0, -'.json'.length)) });
        }
      }
    }
    return keys;
  }
}

/** The holder record of this process, for `operation`. */
export function thisProcess(operation: string, now: string): LockHolder {
  const user = os.userInfo().username;
  const host = os.hostname();
  return { id: `${operatorName()}:${process.pid}`, user, host, pid: process.pid, operation, since: now };
}

/** Who runs this process, as a state records its operator: user@host. */
export function operatorName(): string {
  return `${os.userInfo().username}@${os.hostname()}`;
}
