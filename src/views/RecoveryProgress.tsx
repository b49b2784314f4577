/**
 * The parts of a recovery run's view: a header, and a line per cluster saying where it stands
 * (gating, acting, verifying, held, paused on a failure, stopped, done), its batches as a bar
 * (✓ done, ✗ failed, – skipped, · to come), the latest health reading and, for a failure, its
 * reason. LiveRecovery puts them together for `kdeck recover` and the console's Recovery view.
 */
import { Box, Text } from 'ink';
import type { BatchOutcome, HealthNote, StepFailure } from '../workflows/recovery/model.js';
import { fit } from './text.js';
import { healthTone, phaseGlyph, theme, type Tone } from './theme.js';

export interface ClusterRow {
  cluster: string;
  /** The cluster machine's state: next, gating, acting, verifying, held, paused, stopped, aborted, done. */
  phase: string;
  index: number;
  outcomes: BatchOutcome[];
  note?: HealthNote;
  failure?: StepFailure;
  prod: boolean;
}

export interface RecoveryHeaderProps {
  runId: string;
  runbook: string;
  paused: boolean;
  aborting: boolean;
}

const PHASE: Record<string, { label: string; tone: Tone }> = {
  next: { label: 'starting', tone: 'progress' },
  gating: { label: 'gate', tone: 'progress' },
  acting: { label: 'restarting', tone: 'progress' },
  verifying: { label: 'verifying', tone: 'progress' },
  held: { label: 'held', tone: 'warning' },
  paused: { label: 'paused: failure', tone: 'danger' },
  stopped: { label: 'stopped', tone: 'danger' },
  aborted: { label: 'aborted', tone: 'warning' },
  done: { label: 'done', tone: 'ok' },
};

/** A batch shows as an applied resource does: the same glyphs mean the same things everywhere. */
const BATCH_GLYPH: Record<BatchOutcome, { glyph: string; tone: Tone }> = {
  pending: phaseGlyph.pending,
  done: phaseGlyph.succeeded,
  failed: phaseGlyph.failed,
  skipped: phaseGlyph.skipped,
};

function Batches({ row }: { row: ClusterRow }) {
  const shown = row.outcomes.slice(0, 40);
  return (
    <Text>
      {shown.map((o, i) => {
        const current = i === row.index && o === 'pending' && PHASE[row.phase]?.tone === 'progress';
        const g = current ? phaseGlyph.running : BATCH_GLYPH[o];
        return (
          <Text key={i} color={theme[g.tone]}>
            {g.glyph}
          </Text>
        );
      })}
      {row.outcomes.length > shown.length ? <Text color={theme.muted}>…</Text> : null}
    </Text>
  );
}

export function RecoveryHeader({ runId, runbook, paused, aborting }: RecoveryHeaderProps) {
  // one line, whatever the width: the console's pane has no room for a second
  return (
    <Text wrap="truncate-end">
      <Text bold>{runbook}</Text>
      <Text color={theme.muted}> run {runId}</Text>
      {paused ? <Text color={theme.warning}> · paused (clusters hold before their next batch)</Text> : null}
      {aborting ? <Text color={theme.warning}> · aborting (steps in flight finish, nothing new starts)</Text> : null}
    </Text>
  );
}

/** One cluster: its phase, its batches, and its latest health reading or failure. */
export function ClusterProgressLine({ row, width }: { row: ClusterRow; width: number }) {
  const p = PHASE[row.phase] ?? { label: row.phase, tone: 'muted' as const };
  const through = row.outcomes.filter((o) => o !== 'pending').length;
  return (
    <Box flexDirection="column">
      <Box>
        <Text color={row.prod ? theme.warning : undefined}>{fit(row.cluster, width)} </Text>
        <Text color={theme[p.tone]}>{p.label.padEnd(15)} </Text>
        <Text>
          {String(through).padStart(3)}/{row.outcomes.length}{' '}
        </Text>
        <Batches row={row} />
      </Box>
      {row.failure && (row.phase === 'paused' || row.phase === 'stopped') ? (
        <Text color={theme.danger} wrap="truncate-end">
          {'  '}
          {row.failure.reason}: {row.failure.message}
        </Text>
      ) : row.note && row.phase !== 'done' ? (
        <Text color={theme[healthTone[row.note.health.state]]} wrap="truncate-end">
          {'  '}
          {row.note.subject}: {row.note.health.state}
          {row.note.health.reason ? ` (${row.note.health.reason})` : ''}: {row.note.health.message}
        </Text>
      ) : null}
    </Box>
  );
}

export const nameWidth = (clusters: readonly string[]) => Math.max(8, ...clusters.map((c) => c.length));

export function WaitingClusters({ clusters, width }: { clusters: string[]; width: number }) {
  return (
    <>
      {clusters.map((c) => (
        <Text key={c} color={theme.muted}>
          {fit(c, width)} waiting for a free slot
        </Text>
      ))}
    </>
  );
}
