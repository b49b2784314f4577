/**
 * `kdeck recover RUNBOOK.k`: a recovery runbook's plan (targets by cluster, batches, blast
 * radius, kubectl commands). What it does is in recover-run.ts, loaded when it runs.
 */
import { Command, Option } from 'commander';
import { collect } from './command-flags.js';

export interface RecoverFlags {
  argument: string[];
  cmdb?: string;
  plan?: boolean;
  output: 'text' | 'json';
}

export function recoverCommand(): Command {
  return new Command('recover')
    .description('plan a recovery runbook: the pods or workloads it restarts, batch by batch, per cluster')
    .argument('<runbook>', 'the runbook file (.k), e.g. konfig-sample/runbooks/AppRecovery.k')
    .option('-D, --argument <key=value>', 'a top-level argument, read with option("key"): hosts=a,b,c', collect, [])
    .option('--cmdb <file>', 'a CMDB file (YAML or CSV: hostname, cluster, namespace, pod) instead of asking the clusters')
    .option('--plan', 'print the plan and change nothing')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (runbook: string, flags: RecoverFlags, command: Command) => {
      const { runRecover } = await import('./recover-run.js');
      await runRecover(runbook, flags, command);
    });
}
