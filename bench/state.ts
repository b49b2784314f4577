/**
 * The state backends' part of `npm run bench`: a state of 5,000 resources (a third each
 * ConfigMaps with a config file, Services, Deployments; pseudo-random uids and data, so it
 * compresses like a real one) written and read through the kubernetes backend against a sandbox
 * cluster over HTTPS, and through the local backend for comparison. Each write is a new serial:
 * new chunk generation, head switch, old chunks removed. Each read is by a fresh backend, as a
 * new kdeck process reads. Reported: the median and all runs. The sandbox serves from this
 * process, so its time is in the figures, as a real API server's would be.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ClusterSet } from '../src/cluster/cluster-set.js';
import { loadKubeconfig } from '../src/cluster/kubeconfig.js';
import { startSandbox } from '../src/sandbox/launcher.js';
import type { StateBackend } from '../src/state/backend.js';
import { KubernetesStateBackend } from '../src/state/kubernetes.js';
import { LocalStateBackend } from '../src/state/local.js';
import type { State } from '../src/state/model.js';
import { encodeState } from '../src/state/state-codec.js';
import { CHUNK_BYTES } from '../src/state/secret-chunks.js';
import { generatedState } from '../src/state/testing.js';
import { median, printTargets, runBench } from './report.js';

const RESOURCES = 5_000;
const RUNS = 5;
const TARGET_READ_MS = 500;
const TARGET_WRITE_MS = 1_000;

const list = (xs: number[]) => `[${xs.map((x) => x.toFixed(0)).join(', ')}]`;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

interface Figures {
  write: number[];
  read: number[];
}

/** Writes `state` RUNS times (serial after serial) and reads it back RUNS times, checking it. */
async function measure(open: () => StateBackend, state: State): Promise<Figures> {
  const writer = open();
  const write: number[] = [];
  let current = state;
  for (let i = 0; i < RUNS; i++) {
    const base = current.serial;
    write.push(await timed(async () => (current = await writer.write(current, base))));
  }
  const read: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    let got: State | undefined;
    read.push(await timed(async () => (got = await open().read(state))));
    if (JSON.stringify(got) !== JSON.stringify(current))
      throw new Error('the state read back differs from the state written');
  }
  return { write, read };
}

async function main(): Promise<number> {
  const sandbox = await startSandbox({ clusters: 1 });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-bench-state-'));
  try {
    const rest = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath)).client('sandbox-a').rest;
    const state = generatedState({ project: 'bench', stack: 'many', cluster: 'sandbox-a' }, RESOURCES);
    const encoded = encodeState(state);
    const chunks = Math.ceil(encoded.payload.length / CHUNK_BYTES);
    const k8s = await measure(
      () => new KubernetesStateBackend({ rest, namespace: 'kdeck-system', lockSeconds: 60 }),
      state,
    );
    const local = await measure(() => new LocalStateBackend(root), state);
    const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
    console.log(`kdeck state benchmark (${RESOURCES.toLocaleString('en-US')} resources, ${RUNS} runs each)`);
    console.log(
      `  state          ${mb(JSON.stringify(state).length)} of JSON, ${mb(encoded.payload.length)} as ${encoded.encoding}, ${chunks} chunk Secrets`,
    );
    console.log(`  kubernetes     write median ${median(k8s.write).toFixed(0)} ms of ${list(k8s.write)} ms`);
    console.log(`                 read  median ${median(k8s.read).toFixed(0)} ms of ${list(k8s.read)} ms`);
    console.log(`  local file     write median ${median(local.write).toFixed(0)} ms of ${list(local.write)} ms`);
    console.log(`                 read  median ${median(local.read).toFixed(0)} ms of ${list(local.read)} ms`);
    printTargets([
      {
        name: `kubernetes read < ${TARGET_READ_MS} ms`,
        ok: median(k8s.read) < TARGET_READ_MS,
        detail: `${median(k8s.read).toFixed(0)} ms`,
      },
      {
        name: `kubernetes write < ${TARGET_WRITE_MS} ms`,
        ok: median(k8s.write) < TARGET_WRITE_MS,
        detail: `${median(k8s.write).toFixed(0)} ms`,
      },
    ]);
    return 0;
  } finally {
    await sandbox.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

runBench(main);
