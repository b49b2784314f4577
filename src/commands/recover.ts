/**
 * `kdeck recover RUNBOOK.k`: a recovery runbook's plan (targets by cluster, batches, blast
 * radius, kubectl commands), and its run, batch by batch, gated on health, resumable with
 * `--resume RUN_ID`. What it does is in recover-run.ts, loaded when it runs.
 */
import { Command, Option } from 'commander';
import { collect } from './command-flags.js';

export interface RecoverFlags {
  argument: string[];
  cmdb?: string;
  plan?: boolean;
  yes?: boolean;
  confirm?: string;
  resume?: string;
  rehearse?: boolean;
  readiness?: string;
  timeScale?: string;
  output: 'text' | 'json';
}

export function recoverCommand(): Command {
  return new Command('recover')
    .description(
      'run a recovery runbook: restart the pods behind failing hostnames (or roll workloads), batch by batch, gated on health',
    )
    .argument('[runbook]', 'the runbook file (.k), e.g. konfig-sample/runbooks/AppRecovery.k')
    .option('-D, --argument <key=value>', 'a top-level argument, read with option("key"): hosts=a,b,c', collect, [])
    .option(
      '--cmdb <file>',
      'a CMDB file (YAML or CSV: hostname, cluster, namespace, pod) instead of asking the clusters',
    )
    .option('--plan', 'print the plan and change nothing')
    .option(
      '--rehearse',
      'first run the plan against an embedded copy of its clusters (read, never written) and report the forecast; then, if confirmed, run the same plan for real',
    )
    .option(
      '--readiness <duration>',
      "with --rehearse: a workload's start-to-Ready time when none of its pods' timestamps tell it (default 10s)",
    )
    .option(
      '--time-scale <x>',
      'with --rehearse: real time per second of the rehearsal (1 real time, default 0.25: four times as fast)',
    )
    .option('-y, --yes', 'run without asking (production clusters still need --confirm)')
    .option('--confirm <clusters>', 'the production clusters the run touches, typed out: prod-eu,prod-us')
    .option(
      '--resume <run-id>',
      'carry on a run that was interrupted, paused or stopped on a failure (.kdeck/runs/<run-id>)',
    )
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (runbook: string | undefined, flags: RecoverFlags, command: Command) => {
      const { runRecover } = await import('./recover-run.js');
      await runRecover(runbook, flags, command);
    });
}
