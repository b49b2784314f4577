/**
 * Diff: the selected resource's three-way comparison (state, plan, live) and its field-level
 * diff, scrolled with page keys; j/k move to the next resource. A compile error shows above
 * the last good plan.
 */
import { useMemo } from 'react';
import { Box, Text } from 'ink';
import type { ResourceChange } from '../../diff/change-set.js';
import { cut, fit } from '../../views/text.js';
import { theme } from '../../views/theme.js';
import { diffLines } from './diff-lines.js';
import { CompileError, errorLines, type ViewProps } from './ResourcesView.js';

export function DiffView({
  entry,
  change,
  scroll,
  pageKeys,
  width,
  height,
}: ViewProps & { change?: ResourceChange; scroll: number; /** `pgup/pgdn`, as bound */ pageKeys: string }) {
  const lines = useMemo(() => (change ? diffLines(change, width) : []), [change, width]);
  const errors = errorLines(entry, height);
  const bodyHeight = Math.max(1, height - (errors ? errors + 1 : 0) - 1);
  const top = Math.min(scroll, Math.max(0, lines.length - bodyHeight));
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
          <Text key={top + i} color={l.tone ? theme[l.tone] : undefined} bold={l.bold}>
            {cut(l.text, width) || ' '}
          </Text>
        ))}
      </Box>
      <Text color={theme.muted}>
        {fit(
          lines.length > bodyHeight
            ? `lines ${top + 1}-${Math.min(lines.length, top + bodyHeight)} of ${lines.length} (${pageKeys})`
            : '',
          width,
        )}
      </Text>
    </Box>
  );
}
