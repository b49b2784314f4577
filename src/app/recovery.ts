/**
 * Planning a recovery, as both faces do: the runbook's hostnames (`-D hosts=a,b`) looked up in a
 * CMDB file or in the pods of every cluster, then the runbook compiled with the cmdb plugin
 * answering from that look-up. A plan from a CMDB file needs no cluster, so the clusters are
 * asked for only when the hostnames are resolved against them.
 */
import path from 'node:path';
import type { ClusterSet } from '../cluster/cluster-set.js';
import { parseOptionArg } from '../kcl/run.js';
import { resolveFromClusters, resolveFromFile, type HostTable, type PodSource } from '../recovery/cmdb.js';
import { workloadOf, type BlastRadius, type RecoveryPlan } from '../recovery/plan.js';
import { conditionMet } from '../health/rules.js';
import { apiVersionOf } from '../model/kube-object.js';
import { asObject } from '../model/resource.js';
import { compileRunbook, hostsOf } from '../recovery/runbook.js';

export interface HostSource {
  /** A CMDB file (CSV or YAML) that maps hostnames to pods. */
  cmdb?: string;
  /** The clusters whose pods' nodes and hostnames answer otherwise. */
  clusterSet: () => Promise<ClusterSet>;
}

async function hostTable(hosts: string[], source: HostSource): Promise<HostTable> {
  if (source.cmdb) return resolveFromFile(hosts, path.resolve(source.cmdb));
  if (hosts.length === 0) return { records: [], unresolved: [] };
  const clusterSet = await source.clusterSet();
  const sources = new Map<string, PodSource>(clusterSet.contexts.map((c) => [c.name, clusterSet.client(c.name)]));
  return resolveFromClusters(hosts, sources);
}

export interface PlannedRecovery {
  plan: RecoveryPlan;
  /** What the runbook printed while it ran. */
  printed: string;
  /** The `-D` values, parsed. */
  options: [string, string][];
}

/** `args` are `key=value` strings, as `-D` takes them. */
export async function planRecovery(runbookFile: string, args: string[], source: HostSource): Promise<PlannedRecovery> {
  const options = args.map(parseOptionArg);
  const table = await hostTable(hostsOf(options), source);
  const compiled = compileRunbook(runbookFile, options, table);
  // replicas come from the clusters the hostnames were found in; a CMDB plan asks no cluster
  const plan = source.cmdb ? compiled.plan : await withReplicas(compiled.plan, await source.clusterSet());
  return { ...compiled, plan, options };
}

const count = (o: unknown, key: string): number | undefined => {
  const v = asObject(o)[key];
  return typeof v === 'number' ? v : undefined;
};

/** Each workload's replicas (desired and ready) beside its blast radius. */
async function withReplicas(plan: RecoveryPlan, clusterSet: ClusterSet): Promise<RecoveryPlan> {
  const blastRadius = await Promise.all(
    plan.blastRadius.map(async (r): Promise<BlastRadius> => {
      const target = plan.runbook.targets.find((t) => workloadOf(t) === r.workload);
      if (!target) return r;
      const { kind, name } = target.owner ?? target;
      const live = await clusterSet
        .client(target.cluster)
        .get({ apiVersion: apiVersionOf(kind), kind, namespace: target.namespace, name });
      // a pod no controller owns is its own single replica: nothing replaces it while it restarts
      if (kind === 'Pod') return { ...r, replicas: { desired: 1, ready: live && conditionMet(live, 'Ready') ? 1 : 0 } };
      const desired = count(live?.spec, 'replicas') ?? count(live?.status, 'desiredNumberScheduled');
      if (desired === undefined) return r;
      const ready = count(live?.status, 'readyReplicas') ?? count(live?.status, 'numberReady') ?? 0;
      return { ...r, replicas: { desired, ready } };
    }),
  );
  return { ...plan, blastRadius };
}
