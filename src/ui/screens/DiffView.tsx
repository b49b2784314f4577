/**
 * Diff: the selected resource's three-way comparison (state, plan, live) and its field-level
 * diff, scrolled with page keys; j/k move to the next resource. Long values show around their
 * change, wrap (w) or scroll sideways (< >). A compile error shows above the last good plan.
 */
import { useMemo } from 'react';
import { Box, Text } from 'ink';
import type { ResourceChange } from '../../diff/change-set.js';
import { cut, fit } from '../../views/text.js';
import { theme } from '../../views/theme.js';
import { diffLines, type DiffLine, type Layout } from './diff-lines.js';
import { CompileError, errorLines, type ViewProps } from './ResourcesView.js';

/** One line: its pieces when it has them (a table row marks changed parts), else its text cut to the width. */
function Line({ line, width }: { line: DiffLine; width: number }) {
  if (!line.segments)
    return (
      <Text color={line.tone ? theme[line.tone] : undefined} bold={line.bold}>
        {cut(line.text, width) || ' '}
      </Text>
    );
  return (
    <Text>
      {line.segments.map((s, i) => (
        <Text key={i} color={s.tone ? theme[s.tone] : undefined} bold={s.changed} underline={s.changed}>
          {s.text}
        </Text>
      ))}
    </Text>
  );
}

export function DiffView({
  entry,
  change,
  scroll,
  layout,
  keys,
  width,
  height,
}: ViewProps & {
  change?: ResourceChange;
  scroll: number;
  layout: Layout;
  /** The keys as bound, for the line at the bottom. */
  keys: { page: string; wrap: string; shift: string };
}) {
  const lines = useMemo(() => (change ? diffLines(change, width, layout) : []), [change, width, layout]);
  const errors = errorLines(entry, height);
  const bodyHeight = Math.max(1, height - (errors ? errors + 1 : 0) - 1);
  const top = Math.min(scroll, Math.max(0, lines.length - bodyHeight));
  const where =
    lines.length > bodyHeight
      ? `lines ${top + 1}-${Math.min(lines.length, top + bodyHeight)} of ${lines.length} (${keys.page})  `
      : '';
  const how = layout.wrap
    ? `${keys.wrap}: one line each`
    : `${keys.wrap}: wrap  ${keys.shift}: scroll sideways${layout.shift ? ` (${layout.shift} in)` : ''}`;
  return (
    <Box flexDirection="column" height={height}>
      <CompileError entry={entry} width={width} lines={errors} />
      <Box flexDirection="column" height={bodyHeight}>
        {!change && (
          <Text color={theme.muted}>
            {fit(
              entry.changeSet
                ? 'Select a resource (Resources or Graph) to see its diff.'
                : 'Comparing with the cluster…',
              width,
            )}
          </Text>
        )}
        {lines.slice(top, top + bodyHeight).map((l, i) => (
          <Line key={top + i} line={l} width={width} />
        ))}
      </Box>
      <Text color={theme.muted}>{fit(change ? `${where}${how}` : '', width)}</Text>
    </Box>
  );
}
