/**
 * What `kdeck recover` does: resolve the runbook's hostnames (the clusters, or a CMDB file),
 * compile the runbook with the cmdb plugin, and print its plan.
 */
import path from 'node:path';
import type { Command } from 'commander';
import YAML from 'yaml';
import { findWorkspaceRoot } from '../konfig/workspace.js';
import { PluginRegistry } from '../kcl/plugins.js';
import { parseOptionArg, runKcl } from '../kcl/run.js';
import { CMDB_PLUGIN, cmdbPlugin, resolveFromClusters, resolveFromFile, type HostTable, type PodSource } from '../recovery/cmdb.js';
import { kubectlCommand, planRecovery, runbookOf, type RecoveryPlan } from '../recovery/plan.js';
import { UserError } from '../user-error.js';
import { globalFlags } from './command-flags.js';
import type { RecoverFlags } from './recover.js';
import { openClusters } from './stack-session.js';

async function hostTable(file: string, hosts: string[], flags: RecoverFlags, command: Command): Promise<HostTable> {
  if (flags.cmdb) return resolveFromFile(hosts, path.resolve(flags.cmdb));
  if (hosts.length === 0) return { records: [], unresolved: [] };
  const { clusterSet, close } = await openClusters(globalFlags(command), findWorkspaceRoot(path.dirname(path.resolve(file))));
  try {
    const sources = new Map<string, PodSource>(clusterSet.contexts.map((c) => [c.name, clusterSet.client(c.name)]));
    return await resolveFromClusters(hosts, sources);
  } finally {
    await close();
  }
}

function planText(plan: RecoveryPlan): string {
  const { runbook, batches } = plan;
  const s = runbook.strategy;
  const clusters = [...new Set(batches.map((b) => b.cluster))];
  const what = runbook.action === 'rollout-restart' ? 'roll out again' : `${runbook.action}`;
  const lines = [
    `Runbook ${runbook.name}: ${what} ${runbook.targets.length} target${runbook.targets.length === 1 ? '' : 's'} in ${clusters.length} cluster${clusters.length === 1 ? '' : 's'}`,
    `  batches of ${s.batchSize}, at most ${s.maxUnavailable} replica${s.maxUnavailable === 1 ? '' : 's'} of a workload at once, ${s.clusterConcurrency} cluster${s.clusterConcurrency === 1 ? '' : 's'} at a time, health timeout ${s.healthTimeout}, on failure: ${s.onFailure}`,
  ];
  if (runbook.unresolved.length) lines.push(`Unresolved hostnames (no pod found): ${runbook.unresolved.join(', ')}`);
  for (const cluster of clusters) {
    lines.push('', cluster);
    for (const b of batches.filter((x) => x.cluster === cluster)) {
      lines.push(`  batch ${b.index}:`);
      for (const t of b.targets) {
        const from = [t.hostname && `host ${t.hostname}`, t.owner && `${t.owner.kind}/${t.owner.name}`].filter(Boolean).join(', ');
        lines.push(`    ${t.namespace}/${t.kind === 'Pod' ? '' : `${t.kind.toLowerCase()}/`}${t.name}${from ? `  (${from})` : ''}`);
        lines.push(`      $ ${kubectlCommand(runbook.action, t)}`);
      }
    }
  }
  if (plan.blastRadius.length) {
    lines.push('', 'Blast radius (per workload: targets, most down at once):');
    for (const r of plan.blastRadius) lines.push(`  ${r.workload}: ${r.targets}, ${r.atOnce} at once`);
  }
  lines.push('', 'Plan only: nothing was changed.');
  return lines.join('\n') + '\n';
}

export async function runRecover(file: string, flags: RecoverFlags, command: Command): Promise<void> {
  if (!flags.plan) {
    throw new UserError('running a runbook is not available yet; `kdeck recover RUNBOOK.k --plan` shows what it would do, and kubectl commands for each step');
  }
  const options = flags.argument.map(parseOptionArg);
  const hosts = (options.find(([k]) => k === 'hosts')?.[1] ?? '').split(',').filter(Boolean);
  const table = await hostTable(file, hosts, flags, command);
  const result = runKcl({ files: [path.resolve(file)], options, disableNone: true, plugins: new PluginRegistry().register(CMDB_PLUGIN, cmdbPlugin(table)) });
  const plan = planRecovery(runbookOf(YAML.parse(result.yaml)));
  if (result.printed) process.stderr.write(result.printed);
  process.stdout.write(flags.output === 'json' ? `${JSON.stringify(plan, null, 2)}\n` : planText(plan));
}
