/**
 * A runbook file to its RecoveryPlan, for `kdeck recover` and the console alike: the hostnames
 * it is given (`-D hosts=a,b`) looked up, then the runbook compiled with the cmdb plugin
 * answering from that look-up.
 */
import { PluginRegistry } from '../kcl/plugins.js';
import { runKcl } from '../kcl/run.js';
import { UserError } from '../diagnostics/user-error.js';
import { CMDB_PLUGIN, cmdbPlugin, type HostTable } from './cmdb.js';
import { planRecovery, runbookOf, type RecoveryPlan } from './plan.js';

/** The hostnames of `-D hosts=a,b,c`. */
export function hostsOf(options: readonly [string, string][]): string[] {
  return (options.find(([k]) => k === 'hosts')?.[1] ?? '').split(',').filter(Boolean);
}

/** The plan, and what the runbook printed while it ran. */
export function compileRunbook(
  file: string,
  options: [string, string][],
  table: HostTable,
): { plan: RecoveryPlan; printed: string } {
  const result = runKcl({
    files: [file],
    options,
    disableNone: true,
    plugins: new PluginRegistry().register(CMDB_PLUGIN, cmdbPlugin(table)),
  });
  return { plan: planRecovery(runbookOf(result.data()[0])), printed: result.printed };
}

/** Refuses a plan with nothing to restart, saying why. */
export function requireTargets(plan: RecoveryPlan, hint: string): void {
  if (plan.batches.length > 0) return;
  throw new UserError(
    plan.runbook.unresolved.length
      ? `no pod was found for ${plan.runbook.unresolved.join(', ')}: nothing to restart${hint}`
      : 'the runbook has no targets: nothing to restart',
    1,
  );
}
