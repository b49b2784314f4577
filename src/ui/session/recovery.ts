/**
 * The console's side of a recovery runbook: `:recover RUNBOOK hosts=...` compiles the runbook
 * with the cmdb plugin answering from the console's clusters, and the Recovery view shows the
 * plan (targets by cluster, batches, blast radius). The runbook machine that executes a plan
 * plugs in here: a RecoveryEntry gains its actor once it exists.
 */
import path from 'node:path';
import type { ClusterSet } from '../../cluster/cluster-set.js';
import { PluginRegistry } from '../../kcl/plugins.js';
import { parseOptionArg, runKcl } from '../../kcl/run.js';
import { CMDB_PLUGIN, cmdbPlugin, resolveFromClusters, type PodSource } from '../../recovery/cmdb.js';
import { planRecovery, runbookOf, type RecoveryPlan } from '../../recovery/plan.js';

export type RecoveryEntry =
  | { state: 'planning'; runbook: string; args: string[] }
  | { state: 'planned'; runbook: string; args: string[]; plan: RecoveryPlan }
  | { state: 'error'; runbook: string; args: string[]; message: string };

/** `hosts=a,b` and `-D hosts=a,b` alike: the `-D` values of a `:recover` command. */
export function recoveryArgs(words: string[]): string[] {
  return words.filter((w) => w !== '-D');
}

/** The runbook's plan, its hostnames resolved against every cluster of the set. */
export async function recoveryPlan(root: string, runbook: string, args: string[], clusterSet: ClusterSet): Promise<RecoveryPlan> {
  const options = args.map(parseOptionArg);
  const hosts = (options.find(([k]) => k === 'hosts')?.[1] ?? '').split(',').filter(Boolean);
  const sources = new Map<string, PodSource>(clusterSet.contexts.map((c) => [c.name, clusterSet.client(c.name)]));
  const table = hosts.length ? await resolveFromClusters(hosts, sources) : { records: [], unresolved: [] };
  const result = runKcl({ files: [path.resolve(root, runbook)], options, disableNone: true, plugins: new PluginRegistry().register(CMDB_PLUGIN, cmdbPlugin(table)) });
  return planRecovery(runbookOf(result.data()[0]));
}
