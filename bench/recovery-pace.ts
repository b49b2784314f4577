/**
 * The recovery bench's pace: what the fleet's clusters allow, timed with the thinnest client
 * that does the same work. Per cluster, in parallel, batch after batch, it deletes the batch's
 * pods (each incarnation by uid, as kdeck does), then waits, reading watch-fed caches of the
 * pods and Deployments (cluster/object-cache.ts), until each workload of the batch has its old
 * pods going, every replica Ready and its status showing them available. It has no gate, no journal, no state machine and no
 * verdicts: the time it takes beyond the lower bound is the clusters' own (a delete served, the
 * replacement created, scheduled, started and reported), which no client can save.
 */
import { ObjectCache } from '../src/cluster/object-cache.js';
import type { KubeObject } from '../src/model/kube-object.js';
import { podReady, type Fleet } from './recovery-fleet.js';

const POD = { apiVersion: 'v1', kind: 'Pod', namespace: 'default' } as const;
const DEPLOYMENT = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default' } as const;

interface Cluster {
  pods: ObjectCache;
  deployments: ObjectCache;
}

/** Resolves at the next change of either cache. */
function changed(c: Cluster): Promise<void> {
  return new Promise((resolve) => {
    const offs = [c.pods, c.deployments].map((cache) =>
      cache.onChange(() => {
        for (const off of offs) off();
        resolve();
      }),
    );
  });
}

/** Whether a workload is back: none of `old` still up, every replica Ready, the status agreeing. */
function back(c: Cluster, owner: string, old: ReadonlySet<string>): boolean {
  const d = c.deployments.items().find((o) => o.metadata?.name === owner);
  const want = (d?.spec as { replicas?: number } | undefined)?.replicas;
  const status = d?.status as { availableReplicas?: number; updatedReplicas?: number } | undefined;
  if (!d || want === undefined || status?.availableReplicas !== want || status.updatedReplicas !== want) return false;
  const mine = c.pods.items().filter((p) => (p.metadata?.labels as Record<string, string> | undefined)?.app === owner);
  const going = (p: KubeObject) => p.metadata?.deletionTimestamp !== undefined;
  if (mine.some((p) => old.has(String(p.metadata?.uid)) && !going(p))) return false;
  return mine.filter((p) => !going(p) && podReady(p)).length === want;
}

/** The fleet's plan done by the thin client: ms from the first delete to the last workload back. */
export async function recoveryPace(fleet: Fleet): Promise<number> {
  const clusters = new Map(
    fleet.contexts.map((context): [string, Cluster] => {
      const client = fleet.clusters.client(context);
      return [context, { pods: new ObjectCache(client, POD), deployments: new ObjectCache(client, DEPLOYMENT) }];
    }),
  );
  try {
    // the uids the plan was made from, as kdeck freezes them at launch
    const uids = new Map<string, Map<string, string>>();
    for (const [context, c] of clusters) {
      await Promise.all([c.pods.ready(), c.deployments.ready()]);
      uids.set(context, new Map(c.pods.items().map((p) => [String(p.metadata?.name), String(p.metadata?.uid)])));
    }
    const started = performance.now();
    await Promise.all(
      [...clusters].map(async ([context, c]) => {
        const client = fleet.clusters.client(context);
        const uidOf = uids.get(context)!;
        for (const batch of fleet.plan.batches.filter((b) => b.cluster === context)) {
          const old = new Set(batch.targets.map((t) => uidOf.get(t.name) ?? ''));
          await Promise.all(
            batch.targets.map((t) => client.delete({ ...POD, name: t.name }, 'Background', { uid: uidOf.get(t.name) })),
          );
          const owners = [...new Set(batch.targets.map((t) => t.owner?.name ?? ''))];
          while (!owners.every((o) => back(c, o, old))) await changed(c);
        }
      }),
    );
    return performance.now() - started;
  } finally {
    for (const c of clusters.values()) {
      c.pods.close();
      c.deployments.close();
    }
  }
}
