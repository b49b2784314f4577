/**
 * A recovery plan as the Recovery view shows it: the runbook and its strategy, the batches
 * per cluster with their targets and where each came from, the blast radius per workload.
 * Pure.
 */
import type { RecoveryPlan } from '../../recovery/plan.js';
import { blastRadiusDetail } from '../../recovery/plan-text.js';
import type { DiffLine } from './diff-lines.js';

export function recoveryLines(plan: RecoveryPlan): DiffLine[] {
  const { runbook, batches } = plan;
  const s = runbook.strategy;
  const clusters = [...new Set(batches.map((b) => b.cluster))];
  const what = runbook.action === 'rollout-restart' ? 'roll out again' : runbook.action;
  const lines: DiffLine[] = [
    {
      text: `Runbook ${runbook.name}: ${what} ${runbook.targets.length} target${runbook.targets.length === 1 ? '' : 's'} in ${clusters.length} cluster${clusters.length === 1 ? '' : 's'}`,
      bold: true,
    },
    {
      text: `batches of ${s.batchSize}, at most ${s.maxUnavailable} of a workload at once, ${s.clusterConcurrency} clusters at a time, health timeout ${s.healthTimeout}, on failure: ${s.onFailure}`,
      tone: 'muted',
    },
  ];
  if (runbook.unresolved.length)
    lines.push({ text: `Unresolved hostnames (no pod found): ${runbook.unresolved.join(', ')}`, tone: 'warning' });
  for (const cluster of clusters) {
    lines.push({ text: '' }, { text: cluster, bold: true });
    for (const b of batches.filter((x) => x.cluster === cluster)) {
      lines.push({ text: `  batch ${b.index}`, tone: 'accent' });
      for (const t of b.targets) {
        const from = [t.hostname && `host ${t.hostname}`, t.owner && `${t.owner.kind}/${t.owner.name}`]
          .filter(Boolean)
          .join(', ');
        lines.push({
          text: `    ${t.namespace}/${t.kind === 'Pod' ? '' : `${t.kind.toLowerCase()}/`}${t.name}${from ? `  (${from})` : ''}`,
        });
      }
    }
  }
  if (plan.blastRadius.length) {
    lines.push({ text: '' }, { text: 'Blast radius (per workload: targets, most down at once)', bold: true });
    // two lines each: workload names are long, and the outage warning must not be cut off
    for (const r of plan.blastRadius) lines.push({ text: `  ${r.workload}` }, { text: `    ${blastRadiusDetail(r)}` });
  }
  return lines;
}
