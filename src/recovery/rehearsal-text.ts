/**
 * A rehearsal in words, for the terminal (and the console's text panes): the forecast per cluster
 * and overall against its lower bound, each batch's timeline, availability per workload, every
 * gate decision, refused eviction and pause, then what the rehearsal could not know. Pure.
 */
import type { Rehearsal } from './rehearsal.js';

export const secondsText = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const at = (ms: number | undefined) => (ms === undefined ? '—' : `+${secondsText(ms)}`);

export function rehearsalText(r: Rehearsal): string {
  const lines = [
    `Rehearsal of ${r.runbook} (${r.action}) on an embedded copy of ${r.predicted.clusters.length} cluster${r.predicted.clusters.length === 1 ? '' : 's'}, ${r.timeScale === 1 ? 'at real time' : `at ${(1 / r.timeScale).toFixed(1)}× speed`} (took ${secondsText(r.tookMs)}):`,
    `  predicted wall time ${secondsText(r.predicted.overallMs)}; lower bound ${secondsText(r.lowerBound.overallMs)} (batches in order × each workload's readiness), ratio ${r.ratio.toFixed(2)}`,
  ];
  for (const c of r.predicted.clusters) {
    const bound = r.lowerBound.clusters.find((b) => b.cluster === c.cluster)?.ms ?? 0;
    lines.push('', `${c.cluster}: ${secondsText(c.wallMs)} (${c.end}; lower bound ${secondsText(bound)})`);
    for (const b of r.batches.filter((x) => x.cluster === c.cluster)) {
      const held = r.gates.some((g) => g.cluster === b.cluster && g.batch === b.index && g.decision === 'held');
      const waited =
        held && b.startMs !== undefined && b.gateOpenMs !== undefined
          ? `, gate held ${secondsText(b.gateOpenMs - b.startMs)}`
          : '';
      lines.push(
        `  batch ${b.index}: ${b.outcome} at ${at(b.endMs)} (started ${at(b.startMs)}${waited}): ${b.targets.join(', ')}`,
      );
    }
  }
  if (r.workloads.length) {
    lines.push('', 'Availability (per workload: lowest available replicas, when; readiness used):');
    for (const w of r.workloads) {
      const readiness =
        w.readiness.source === 'pods'
          ? `readiness ${secondsText(w.readiness.ms)} measured on ${w.readiness.samples} pod${w.readiness.samples === 1 ? '' : 's'}`
          : `readiness ${secondsText(w.readiness.ms)} assumed (--readiness; no pod's timestamps told)`;
      lines.push(
        `  ${w.workload}: ${w.minAvailable} of ${w.desired} at ${at(w.minAtMs)} (${w.availableBefore} before); ${readiness}`,
      );
    }
  }
  const held = r.gates.filter((g) => g.decision === 'held');
  lines.push(
    '',
    held.length
      ? `Gate decisions (${held.length} held, ${r.gates.length - held.length} opened):`
      : `Gate decisions: all ${r.gates.length} opened at once`,
  );
  for (const g of held.length ? r.gates : [])
    lines.push(
      `  ${at(g.atMs)} ${g.cluster} batch ${g.batch}: ${g.decision}${g.subject ? ` by ${g.subject}` : ''}: ${g.message}`,
    );
  lines.push('', r.refusals.length ? 'Evictions refused (PodDisruptionBudget):' : 'Evictions refused: none');
  for (const x of r.refusals) lines.push(`  ${at(x.atMs)} ${x.cluster} batch ${x.batch}: ${x.target}: ${x.message}`);
  lines.push('', r.pauses.length ? 'Batches that would stop the run:' : 'Batches that would pause: none');
  for (const p of r.pauses)
    lines.push(
      `  ${at(p.atMs)} ${p.cluster} batch ${p.batch}: ${p.reason}: ${p.message} (${p.policy === 'pause' ? 'would pause for the operator' : p.policy === 'abort' ? 'would stop the cluster' : 'would go on to the next batch'})`,
    );
  lines.push('', 'What a rehearsal cannot know:', ...r.limits.map((l) => `  - ${l}`));
  return lines.join('\n') + '\n';
}
