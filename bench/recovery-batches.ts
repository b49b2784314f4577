/**
 * Where a recovery batch's time goes beyond the readiness delay, on the fleet of the recovery
 * bench: per batch of each cluster, from its first DELETE to the last replacement seen Ready
 * (the cluster replacing the pods: readiness, and whatever else the cluster takes), from there to
 * the owners' status showing every replica available (the cluster again), and from there to the
 * next batch's first DELETE (kdeck: verification, the gate, the action). A watch per cluster
 * (pods and Deployments) notes the moments, so its own work adds to the run's a little.
 *
 * Usage: node dist/bench/recovery-batches.js [--runs 3]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { watchObjects } from '../src/cluster/watch.js';
import { launchRun } from '../src/workflows/recovery/launch.js';
import { median, runBench } from './report.js';
import { READINESS_MS, onFleet, podReady, type Fleet } from './recovery-fleet.js';
import { onRequest } from './request-hook.js';

interface Batch {
  firstDelete: number;
  lastReady?: number;
  ownersBack?: number;
}

interface Figures {
  start: number[];
  replaced: number[];
  status: number[];
  kdeck: number[];
}

function argument(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}

/** Where each run hears of the requests sent: the hook goes in before the first connection opens. */
let requestSeen: ((method: string, host: string) => void) | undefined;

async function once(fleet: Fleet, f: Figures): Promise<void> {
  const { clusters, contexts, plan } = fleet;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-bench-batches-'));
  const byPort = new Map(contexts.map((c) => [new URL(clusters.client(c).rest.server).port, c]));
  const batches = new Map<string, Batch[]>(contexts.map((c) => [c, []]));
  let t0 = 0;
  const at = () => performance.now() - t0;
  requestSeen = (method, host) => {
    if (!t0 || method !== 'DELETE') return;
    const cluster = byPort.get(host.split(':')[1] ?? '');
    const list = cluster ? batches.get(cluster) : undefined;
    const last = list?.at(-1);
    // a batch's deletes go together; the next DELETE after its replacements were Ready opens the next
    if (list && (!last || last.lastReady !== undefined)) list.push({ firstDelete: at() });
  };
  const watching = new AbortController();
  try {
    for (const c of contexts) {
      const readyBefore = new Set<string>();
      void watchObjects(
        clusters.client(c),
        { apiVersion: 'v1', kind: 'Pod', namespace: 'default' },
        (e) => {
          const uid = String(e.object.metadata?.uid);
          if (e.type === 'DELETED' || !podReady(e.object) || readyBefore.has(uid)) return;
          readyBefore.add(uid);
          const b = batches.get(c)!.at(-1);
          if (t0 && b) b.lastReady = at();
        },
        { signal: watching.signal },
      ).catch(() => undefined);
      void watchObjects(
        clusters.client(c),
        { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default' },
        (e) => {
          const status = e.object.status as { availableReplicas?: number } | undefined;
          const spec = e.object.spec as { replicas?: number } | undefined;
          const b = batches.get(c)!.at(-1);
          if (t0 && b?.lastReady !== undefined && status?.availableReplicas === spec?.replicas) b.ownersBack = at();
        },
        { signal: watching.signal },
      ).catch(() => undefined);
    }
    const run = await launchRun(root, 'bench', [], plan, clusters);
    t0 = performance.now();
    run.actor.send({ type: 'APPROVE' });
    await run.settled();
    await run.close();
  } finally {
    watching.abort();
    requestSeen = undefined;
    fs.rmSync(root, { recursive: true, force: true });
  }
  for (const list of batches.values()) {
    f.start.push(list[0]!.firstDelete);
    list.forEach((b, i) => {
      const ready = b.lastReady ?? b.firstDelete;
      const back = Math.max(b.ownersBack ?? ready, ready);
      f.replaced.push(ready - b.firstDelete - READINESS_MS);
      f.status.push(back - ready);
      const next = list[i + 1];
      if (next) f.kdeck.push(next.firstDelete - back);
    });
  }
}

async function main(): Promise<void> {
  onRequest((method, _path, host) => requestSeen?.(method, host));
  const runs = Number(argument('runs', '3'));
  const f: Figures = { start: [], replaced: [], status: [], kdeck: [] };
  for (let r = 0; r < runs; r++) {
    await onFleet((fleet) => once(fleet, f));
  }
  const ms = (xs: number[]) => `${median(xs).toFixed(0)} ms`;
  console.log(`recovery batches (${runs} runs, ${f.replaced.length} batches; medians; readiness ${READINESS_MS} ms)`);
  console.log(`  approval to the first DELETE:                                  ${ms(f.start)}`);
  console.log(`  first DELETE to the last replacement Ready, beyond readiness: ${ms(f.replaced)}  (the cluster)`);
  console.log(`  last replacement Ready to the owners all available:           ${ms(f.status)}  (the cluster)`);
  console.log(`  owners available to the next batch's first DELETE:            ${ms(f.kdeck)}  (kdeck)`);
}

runBench(main);
