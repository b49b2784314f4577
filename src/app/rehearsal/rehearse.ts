/**
 * A rehearsal: the frozen plan of a run carried out by the same run machine and steps against a
 * private, in-process sandbox that stands in for its clusters. The clusters are only read (the
 * shape of what the plan touches); the sandbox is seeded with that shape (seed.ts),
 * runs on an accelerated clock, is reached over loopback under the real context names, keeps
 * its run record in a temporary folder, and is gone when the rehearsal returns. What happened is
 * read as it happens (the machines' states, the audit, the health notes, the sandbox's pod
 * events) on the sandbox's clock, which is the real clusters' time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ClusterSet } from '../../cluster/cluster-set.js';
import type { Kubeconfig } from '../../cluster/kubeconfig.js';
import type { ObjectClient } from '../../cluster/objects.js';
import { apiVersionOf, type KubeObject } from '../../model/kube-object.js';
import { asObject } from '../../model/resource.js';
import { estimateReadiness, type ReadinessEstimate } from '../../recovery/rehearsal-readiness.js';
import { seedState, selects, topWorkload, type ClusterShape } from './seed.js';
import {
  lowerBound,
  REHEARSAL_LIMITS,
  type BatchForecast,
  type BatchPause,
  type ClusterForecast,
  type EvictionRefusal,
  type GateDecision,
  type Rehearsal,
} from '../../recovery/rehearsal.js';
import { RealClock, startSandbox, type Sandbox } from '../../sandbox/index.js';
import type { ClusterActor } from '../../workflows/recovery/cluster-machine.js';
import type { ClusterAccess } from '../../workflows/recovery/cluster-steps.js';
import { openRun } from '../../workflows/recovery/launch.js';
import { AvailabilityWatch } from './availability.js';
import type { RunPlan, RunTarget } from '../../workflows/recovery/model.js';
import { clusterActorId, clustersOf } from '../../workflows/recovery/run-machine.js';
import { newRunId, RunStore } from '../../workflows/recovery/run-store.js';
import type { RunUpdate } from '../../workflows/recovery/runner.js';

export interface RehearseOptions {
  /** The readiness of a workload none of whose pods tells it, in ms. */
  fallbackReadinessMs: number;
  /** Real time per unit of the sandbox's: 0.25 rehearses four times as fast as the run would go. */
  timeScale: number;
}

const WORKLOAD_KINDS = ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet'] as const;

const nameOf = (o: KubeObject) => String(o.metadata?.name ?? '');
const targetKey = (cluster: string, t: RunTarget) => `${cluster}/${t.namespace}/${t.kind}/${t.name}`;

async function listIn(client: ObjectClient, kind: string, namespace: string): Promise<KubeObject[]> {
  return (await client.list({ apiVersion: apiVersionOf(kind), kind, namespace })).items;
}

/** The workload at the top of a target's owner chain among `objects`, as `cluster/namespace/Kind/name`. */
function workloadOfTarget(cluster: string, t: RunTarget, objects: readonly KubeObject[]): string {
  const live = objects.find(
    (o) => o.kind === t.kind && nameOf(o) === t.name && (o.metadata?.namespace ?? t.namespace) === t.namespace,
  );
  if (live) return topWorkload(cluster, live, objects);
  // a pod gone since the plan was made still names its workload
  return t.owner ? `${cluster}/${t.namespace}/${t.owner.kind}/${t.owner.name}` : targetKey(cluster, t);
}

/**
 * What the plan touches on one cluster, read and never written: in each of its targets'
 * namespaces, the targets' workloads (their owner chains), every pod of them, the budgets that
 * select those pods; and the nodes the pods run on.
 */
export async function captureShape(client: ObjectClient, cluster: string, plan: RunPlan): Promise<ClusterShape> {
  const targets = plan.batches.filter((b) => b.cluster === cluster).flatMap((b) => b.targets);
  const shape: ClusterShape = { cluster, nodes: [], workloads: [], pods: [], budgets: [] };
  for (const namespace of [...new Set(targets.map((t) => t.namespace))]) {
    const [pods, budgets, ...workloads] = await Promise.all([
      listIn(client, 'Pod', namespace),
      listIn(client, 'PodDisruptionBudget', namespace),
      ...WORKLOAD_KINDS.map((k) => listIn(client, k, namespace)),
    ]);
    const objects = [...workloads.flat(), ...pods!];
    const tops = new Set(
      targets.filter((t) => t.namespace === namespace).map((t) => workloadOfTarget(cluster, t, objects)),
    );
    const members = objects.filter((o) => tops.has(topWorkload(cluster, o, objects)));
    shape.workloads.push(...members.filter((o) => o.kind !== 'Pod'));
    const memberPods = members.filter((o) => o.kind === 'Pod');
    shape.pods.push(...memberPods);
    shape.budgets.push(...budgets!.filter((b) => memberPods.some((p) => selects(b, p))));
  }
  const nodeNames = [...new Set(shape.pods.map((p) => String(asObject(p.spec).nodeName ?? '')).filter(Boolean))];
  const nodes = await Promise.all(nodeNames.map((name) => client.get({ apiVersion: 'v1', kind: 'Node', name })));
  shape.nodes = nodes.filter((n): n is KubeObject => n !== undefined);
  return shape;
}

/** Each workload the plan touches (`cluster/namespace/Kind/name`) with its pods and its readiness. */
function readinessOf(shapes: readonly ClusterShape[], fallbackMs: number): Map<string, ReadinessEstimate> {
  const out = new Map<string, ReadinessEstimate>();
  for (const s of shapes) {
    const all = [...s.workloads, ...s.pods];
    const byTop = new Map<string, KubeObject[]>();
    for (const p of s.pods) {
      const top = topWorkload(s.cluster, p, all);
      byTop.set(top, [...(byTop.get(top) ?? []), p]);
    }
    for (const [top, pods] of byTop) out.set(top, estimateReadiness(pods, fallbackMs));
  }
  return out;
}

/** The sandbox's clusters under the real context names, over plain loopback HTTP. */
function rehearsalClusters(sandbox: Sandbox): ClusterSet {
  const kubeconfig: Kubeconfig = {
    files: ['(the rehearsal sandbox)'],
    contexts: sandbox.clusters.map((c) => ({ name: c.name, cluster: c.name, server: c.httpUrl, user: 'rehearsal' })),
    current: sandbox.clusters[0]?.name,
    configFor(context) {
      const c = sandbox.cluster(context);
      return {
        context,
        server: c.httpUrl,
        usesPlugin: false,
        authorize: (options) => {
          options.headers = { ...options.headers, authorization: `Bearer ${c.token}` };
          return Promise.resolve();
        },
      };
    },
  };
  return new ClusterSet(kubeconfig);
}

/** Rehearses `plan` (frozen against `clusters`) and says what it would do. */
export async function rehearse(plan: RunPlan, clusters: ClusterAccess, options: RehearseOptions): Promise<Rehearsal> {
  const started = Date.now();
  const names = clustersOf(plan);
  const shapes = await Promise.all(names.map((c) => captureShape(clusters.client(c), c, plan)));
  const readiness = readinessOf(shapes, options.fallbackReadinessMs);
  const readinessMs = (w: string) => readiness.get(w)?.ms ?? options.fallbackReadinessMs;
  const clock = new RealClock(options.timeScale);
  const sandbox = await startSandbox({
    clusters: shapes.map((s) => ({ name: s.cluster, snapshot: seedState(s, readinessMs) })),
    clock,
    // the seeded probes carry each workload's readiness; nothing is added to it
    timings: { readinessDelayMs: 0 },
  });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-rehearsal-'));
  let t0 = clock.now();
  const elapsed = () => clock.now() - t0;
  const availability = new AvailabilityWatch(sandbox, shapes, readiness, elapsed);
  const batches: BatchForecast[] = plan.batches.map((b) => ({
    cluster: b.cluster,
    index: b.index,
    targets: b.targets.map((t) => `${t.namespace}/${t.kind}/${t.name}`),
    outcome: 'not reached',
  }));
  const batchOf = (cluster: string, index: number) => batches.find((b) => b.cluster === cluster && b.index === index);
  const current = new Map<string, number>();
  const gates: GateDecision[] = [];
  const refusals: EvictionRefusal[] = [];
  const pauses: BatchPause[] = [];
  const ends: ClusterForecast[] = [];
  const onUpdate = (u: RunUpdate) => {
    const at = elapsed();
    if (u.type === 'health') {
      if (u.note.health.reason === 'GateClosed')
        gates.push({
          cluster: u.cluster,
          batch: current.get(u.cluster) ?? 0,
          atMs: at,
          decision: 'held',
          subject: u.note.subject,
          message: u.note.health.message,
        });
      return;
    }
    const e = u.entry;
    const batchIndex = Number(/^batch (\d+)$/.exec(e.target ?? '')?.[1] ?? NaN);
    if (e.action === 'evict' && e.outcome === 'refused' && e.cluster)
      refusals.push({
        cluster: e.cluster,
        batch: current.get(e.cluster) ?? 0,
        target: e.target ?? '',
        atMs: at,
        message: e.detail ?? '',
      });
    if (e.action === 'batch' && e.cluster && (e.outcome === 'verified' || e.outcome === 'failed')) {
      const b = batchOf(e.cluster, batchIndex);
      if (b) {
        b.endMs = at;
        b.outcome = e.outcome;
      }
      if (e.outcome === 'failed') {
        const [reason, ...rest] = (e.detail ?? '').split(': ');
        pauses.push({
          cluster: e.cluster,
          batch: batchIndex,
          atMs: at,
          policy: plan.onFailure,
          reason: reason ?? 'Failed',
          message: rest.join(': '),
        });
      }
    }
    if (e.action === 'cluster' && e.cluster)
      ends.push({ cluster: e.cluster, wallMs: at, end: e.outcome as ClusterForecast['end'] });
  };
  const store = new RunStore(root, newRunId(plan.runbook, new Date()));
  const record = store.create({
    runbook: '(rehearsal)',
    options: [],
    createdAt: new Date().toISOString(),
    who: 'rehearsal',
    plan,
  });
  const run = openRun(store, record, rehearsalClusters(sandbox), {
    onUpdate,
    // nobody answers a paused batch in a rehearsal: it is reported, and the cluster goes on, to
    // show the rest of the run
    adjust: (p) => (p.onFailure === 'pause' ? { ...p, onFailure: 'continue' } : p),
    clock: { now: () => clock.now(), timeScale: options.timeScale },
  });
  const followed = new Set<string>();
  const follow = (cluster: string, ref: ClusterActor) => {
    followed.add(cluster);
    let last = '';
    const seen = (s: ReturnType<ClusterActor['getSnapshot']>) => {
      const batch = plan.batches.filter((b) => b.cluster === cluster)[s.context.index];
      if (!batch) return;
      const phase = `${batch.index}:${String(s.value)}`;
      if (phase === last) return;
      last = phase;
      current.set(cluster, batch.index);
      const b = batchOf(cluster, batch.index)!;
      if (s.value === 'gating') b.startMs ??= elapsed();
      if (s.value === 'acting' && b.gateOpenMs === undefined) {
        b.gateOpenMs = elapsed();
        gates.push({
          cluster,
          batch: batch.index,
          atMs: b.gateOpenMs,
          decision: 'opened',
          message: 'every workload stays within maxUnavailable',
        });
      }
    };
    // the child's first state came before this subscription
    seen(ref.getSnapshot());
    ref.subscribe(seen);
  };
  const subscription = run.actor.subscribe((s) => {
    for (const c of s.context.started) {
      const ref = s.children[clusterActorId(c)] as ClusterActor | undefined;
      if (ref && !followed.has(c)) follow(c, ref);
    }
  });
  try {
    t0 = clock.now();
    run.actor.send({ type: 'APPROVE' });
    await run.settled();
  } finally {
    subscription.unsubscribe();
    availability.close();
    await run.close();
    await sandbox.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
  // each target's workload as the readiness was measured for it: the top of its owner chain
  const objectsOf = new Map(shapes.map((s) => [s.cluster, [...s.workloads, ...s.pods]]));
  const bound = lowerBound(
    plan.batches.map((b) => ({
      cluster: b.cluster,
      workloads: b.targets.map((t) => workloadOfTarget(b.cluster, t, objectsOf.get(b.cluster) ?? [])),
    })),
    readinessMs,
    plan.clusterConcurrency,
  );
  const clustersForecast = names.map(
    (c) => ends.find((e) => e.cluster === c) ?? { cluster: c, wallMs: elapsed(), end: 'aborted' as const },
  );
  const overallMs = Math.max(0, ...clustersForecast.map((c) => c.wallMs));
  const fallback = [...readiness.values()].some((r) => r.source === 'fallback');
  return {
    runbook: plan.runbook,
    action: plan.action,
    timeScale: options.timeScale,
    tookMs: Date.now() - started,
    predicted: { overallMs, clusters: clustersForecast },
    batches,
    workloads: availability.result(),
    gates: gates.sort((a, b) => a.atMs - b.atMs),
    refusals,
    pauses,
    lowerBound: bound,
    ratio: bound.overallMs > 0 ? overallMs / bound.overallMs : 0,
    limits: [
      ...REHEARSAL_LIMITS,
      ...(fallback
        ? ['readiness: a workload none of whose pods told its start-to-Ready time was given the --readiness value']
        : []),
    ],
  };
}
