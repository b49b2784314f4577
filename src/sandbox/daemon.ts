/**
 * The workspace's sandbox as a process of its own: the clusters of `.kdeck/sandbox` (state
 * saved continuously, kubeconfig kept valid while it runs), a control endpoint, and the registry
 * that tells later kdeck processes where to attach. It stops by itself once no kdeck has held it
 * for `idleTimeoutMs`, or when asked (`kdeck sandbox stop`, SIGTERM), saving its state first.
 */
import { randomBytes } from 'node:crypto';
import { startSandbox, type Sandbox, type SandboxOptions } from './launcher.js';
import { startControlServer, type ControlServer } from './control.js';
import { removeRegistry, sandboxPaths, writeRegistry, type Registry } from './registry.js';

export const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60_000;

export interface DaemonOptions {
  /** The workspace's sandbox folder (`<workspace>/.kdeck/sandbox`). */
  dir: string;
  idleTimeoutMs?: number;
  /** The lock id of the process that spawned this daemon, written into the registry. */
  startedBy?: string;
  /** Options of the clusters; the state file and the kubeconfig are the folder's own. */
  sandbox?: Omit<SandboxOptions, 'statePath' | 'kubeconfig'>;
  log?: (line: string) => void;
}

export interface Daemon {
  registry: Registry;
  /** Resolves once the daemon has stopped, for whatever reason. */
  stopped: Promise<void>;
  stop(reason: string): Promise<void>;
}

export async function serveWorkspaceSandbox(options: DaemonOptions): Promise<Daemon> {
  const paths = sandboxPaths(options.dir);
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const log = options.log ?? (() => undefined);
  const instance = randomBytes(8).toString('hex');
  const token = randomBytes(24).toString('hex');
  const sandbox: Sandbox = await startSandbox({
    clusters: 2,
    ...options.sandbox,
    statePath: paths.state,
    kubeconfig: paths.kubeconfig,
  });
  let idleTimer: NodeJS.Timeout | undefined;
  let stopping: Promise<void> | undefined;
  let markStopped: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (markStopped = resolve));
  const idleAfter = (count: number) => {
    clearTimeout(idleTimer);
    idleTimer = undefined;
    if (count > 0 || stopping) return;
    idleTimer = setTimeout(
      () => void stop(`no kdeck has held the sandbox for ${Math.round(idleTimeoutMs / 1000)} s`),
      idleTimeoutMs,
    );
  };
  let control: ControlServer;
  try {
    control = await startControlServer({
      instance,
      token,
      onHolders: (count) => {
        log(`${count} kdeck process${count === 1 ? '' : 'es'} attached`);
        idleAfter(count);
      },
      onStop: () => void stop('asked to stop'),
      stopping: () => stopping !== undefined,
    });
  } catch (e) {
    await sandbox.stop();
    throw e;
  }
  const registry: Registry = {
    kind: 'KdeckSandboxDaemon',
    version: 1,
    pid: process.pid,
    instance,
    control: control.url,
    token,
    clusters: sandbox.clusters.map((c) => ({ name: c.name, url: c.url })),
    kubeconfig: sandbox.kubeconfigPath,
    state: paths.state,
    ...(options.startedBy ? { startedBy: options.startedBy } : {}),
    started: new Date().toISOString(),
    idleTimeoutMs,
  };
  // the registry is written last: whoever reads it finds clusters and control already answering
  writeRegistry(paths.registry, registry);
  log(
    `serving ${registry.clusters.map((c) => `${c.name} ${c.url}`).join(', ')}; control ${control.url}; stops after ${Math.round(idleTimeoutMs / 1000)} s without a holder`,
  );
  idleAfter(control.holders());

  function stop(reason: string): Promise<void> {
    stopping ??= (async () => {
      clearTimeout(idleTimer);
      log(`stopping: ${reason}`);
      // registered and answering "stopping" until the state is saved, so that a kdeck arriving
      // now waits for this process to end instead of starting a second one on the same state
      control.endHolds();
      try {
        await sandbox.stop();
        log(`stopped; state saved to ${paths.state}`);
      } finally {
        removeRegistry(paths.registry, instance);
        await control.close();
        markStopped();
      }
    })();
    return stopping;
  }

  return { registry, stopped, stop };
}
