/**
 * Per-resource progress of an apply or destroy: the phase, the latest health verdict and what
 * went wrong, in the order the change set runs, with a summary line. Used by `kdeck apply` on a
 * terminal and by the console's Apply view.
 */
import { Box, Text } from 'ink';
import { changeKey, type ChangeSet } from '../diff/change-set.js';
import type { ResourceProgress } from '../workflows/operation-machine.js';
import { cells, cutMiddle, fit } from './text.js';
import { healthTone, phaseGlyph, theme } from './theme.js';

export interface OperationProgressProps {
  changeSet: ChangeSet;
  progress: Record<string, ResourceProgress>;
  /** Rows to show at most; the rest are summarised (the frame must fit the terminal). */
  maxRows: number;
  /** Columns it may use (the console's pane); the id column narrows to fit. */
  width?: number;
}

export function OperationProgress({ changeSet, progress, maxRows, width: columns }: OperationProgressProps) {
  const rows = changeSet.changes.filter((c) => c.action !== 'UnChanged');
  const clusterWidth = Math.max(0, ...rows.map((c) => cells(c.cluster))) + 1;
  // leave the health message at least a third of a narrow pane
  const room = columns === undefined ? 70 : Math.max(10, Math.floor((columns - 10 - clusterWidth) * 0.6));
  const width = Math.min(room, Math.max(...rows.map((c) => cells(c.id)), 10));
  // rows still moving first, so a long run keeps the interesting part on screen
  const active = (p?: ResourceProgress) => p?.phase === 'running' || p?.phase === 'applied' || p?.phase === 'failed';
  const ordered = [
    ...rows.filter((c) => active(progress[changeKey(c)])),
    ...rows.filter((c) => !active(progress[changeKey(c)])),
  ];
  const shown = ordered.slice(0, maxRows);
  const count = (phase: ResourceProgress['phase']) =>
    rows.filter((c) => (progress[changeKey(c)]?.phase ?? 'pending') === phase).length;
  return (
    <Box flexDirection="column" width={columns}>
      {shown.map((c) => {
        const p = progress[changeKey(c)] ?? { phase: 'pending' as const };
        const g = phaseGlyph[p.phase];
        return (
          <Box key={`${c.cluster}/${c.id}`}>
            <Box flexShrink={0}>
              <Text color={theme[g.tone]}>{g.glyph} </Text>
              <Text>{c.action.padEnd(7)} </Text>
              <Text>{fit(compactId(c.id, width), width)} </Text>
              <Text color={theme.muted}>{c.cluster} </Text>
            </Box>
            <Detail progress={p} />
          </Box>
        );
      })}
      {ordered.length > shown.length && <Text color={theme.muted}>… and {ordered.length - shown.length} more</Text>}
      <Text>
        <Text color={theme.ok}>{count('succeeded')} done</Text>
        {', '}
        <Text color={theme.progress}>{count('running') + count('applied')} running</Text>
        {', '}
        <Text color={theme.danger}>{count('failed')} failed</Text>
        {', '}
        <Text color={theme.warning}>{count('skipped')} skipped</Text>
        {', '}
        <Text color={theme.muted}>{count('pending')} waiting</Text>
        {count('stopped') > 0 && <Text color={theme.warning}>, {count('stopped')} stopped while progressing</Text>}
        {count('forgotten') > 0 && <Text color={theme.muted}>, {count('forgotten')} forgotten (kept)</Text>}
      </Text>
    </Box>
  );
}

/** An id in `width` columns: whole, else without its apiVersion, else cut in the middle (its kind and name stay). */
function compactId(id: string, width: number): string {
  if (cells(id) <= width) return id;
  return cutMiddle(id.slice(id.indexOf(':') + 1), width);
}

/** What to say about a row: why it failed, was skipped, stopped or kept, else its latest health. */
function Detail({ progress: p }: { progress: ResourceProgress }) {
  let text: string | undefined;
  let tone: keyof typeof theme = 'warning';
  if (p.phase === 'stopped' && p.health)
    [text, tone] = [
      `stopped while ${p.health.state}${p.health.reason ? ` (${p.health.reason})` : ''}: ${p.health.message}`,
      phaseGlyph.stopped.tone,
    ];
  else if (
    (p.phase === 'failed' || p.phase === 'skipped' || p.phase === 'stopped' || p.phase === 'forgotten') &&
    p.message
  )
    [text, tone] = [p.message, phaseGlyph[p.phase].tone];
  else if (p.health)
    [text, tone] = [
      `${p.health.state}${p.health.reason ? ` (${p.health.reason})` : ''}: ${p.health.message}`,
      healthTone[p.health.state],
    ];
  else text = p.message;
  return text ? (
    <Text color={theme[tone]} wrap="truncate-end">
      {text}
    </Text>
  ) : null;
}
