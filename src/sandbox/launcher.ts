/**
 * Several sandbox clusters at once (`a`, `b`, …), the kubeconfig that reaches them, and,
 * optionally, a state file that keeps their objects (and ports and tokens, so the kubeconfig
 * stays good) across restarts. The same call serves tests, `kdeck sandbox` and the console.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KubeObject } from './api/object.js';
import type { StoreSnapshot } from './api/store.js';
import { SandboxCluster, type ClusterOptions } from './cluster.js';
import { clusterNames } from './cluster-names.js';
import { writeKubeconfig } from './kubeconfig.js';

export type SharedClusterOptions = Omit<ClusterOptions, 'name' | 'port' | 'token' | 'snapshot' | 'objects'>;

export interface SandboxOptions extends SharedClusterOptions {
  /** How many clusters (named a, b, c, …), or each one's own options; default 2. */
  clusters?: number | (Partial<ClusterOptions> & { name: string })[];
  /** Where to write the kubeconfig; default a fresh temporary directory, removed on stop. */
  kubeconfig?: string;
  /** A state file: read at start if it exists, written while running and on stop. */
  statePath?: string;
  /** Objects every cluster starts with (a seed file's documents). */
  objects?: readonly KubeObject[];
  /** The shortest gap between two saves of a changed state (default 100 ms; longer for a state slow to write). */
  saveIntervalMs?: number;
}

export interface Sandbox {
  readonly clusters: readonly SandboxCluster[];
  readonly kubeconfigPath: string;
  cluster(name: string): SandboxCluster;
  /** Writes the state file now (a no-op without one). */
  saveState(): void;
  /** Stops every cluster, saves state, removes a temporary kubeconfig. */
  stop(): Promise<void>;
}

interface SavedCluster {
  name: string;
  port: number;
  token: string;
  snapshot: StoreSnapshot;
}

interface StateFile {
  kind: 'KdeckSandboxState';
  version: 1;
  clusters: SavedCluster[];
}

/** A state file that cannot be used; the message says which and why. */
export class StateFileError extends Error {
  override name = 'StateFileError';
}

export function readState(file: string): StateFile | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(`cannot read the state file ${file}: ${(e as Error).message}`);
  }
  let doc: Partial<StateFile>;
  try {
    doc = JSON.parse(text) as Partial<StateFile>;
  } catch {
    doc = {};
  }
  if (doc.kind !== 'KdeckSandboxState' || doc.version !== 1 || !Array.isArray(doc.clusters)) {
    throw new StateFileError(`${file} is not a kdeck sandbox state file; move it away or give another file`);
  }
  return doc as StateFile;
}

function writeState(file: string, clusters: readonly SandboxCluster[]): void {
  const doc: StateFile = {
    kind: 'KdeckSandboxState',
    version: 1,
    clusters: clusters.map((c) => ({ name: c.name, port: c.port, token: c.token, snapshot: c.snapshot() })),
  };
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  // mode 0600: the state holds Secrets and tokens
  fs.writeFileSync(tmp, JSON.stringify(doc), { mode: 0o600 });
  fs.renameSync(tmp, file);
}

async function startOne(opts: ClusterOptions): Promise<SandboxCluster> {
  try {
    return await SandboxCluster.start(opts);
  } catch (e) {
    // the port a restored cluster had may be taken now; any free one will do
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE' && opts.port)
      return SandboxCluster.start({ ...opts, port: 0 });
    throw e;
  }
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const { clusters: spec = 2, kubeconfig, statePath, objects, saveIntervalMs = 100, ...shared } = opts;
  const specs = typeof spec === 'number' ? clusterNames(spec).map((name) => ({ name })) : spec;
  const saved = statePath ? readState(statePath) : undefined;
  const started: SandboxCluster[] = [];
  try {
    for (const [i, s] of specs.entries()) {
      const prior = saved?.clusters.find((c) => c.name === s.name);
      // one seed, several clusters: each its own sequence, or their pods would share names
      const o: ClusterOptions = { ...shared, ...(shared.seed !== undefined ? { seed: shared.seed + i } : {}), ...s };
      if (prior) {
        o.snapshot = prior.snapshot;
        o.port ??= prior.port;
        o.token ??= prior.token;
      }
      if (objects) o.objects = objects;
      started.push(await startOne(o));
    }
  } catch (e) {
    await Promise.all(started.map((c) => c.stop()));
    throw e;
  }
  const tempDir = kubeconfig ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-sandbox-'));
  const kubeconfigPath = kubeconfig ?? path.join(tempDir!, 'kubeconfig');
  writeKubeconfig(
    kubeconfigPath,
    started.map((c) => ({ name: c.name, server: c.url, token: c.token })),
  );
  let lastSaved = statePath ? started.map((c) => c.store.resourceVersion).join(',') : '';
  const save = () => {
    if (!statePath) return;
    lastSaved = started.map((c) => c.store.resourceVersion).join(',');
    writeState(statePath, started);
  };
  // a write the sandbox acknowledged survives the process being killed soon after, as it survives a
  // real API server's restart (a recovery resumed after a SIGKILL relies on it); a state slow to
  // write is saved less often, so saving never takes more than a tenth of the time
  let timer: NodeJS.Timeout | undefined;
  const saveWhenChanged = () => {
    let gap = saveIntervalMs;
    if (started.map((c) => c.store.resourceVersion).join(',') !== lastSaved) {
      const t0 = performance.now();
      save();
      gap = Math.max(saveIntervalMs, 10 * (performance.now() - t0));
    }
    timer = setTimeout(saveWhenChanged, gap).unref();
  };
  if (statePath) timer = setTimeout(saveWhenChanged, saveIntervalMs).unref();
  let stopped = false;
  return {
    clusters: started,
    kubeconfigPath,
    cluster(name) {
      const c = started.find((x) => x.name === name);
      if (!c) throw new Error(`no sandbox cluster "${name}"; there are ${started.map((x) => x.name).join(', ')}`);
      return c;
    },
    saveState: save,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      await Promise.all(started.map((c) => c.stop()));
      save();
      if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
    },
  };
}
