/**
 * Resources: every resource of the selected stack in apply order, with its kind, name,
 * cluster, planned action (and drift) and live health; the full id of the selected one below.
 * A compile error shows above the last good plan, which stays.
 */
import { memo, useMemo } from 'react';
import { Box, Text } from 'ink';
import type { ResourceRow } from '../derive.js';
import type { StackEntry } from '../../app/console/state.js';
import { cells, columnWidths, cut, cutMiddle, fit, fitAs, windowStart } from '../../views/text.js';
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

/**
 * The columns' widths, together exactly `width`: names and health share what kinds, clusters and
 * actions leave. The cluster column goes when every row is on one cluster (the header names it).
 */
function columns(width: number, rows: readonly ResourceRow[]) {
  // as wide as the longest kind, cluster or action shown plus a space (ServiceAccount, `UnChanged drift`)
  const widest = (texts: string[], floor: number, ceiling: number) =>
    Math.min(ceiling, Math.max(floor, ...texts.map(cells)) + 1);
  const oneCluster = new Set(rows.map((r) => r.cluster)).size <= 1;
  const [marker, kind, name, cluster, action, health] = columnWidths(width, [
    { min: 2 },
    {
      min: widest(
        rows.map((r) => r.kind),
        4,
        20,
      ),
    },
    { min: 8, grow: 3 },
    {
      min: oneCluster
        ? 0
        : widest(
            rows.map((r) => r.cluster),
            7,
            16,
          ),
    },
    {
      min: widest(
        rows.map((r) => `${r.action ?? '…'}${r.drift ? ' drift' : ''}`),
        6,
        16,
      ),
    },
    { min: 8, grow: 2 },
  ]);
  return { marker, kind, name, cluster, action, health };
}

/**
 * The namespace every namespaced row shares, if they share one: the names leave it out (the
 * column heading names it), which gives the names their room on a narrow terminal.
 */
function sharedNamespace(rows: readonly ResourceRow[]): string | undefined {
  const spaces = new Set(rows.filter((r) => r.name.includes('/')).map((r) => r.name.slice(0, r.name.indexOf('/'))));
  return spaces.size === 1 ? [...spaces][0] : undefined;
}

function healthText(r: ResourceRow): { text: string; tone: keyof typeof theme } {
  if (r.deleted) return { text: 'deleted', tone: 'danger' };
  if (!r.health) return { text: '—', tone: 'muted' };
  return {
    text: `${r.health.state}${r.health.reason ? ` (${r.health.reason})` : ''}`,
    tone: healthTone[r.health.state],
  };
}

type Columns = ReturnType<typeof columns>;

/**
 * One resource's line. Memoized: a key that moves the selection changes two rows' props (a
 * scroll shifts the window by one), so the others are not rendered again.
 */
const Row = memo(function Row({
  row: r,
  name,
  columns: c,
  selected,
  focused,
}: {
  row: ResourceRow;
  name: string;
  columns: Columns;
  selected: boolean;
  focused: boolean;
}) {
  const health = healthText(r);
  const action = r.action ?? '…';
  return (
    <Text inverse={selected && focused} bold={selected && focused} dimColor={selected && !focused}>
      <Text>{fit(selected ? '▸' : '', c.marker)}</Text>
      <Text>{fitAs(r.kind, c.kind - 1)} </Text>
      <Text>{fitAs(name, c.name - 1, 'middle')} </Text>
      {c.cluster > 0 && <Text color={theme.muted}>{fitAs(r.cluster, c.cluster - 1, 'middle')} </Text>}
      <Text color={r.action ? theme[actionTone[r.action]] : theme.muted}>{action}</Text>
      <Text color={theme.warning}>{fit(r.drift ? ' drift' : '', c.action - cells(action))}</Text>
      {/* padded only where it shows (the selection's bar): Ink tokenizes every cell it is handed */}
      <Text color={theme[health.tone]}>{selected ? fit(health.text, c.health) : cut(health.text, c.health)}</Text>
    </Text>
  );
});

export function ResourcesView({
  entry,
  rows,
  selected,
  width,
  height,
  focused,
}: ViewProps & { rows: readonly ResourceRow[]; selected?: string }) {
  // both read every row: once per list and width, not once per key
  const c = useMemo(() => columns(width, rows), [width, rows]);
  const namespace = useMemo(() => sharedNamespace(rows), [rows]);
  const nameOf = (r: ResourceRow) =>
    namespace && r.name.startsWith(`${namespace}/`) ? r.name.slice(namespace.length + 1) : r.name;
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
          `${fit('', c.marker)}${fit('KIND', c.kind)}${fit(namespace && cells(`NAME (in ${namespace})`) < c.name ? `NAME (in ${namespace})` : 'NAME', c.name)}${c.cluster ? fit('CLUSTER', c.cluster) : ''}${fit('ACTION', c.action)}HEALTH`,
          width,
        )}
      </Text>
      <Box flexDirection="column" height={tableHeight}>
        {rows.length === 0 && (
          <Text color={theme.muted}>{fit(entry.spec ? 'No resource matches the filter.' : 'Compiling…', width)}</Text>
        )}
        {shown.map((r) => (
          <Row key={r.key} row={r} name={nameOf(r)} columns={c} selected={r.key === selected} focused={focused} />
        ))}
      </Box>
      <Text color={theme.muted}>
        {current
          ? idLine(current.id, rows.length > tableHeight ? `  (${at + 1}/${rows.length})` : '', width)
          : fit('', width)}
      </Text>
    </Box>
  );
}

/** The selected resource's id, whole when it fits, else cut in its middle (its kind and name stay). */
function idLine(id: string, position: string, width: number): string {
  return fit(`${cutMiddle(id, width - cells(position))}${position}`, width);
}
