/**
 * Resources: every resource of the selected stack in apply order, with its kind, name,
 * cluster, planned action (and drift) and live health; the full id of the selected one below.
 * A compile error shows above the last good plan, which stays.
 */
import { Box, Text } from 'ink';
import type { ResourceRow } from '../derive.js';
import type { StackEntry } from '../../app/console/state.js';
import { cells, cut, cutStart, fit, windowStart } from '../../views/text.js';
import { actionTone, healthTone, theme } from '../../views/theme.js';

export interface ViewProps {
  entry: StackEntry;
  width: number;
  height: number;
  focused: boolean;
}

/** The first lines of a compile error, for the top of a view; the plan below is the last good one. */
export function CompileError({ entry, width, lines }: { entry: StackEntry; width: number; lines: number }) {
  if (entry.compile.state !== 'error') return null;
  const text = entry.compile.failure.text.trimEnd().split('\n').slice(0, lines);
  return (
    <Box flexDirection="column">
      {text.map((l, i) => (
        <Text key={i} color={theme.danger}>
          {fit(l, width)}
        </Text>
      ))}
      <Text color={theme.muted}>
        {fit(
          entry.changeSet
            ? 'The last good plan, until the error is fixed:'
            : 'Nothing compiled yet: fix the error and save.',
          width,
        )}
      </Text>
    </Box>
  );
}

export function errorLines(entry: StackEntry, height: number): number {
  if (entry.compile.state !== 'error') return 0;
  return Math.min(entry.compile.failure.text.trimEnd().split('\n').length, Math.max(2, Math.floor(height / 3)));
}

function columns(width: number, rows: readonly ResourceRow[]) {
  // as wide as the longest kind shown plus a space (ServiceAccount, PodDisruptionBudget), up to 20
  const kind = Math.min(20, Math.max(4, ...rows.map((r) => cells(r.kind))) + 1);
  const cluster = 10;
  const action = 13;
  const health = Math.max(12, Math.floor((width - 2 - kind - cluster - action) * 0.3));
  const name = Math.max(10, width - 2 - kind - cluster - action - health);
  return { kind, name, cluster, action, health };
}

function healthText(r: ResourceRow): { text: string; tone: keyof typeof theme } {
  if (r.deleted) return { text: 'deleted', tone: 'danger' };
  if (!r.health) return { text: '—', tone: 'muted' };
  return {
    text: `${r.health.state}${r.health.reason ? ` (${r.health.reason})` : ''}`,
    tone: healthTone[r.health.state],
  };
}

export function ResourcesView({
  entry,
  rows,
  selected,
  width,
  height,
  focused,
}: ViewProps & { rows: readonly ResourceRow[]; selected?: string }) {
  const c = columns(width, rows);
  const errors = errorLines(entry, height);
  const tableHeight = Math.max(1, height - 2 - (errors ? errors + 1 : 0));
  const at = rows.findIndex((r) => r.key === selected);
  const start = windowStart(rows.length, at, tableHeight);
  const shown = rows.slice(start, start + tableHeight);
  const current = rows[at];
  return (
    <Box flexDirection="column" height={height}>
      <CompileError entry={entry} width={width} lines={errors} />
      <Text color={theme.muted}>
        {fit(
          `  ${fit('KIND', c.kind)}${fit('NAME', c.name)}${fit('CLUSTER', c.cluster)}${fit('ACTION', c.action)}HEALTH`,
          width,
        )}
      </Text>
      <Box flexDirection="column" height={tableHeight}>
        {rows.length === 0 && (
          <Text color={theme.muted}>{fit(entry.spec ? 'No resource matches the filter.' : 'Compiling…', width)}</Text>
        )}
        {shown.map((r) => {
          const isSelected = r.key === selected;
          const health = healthText(r);
          const action = r.action ?? '…';
          return (
            <Text key={r.key} inverse={isSelected && focused} bold={isSelected}>
              <Text>{isSelected ? '▸ ' : '  '}</Text>
              <Text>{fit(cut(r.kind, c.kind - 1), c.kind)}</Text>
              <Text>{fit(cutStart(r.name, c.name - 1), c.name)}</Text>
              <Text color={theme.muted}>{fit(r.cluster, c.cluster)}</Text>
              <Text color={r.action ? theme[actionTone[r.action]] : theme.muted}>{action}</Text>
              <Text color={theme.warning}>{fit(r.drift ? ' drift' : '', c.action - cells(action))}</Text>
              <Text color={theme[health.tone]}>{fit(health.text, c.health)}</Text>
            </Text>
          );
        })}
      </Box>
      <Text color={theme.muted}>
        {fit(current ? `${current.id}${rows.length > tableHeight ? `  (${at + 1}/${rows.length})` : ''}` : '', width)}
      </Text>
    </Box>
  );
}
