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
import type { RecoveryPlan } from '../recovery/plan.js';
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
  return { ...compileRunbook(runbookFile, options, table), options };
}
