/**
 * Where a workspace's shared sandbox is written down: `.kdeck/sandbox/daemon.json` says which
 * process serves the workspace's clusters, where its control endpoint listens and which
 * kubeconfig reaches them. Only the sandbox daemon (daemon.ts) writes it; a sandbox started with
 * `startSandbox` alone (tests, benches, a rehearsal) is never recorded here, so nothing can
 * attach to it by mistake. The file holds the control token: mode 0600, never printed.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The files of a workspace's sandbox, all in one folder (`<workspace>/.kdeck/sandbox`). */
export interface SandboxPaths {
  dir: string;
  registry: string;
  /** Created exclusively by the one process that starts the daemon; removed once it serves. */
  lock: string;
  log: string;
  state: string;
  kubeconfig: string;
}

export function sandboxPaths(dir: string): SandboxPaths {
  return {
    dir,
    registry: path.join(dir, 'daemon.json'),
    lock: path.join(dir, 'daemon.lock'),
    log: path.join(dir, 'daemon.log'),
    state: path.join(dir, 'state.json'),
    kubeconfig: path.join(dir, 'kubeconfig'),
  };
}

export interface Registry {
  kind: 'KdeckSandboxDaemon';
  version: 1;
  pid: number;
  /** Random per daemon run: tells this run's registry from a later one with a reused pid. */
  instance: string;
  /** http://127.0.0.1:PORT of the control endpoint (health, hold, stop). */
  control: string;
  /** Bearer token of the control endpoint's hold and stop. */
  token: string;
  clusters: { name: string; url: string }[];
  kubeconfig: string;
  state: string;
  /** The lock id of the process that asked for this daemon, so that it knows its own. */
  startedBy?: string;
  started: string;
  idleTimeoutMs: number;
}

export function readRegistry(file: string): Registry | undefined {
  let doc: Partial<Registry>;
  try {
    doc = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Registry>;
  } catch {
    // missing, or half of a file another process is writing: both mean "no registry yet"
    return undefined;
  }
  if (doc.kind !== 'KdeckSandboxDaemon' || doc.version !== 1 || typeof doc.pid !== 'number') return undefined;
  if (typeof doc.control !== 'string' || typeof doc.token !== 'string' || typeof doc.instance !== 'string')
    return undefined;
  return doc as Registry;
}

/** Atomically (temp file + rename), so a reader sees the whole file or none. */
export function writeRegistry(file: string, registry: Registry): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(registry, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** Removes the registry if it is still the one of `instance` (a newer daemon's stays). */
export function removeRegistry(file: string, instance: string): void {
  if (readRegistry(file)?.instance === instance) fs.rmSync(file, { force: true });
}

/**
 * Whether a process with this pid exists. A zombie counts as gone: a daemon whose parent never
 * reaps it (no init reaping orphans in some containers) must not look alive.
 */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    // EPERM: it exists, it is someone else's
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    // no /proc (macOS): signal 0 is all there is
    return true;
  }
}

/** The file names of the daemon's entry point (daemon-main.ts): in the bundle, and in tsc's output. */
export const BUNDLED_DAEMON_ENTRY = 'daemon-main.mjs';
export const COMPILED_DAEMON_ENTRY = 'daemon-main.js';
const DAEMON_ENTRIES = [BUNDLED_DAEMON_ENTRY, COMPILED_DAEMON_ENTRY];

const real = (p: string) => {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};

/**
 * Whether `pid` runs the daemon's entry point (for the sandbox folder `dir`, when given; Linux:
 * from its command line); undefined when it cannot be told. A pid is reused once its process is
 * gone: this keeps a stale registry from making kdeck signal an unrelated process, or another
 * workspace's daemon.
 */
export function runsDaemon(pid: number, dir?: string): boolean | undefined {
  let args: string[];
  try {
    args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return undefined;
  }
  if (!args.some((arg) => DAEMON_ENTRIES.includes(path.basename(arg)))) return false;
  if (dir === undefined) return true;
  const given = args[args.indexOf('--dir') + 1];
  return args.includes('--dir') && given !== undefined && real(given) === real(dir);
}
