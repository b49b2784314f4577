/**
 * One embedded sandbox per workspace: every kdeck process (a command or the console) that wants
 * `--sandbox` attaches to the daemon serving `.kdeck/sandbox` and holds it until it is done; the
 * first one to find none starts it, detached, so it outlives that process. Two processes starting
 * at once end with one daemon: only the one that creates the lock file exclusively spawns it, the
 * other waits (bounded) for its registry. A registry whose process is gone or whose control
 * endpoint does not answer is stale and replaced.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDuration } from '../model/duration.js';
import { health, hold, requestStop } from '../sandbox/control.js';
import {
  BUNDLED_DAEMON_ENTRY,
  COMPILED_DAEMON_ENTRY,
  processAlive,
  readRegistry,
  runsDaemon,
  sandboxPaths,
  type Registry,
  type SandboxPaths,
} from '../sandbox/registry.js';
import { UserError } from '../diagnostics/user-error.js';

/** The workspace's sandbox folder, relative to its root. */
export const WORKSPACE_SANDBOX_DIR = path.join('.kdeck', 'sandbox');

/** How long the daemon waits without a holder before it stops: `KDECK_SANDBOX_IDLE_TIMEOUT` (10m, 30s, …). */
export const IDLE_TIMEOUT_ENV = 'KDECK_SANDBOX_IDLE_TIMEOUT';

export interface WorkspaceSandbox {
  kubeconfigPath: string;
  /** The daemon's pid (for messages; the daemon is not this process's to kill). */
  pid: number;
  /** Lets the daemon go: it stops once no process has held it for its idle timeout. */
  release(): Promise<void>;
}

export interface AttachOptions {
  /** Given to a daemon this call starts; default `KDECK_SANDBOX_IDLE_TIMEOUT`, else the daemon's 10 minutes. */
  idleTimeoutMs?: number;
  /** How long to wait for a daemon to start (ours or another process's); default 60 s. */
  startTimeoutMs?: number;
  /** The daemon's entry point; default the built one beside this module. */
  daemonScript?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function sandboxDir(root: string): SandboxPaths {
  return sandboxPaths(path.join(path.resolve(root), WORKSPACE_SANDBOX_DIR));
}

function defaultDaemonScript(): string {
  // in the bundle (dist/bin) the daemon's entry point is beside this module's script; in tsc's output,
  // dist/src/app/workspace-sandbox.js → dist/src/sandbox/daemon-main.js; from the sources (vitest), the bundle
  const here = path.dirname(fileURLToPath(import.meta.url));
  const built = [path.join(here, BUNDLED_DAEMON_ENTRY), path.join(here, '..', 'sandbox', COMPILED_DAEMON_ENTRY)];
  return (
    built.find((script) => fs.existsSync(script)) ?? path.join(here, '..', '..', 'dist', 'bin', BUNDLED_DAEMON_ENTRY)
  );
}

function idleFromEnv(): number | undefined {
  const text = process.env[IDLE_TIMEOUT_ENV];
  if (text === undefined || text === '') return undefined;
  const ms = parseDuration(text);
  if (ms === undefined)
    throw new UserError(`${IDLE_TIMEOUT_ENV}=${text} is not a duration; write e.g. 10m, 90s or 500ms`);
  return ms;
}

type Found = { registry: Registry; state: 'live' | 'stopping' | 'stale' } | undefined;

/** How long a daemon that runs but does not answer gets before it counts as hung. */
const PATIENCE_MS = 10_000;

/**
 * The registry and what its daemon says: live (answers as itself), stopping (saving its state:
 * wait for it), or stale (its pid gone, running something else, or no answer for PATIENCE_MS:
 * a daemon busy for a moment is not replaced).
 */
async function lookUp(paths: SandboxPaths, judgedStale?: Found): Promise<Found> {
  const registry = readRegistry(paths.registry);
  if (!registry) return undefined;
  // one that was given its grace already gets one more try, not a second grace
  const deadline = Date.now() + (judgedStale?.registry.instance === registry.instance ? 0 : PATIENCE_MS);
  for (;;) {
    if (!processAlive(registry.pid) || runsDaemon(registry.pid) === false) return { registry, state: 'stale' };
    const answer = await health(registry.control);
    if (answer) {
      const itself = answer.instance === registry.instance && answer.pid === registry.pid;
      return { registry, state: !itself ? 'stale' : answer.stopping ? 'stopping' : 'live' };
    }
    if (readRegistry(paths.registry)?.instance !== registry.instance) return lookUp(paths);
    if (Date.now() > deadline) return { registry, state: 'stale' };
    await sleep(200);
  }
}

/**
 * Removes a stale registry, ending its process first if it is a daemon that no longer answers
 * (hung): two daemons must not write one state file. A pid that now runs something else is left alone.
 */
async function retire(paths: SandboxPaths): Promise<void> {
  const registry = readRegistry(paths.registry);
  if (!registry) return;
  if (processAlive(registry.pid) && runsDaemon(registry.pid, paths.dir) === true) {
    process.kill(registry.pid, 'SIGTERM');
    // a stopped process (SIGSTOP) takes its SIGTERM once continued
    process.kill(registry.pid, 'SIGCONT');
    // time to save its state, as a stop does
    const deadline = Date.now() + 15_000;
    while (processAlive(registry.pid) && Date.now() < deadline) await sleep(50);
    if (processAlive(registry.pid)) process.kill(registry.pid, 'SIGKILL');
  }
  if (readRegistry(paths.registry)?.instance === registry.instance) fs.rmSync(paths.registry, { force: true });
}

interface Lock {
  id: string;
  /** The process starting a daemon. */
  pid: number;
  at: number;
  /** The daemon it spawned, once it has: the lock stands while either runs. */
  daemon?: number;
}

function readLock(file: string): Lock | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Lock;
  } catch {
    return undefined;
  }
}

/** Creates the lock file exclusively; undefined if another process holds it. */
function tryLock(paths: SandboxPaths): Lock | undefined {
  const lock: Lock = { id: randomBytes(8).toString('hex'), pid: process.pid, at: Date.now() };
  fs.mkdirSync(paths.dir, { recursive: true });
  let fd: number;
  try {
    fd = fs.openSync(paths.lock, 'wx', 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw e;
  }
  fs.writeSync(fd, JSON.stringify(lock));
  fs.closeSync(fd);
  return lock;
}

function unlock(paths: SandboxPaths, lock: Lock): void {
  if (readLock(paths.lock)?.id === lock.id) fs.rmSync(paths.lock, { force: true });
}

/**
 * Clears a lock whose starter died (or that is older than any start may take). It is moved
 * aside first, and put back if what was moved is not the lock judged stale, so that two
 * processes clearing one stale lock at once cannot remove a fresh one.
 */
function clearStaleLock(paths: SandboxPaths, startTimeoutMs: number): void {
  const lock = readLock(paths.lock);
  // a starter killed after spawning its daemon leaves a lock that still stands while the daemon
  // starts: clearing it then would start a second daemon beside the first
  const fresh = (l: Lock | undefined) =>
    l !== undefined &&
    (processAlive(l.pid) || (l.daemon !== undefined && processAlive(l.daemon))) &&
    Date.now() - l.at < startTimeoutMs + 10_000;
  if (fresh(lock)) return;
  // a lock file being written right now has no content yet: give its writer a moment
  if (!lock) {
    try {
      if (Date.now() - fs.statSync(paths.lock).mtimeMs < 2_000) return;
    } catch {
      return;
    }
  }
  const aside = `${paths.lock}.${process.pid}.stale`;
  try {
    fs.renameSync(paths.lock, aside);
  } catch {
    return;
  }
  if (readLock(aside)?.id !== lock?.id) {
    try {
      fs.linkSync(aside, paths.lock);
    } catch {
      // someone took the lock meanwhile; theirs stands
    }
  }
  fs.rmSync(aside, { force: true });
}

function logTail(file: string): string {
  try {
    const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    return lines[lines.length - 1]!.replace(/^\S+ \[\d+\] /, '');
  } catch {
    return 'it wrote nothing';
  }
}

/**
 * The daemon's environment: the caller's, but for NODE_EXTRA_CA_CERTS. Node 20 reads those
 * certificates, and its own bundled roots with them, as the process starts, before any of its code
 * runs: with OpenSSL 3 a distribution's CA bundle takes about 90 ms (nodejs/node#40524). The daemon
 * serves TLS with a certificate of its own and never checks another server's, so it would pay
 * that on every start for certificates it never reads.
 */
function daemonEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** Spawns the daemon detached and waits (bounded) until it has written its registry. */
async function startDaemon(paths: SandboxPaths, lock: Lock, options: AttachOptions, deadline: number): Promise<void> {
  const script = options.daemonScript ?? defaultDaemonScript();
  const idle = options.idleTimeoutMs ?? idleFromEnv();
  const log = fs.openSync(paths.log, 'a', 0o600);
  const args = [script, '--dir', paths.dir, '--started-by', lock.id];
  if (idle !== undefined) args.push('--idle-timeout-ms', String(idle));
  // detached in a session of its own, in its folder (not the caller's, which may go away)
  const child = spawn(process.execPath, args, {
    cwd: paths.dir,
    env: daemonEnv(),
    detached: true,
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  if (child.pid !== undefined) fs.writeFileSync(paths.lock, JSON.stringify({ ...lock, daemon: child.pid }));
  let exited = false;
  child.on('exit', () => (exited = true));
  child.on('error', () => (exited = true));
  child.unref();
  for (;;) {
    if (readRegistry(paths.registry)?.startedBy === lock.id) return;
    if (exited) throw new UserError(`the workspace sandbox did not start: ${logTail(paths.log)} (see ${paths.log})`, 1);
    if (Date.now() > deadline) {
      if (child.pid !== undefined && processAlive(child.pid)) process.kill(child.pid, 'SIGTERM');
      throw new UserError(`the workspace sandbox did not start within the time allowed; see ${paths.log}`, 1);
    }
    await sleep(50);
  }
}

export async function attachWorkspaceSandbox(root: string, options: AttachOptions = {}): Promise<WorkspaceSandbox> {
  const paths = sandboxDir(root);
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    const found = await lookUp(paths);
    if (found?.state === 'live') {
      const held = await hold(found.registry.control, found.registry.token);
      // no hold: the daemon is on its way out; a later round sees it stopping or gone
      if (held)
        return { kubeconfigPath: found.registry.kubeconfig, pid: found.registry.pid, release: () => held.release() };
    } else if (found?.state !== 'stopping') {
      const lock = tryLock(paths);
      if (lock) {
        try {
          // another process may have finished starting one between the look and the lock
          const again = await lookUp(paths, found);
          if (again?.state === 'stale') await retire(paths);
          if (again === undefined || again.state === 'stale') await startDaemon(paths, lock, options, deadline);
        } finally {
          unlock(paths, lock);
        }
        continue;
      }
      clearStaleLock(paths, startTimeoutMs);
    }
    if (Date.now() > deadline)
      throw new UserError(
        `no workspace sandbox to attach to in ${paths.dir} within ${Math.round(startTimeoutMs / 1000)} s; see ${paths.log}`,
        1,
      );
    await sleep(50);
  }
}

export interface StopOutcome {
  /** The pid of the daemon stopped; undefined when none was running. */
  pid?: number;
  /** How many kdeck processes still held it. */
  holders: number;
  /** A registry was left by a daemon that no longer answered; it was removed. */
  stale: boolean;
}

/** Stops the workspace's daemon (its state saved) and waits, bounded, for its process to end. */
export async function stopWorkspaceSandbox(root: string, timeoutMs = 20_000): Promise<StopOutcome> {
  const paths = sandboxDir(root);
  const found = await lookUp(paths);
  if (found === undefined) return { holders: 0, stale: false };
  if (found.state === 'stale') {
    await retire(paths);
    return { holders: 0, stale: true };
  }
  const { registry } = found;
  const answer = found.state === 'live' ? await requestStop(registry.control, registry.token) : undefined;
  const deadline = Date.now() + timeoutMs;
  while (processAlive(registry.pid) && Date.now() < deadline) await sleep(50);
  if (processAlive(registry.pid)) {
    throw new UserError(
      `the workspace sandbox (pid ${registry.pid}) did not stop within ${Math.round(timeoutMs / 1000)} s; see ${paths.log}`,
      1,
    );
  }
  return { pid: registry.pid, holders: answer?.holders ?? 0, stale: false };
}

/** The running daemon's registry (for `kdeck sandbox status` and tests), or undefined. */
export async function workspaceSandbox(root: string): Promise<Registry | undefined> {
  const found = await lookUp(sandboxDir(root));
  return found?.state === 'live' ? found.registry : undefined;
}
