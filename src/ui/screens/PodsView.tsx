/**
 * Pods: a workload's pods (or those behind a Service), live, with the columns of `kubectl get
 * pods -o wide` (NODE and IP when the pane is wide enough), sorted with `:sort COLUMN`, then
 * the kubectl command that lists the same. Names are cut in the middle, keeping the
 * generated suffix that tells pods apart.
 */
import { Box, Text } from 'ink';
import type { PodRow, PodSort } from '../../app/console/pod-rows.js';
import { cells, cutMiddle, fit, windowStart } from '../../views/text.js';
import { KubectlLine, kubectlLines } from './KubectlLine.js';
import { theme } from '../../views/theme.js';

export interface PodColumns {
  name: number;
  ready: number;
  status: number;
  restarts: number;
  age: number;
  node: number;
  ip: number;
}

/**
 * Column widths for `width` cells: READY, STATUS, RESTARTS and AGE as wide as their widest
 * value, NAME the rest; NODE and IP only when NAME keeps room for the names.
 */
export function podColumns(width: number, rows: readonly PodRow[]): PodColumns {
  // a header has room for its sort arrow
  const widest = (header: string, value: (r: PodRow) => string) =>
    Math.max(cells(header) + 1, ...rows.map((r) => cells(value(r)))) + 1;
  const fixed = {
    ready: widest('READY', (r) => r.ready),
    status: widest('STATUS', (r) => r.status),
    restarts: widest('RESTARTS', (r) => r.restartsText),
    age: widest('AGE', (r) => r.age),
  };
  let rest = width - 2 - fixed.ready - fixed.status - fixed.restarts - fixed.age;
  const keep = Math.min(
    widest('NAME', (r) => r.name),
    24,
  );
  const ipWidth = widest('IP', (r) => r.ip);
  const ip = rest - ipWidth >= keep ? ipWidth : 0;
  rest -= ip;
  const nodeWidth = Math.min(
    20,
    widest('NODE', (r) => r.node),
  );
  const node = rest - nodeWidth >= keep ? nodeWidth : 0;
  rest -= node;
  return { ...fixed, name: Math.max(8, rest), node, ip };
}

export function PodsView({
  title,
  rows,
  selected,
  sort,
  loading,
  empty,
  errors,
  command,
  width,
  height,
  focused,
}: {
  title: string;
  rows: readonly PodRow[];
  selected?: string;
  sort?: PodSort;
  loading: boolean;
  /** What an empty list says once read. */
  empty: string;
  errors: readonly string[];
  /** The kubectl command that lists the same pods. */
  command: string;
  width: number;
  height: number;
  focused: boolean;
}) {
  const c = podColumns(width, rows);
  const kubectl = kubectlLines(command, width);
  const listHeight = Math.max(1, height - 2 - kubectl.length - errors.length);
  const at = rows.findIndex((r) => r.name === selected);
  const start = windowStart(rows.length, at, listHeight);
  const shown = rows.slice(start, start + listHeight);
  const mark = (column: string) => (sort?.column === column ? (sort.descending ? '↓' : '↑') : '');
  const head = (label: string, column: string, w: number) => (w ? fit(`${label}${mark(column)}`, w) : '');
  const position = rows.length > listHeight ? `  (${at + 1}/${rows.length})` : '';
  return (
    <Box flexDirection="column" height={height}>
      <Text bold>{fit(`${title}${position}`, width)}</Text>
      {errors.map((e, i) => (
        <Text key={i} color={theme.danger}>
          {fit(e, width)}
        </Text>
      ))}
      <Text color={theme.muted}>
        {fit(
          `  ${head('NAME', 'name', c.name)}${head('READY', 'ready', c.ready)}${head('STATUS', 'status', c.status)}${head('RESTARTS', 'restarts', c.restarts)}${head('AGE', 'age', c.age)}${head('NODE', 'node', c.node)}${head('IP', 'ip', c.ip)}`,
          width,
        )}
      </Text>
      <Box flexDirection="column" height={listHeight}>
        {rows.length === 0 && <Text color={theme.muted}>{fit(loading ? 'Reading the pods…' : empty, width)}</Text>}
        {shown.map((r) => {
          const isSelected = r.name === selected;
          return (
            <Text key={r.name} inverse={isSelected && focused} bold={isSelected}>
              <Text>{isSelected ? '▸ ' : '  '}</Text>
              <Text>{fit(cutMiddle(r.name, c.name - 1), c.name)}</Text>
              <Text>{fit(r.ready, c.ready)}</Text>
              <Text color={theme[r.tone]}>{fit(r.status, c.status)}</Text>
              <Text color={r.restarts > 0 ? theme.warning : undefined}>{fit(r.restartsText, c.restarts)}</Text>
              <Text>{fit(r.age, c.age)}</Text>
              {c.node > 0 && <Text color={theme.muted}>{fit(cutMiddle(r.node, c.node - 1), c.node)}</Text>}
              {c.ip > 0 && <Text color={theme.muted}>{fit(r.ip, c.ip)}</Text>}
            </Text>
          );
        })}
      </Box>
      <KubectlLine lines={kubectl} width={width} />
    </Box>
  );
}
