/**
 * A recovery plan in words, for the terminal and the console: what is restarted where, in which
 * batches, how much of each workload is down at once, and the kubectl commands that would do the
 * same by hand.
 */
import { kubectlCommand, type BlastRadius, type RecoveryPlan } from './plan.js';

/** The plan as `kdeck recover --plan` prints it: targets by cluster and batch, blast radius, kubectl commands. */
export function planText(plan: RecoveryPlan): string {
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
        const from = [t.hostname && `host ${t.hostname}`, t.owner && `${t.owner.kind}/${t.owner.name}`]
          .filter(Boolean)
          .join(', ');
        lines.push(
          `    ${t.namespace}/${t.kind === 'Pod' ? '' : `${t.kind.toLowerCase()}/`}${t.name}${from ? `  (${from})` : ''}`,
        );
        lines.push(`      $ ${kubectlCommand(runbook.action, t)}`);
      }
    }
  }
  if (plan.blastRadius.length) {
    lines.push('', 'Blast radius (per workload: targets, most down at once):');
    for (const r of plan.blastRadius) lines.push(`  ${r.workload}: ${blastRadiusDetail(r)}`);
  }
  return lines.join('\n') + '\n';
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * How much of one workload a recovery takes down, with its replicas: restarting "1 at once" of
 * a single-replica workload is a full outage, and the words say so rather than leaving the
 * reader to know it.
 */
export function blastRadiusDetail(r: BlastRadius): string {
  const targets = plural(r.targets, 'target');
  if (!r.replicas) return `${r.atOnce} down at once (${targets}; replicas unknown)`;
  const { desired, ready } = r.replicas;
  const down = `${Math.min(r.atOnce, desired)} of ${plural(desired, 'replica')} down at once (${targets}, ${ready} ready)`;
  // the verdict first, so a narrow screen that cuts the line keeps it
  return r.atOnce >= desired ? `full outage: ${down}` : `${desired - r.atOnce} of ${desired} stay up: ${down}`;
}
