/**
 * `kdeck apply` and `kdeck destroy`: the commands and their flags. What they do is in
 * apply-run.ts, loaded when one runs, so that other commands start without it.
 */
import { Command } from 'commander';
import type { Operation } from '../workflows/stack-operation.js';
import { DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS } from '../app/policy/operation-limits.js';
import { withStackOptions, type StackFlags } from './command-flags.js';

export type { Operation };

export interface OperationFlags extends StackFlags {
  yes?: boolean;
  confirm?: string;
  watch: boolean;
  dryRun?: boolean;
  timeout: string;
  healthGrace?: string;
  concurrency: string;
  failFast?: boolean;
  forceConflicts?: boolean;
}

export function operationCommand(operation: Operation): Command {
  const cmd = new Command(operation)
    .description(
      operation === 'apply'
        ? 'apply the stack: preview, confirm, then apply every change in dependency order and follow its health'
        : 'delete every resource kdeck applied for the stack, dependents first',
    )
    .option('-y, --yes', 'do not ask for confirmation (not enough for production: see --confirm)')
    .option(
      '--confirm <contexts>',
      'the production contexts the change touches, by name (comma-separated): the confirmation production needs without a terminal',
    )
    .option(
      '--timeout <duration>',
      'how long each resource may take to become healthy or to be deleted',
      `${DEFAULT_TIMEOUT_MS / 60_000}m`,
    )
    .option(
      '--concurrency <n>',
      'API calls in flight at once (a resource waiting for its health holds none)',
      String(DEFAULT_CONCURRENCY),
    )
    .option('--fail-fast', 'start nothing new after the first failure')
    .option('--ignore-fields <paths>', 'dotted paths left out of the comparison, comma-separated');
  if (operation === 'apply') {
    cmd
      .option('--no-watch', 'do not follow health after applying (dependents then start once a resource is applied)')
      .option(
        '--health-grace <duration>',
        'how long a pod may crash-loop, fail to pull its image or go unscheduled (from its creation) before its workload fails',
        '30s',
      )
      .option('--dry-run', 'preview and report what would be applied, changing nothing')
      .option('--force-conflicts', 'take over fields another field manager owns');
  }
  return withStackOptions(cmd).action(async (flags: OperationFlags, command: Command) => {
    const { runOperationCommand } = await import('./apply-run.js');
    await runOperationCommand(operation, flags, command);
  });
}
