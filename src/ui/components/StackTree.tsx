/**
 * The project → stack tree, a badge per stack (unchanged, N changes, drift, unhealthy, error),
 * the selected stack marked, stacks on prod contexts in the warning colour. Windowed to its
 * height.
 */
import { Box, Text } from 'ink';
import { stackBadge } from '../derive.js';
import type { ConsoleState, StackEntry } from '../../app/console/state.js';
import { cells, fit, windowStart } from '../../views/text.js';
import { theme } from '../../views/theme.js';

interface Line {
  key: string;
  project?: string;
  entry?: StackEntry;
}

/** Project headings and their stacks, in workspace order. */
function treeLines(stacks: readonly StackEntry[]): Line[] {
  const lines: Line[] = [];
  let project: string | undefined;
  for (const s of stacks) {
    if (s.stack.project.name !== project) {
      project = s.stack.project.name;
      lines.push({ key: `project:${project}`, project });
    }
    lines.push({ key: s.key, entry: s });
  }
  return lines;
}

export interface StackTreeProps {
  state: ConsoleState;
  stacks: readonly StackEntry[];
  selected?: string;
  width: number;
  height: number;
  focused: boolean;
  prod: ReadonlySet<string>;
}

export function StackTree({ state, stacks, selected, width, height, focused, prod }: StackTreeProps) {
  const lines = treeLines(stacks);
  const at = lines.findIndex((l) => l.key === selected);
  const start = windowStart(lines.length, at, height);
  const shown = lines.slice(start, start + height);
  if (stacks.length === 0) return <Text color={theme.muted}>{fit('no stack matches', width)}</Text>;
  return (
    <Box flexDirection="column">
      {shown.map((l) => {
        if (l.project) {
          return (
            <Text key={l.key} bold>
              {fit(l.project, width)}
            </Text>
          );
        }
        const s = l.entry!;
        const badge = stackBadge(s, state.operations.get(s.key));
        const isSelected = s.key === selected;
        const onProd = prod.has(s.stack.cluster ?? state.context ?? '');
        const nameWidth = Math.max(4, width - cells(badge.text) - 4);
        return (
          <Text
            key={l.key}
            inverse={isSelected && focused}
            bold={isSelected && focused}
            dimColor={isSelected && !focused}
          >
            <Text>{isSelected ? '▸ ' : '  '}</Text>
            <Text color={onProd ? theme.warning : undefined}>{fit(s.stack.name, nameWidth)}</Text>
            <Text> </Text>
            <Text color={theme[badge.tone]}>{fit(badge.text, width - nameWidth - 3)}</Text>
          </Text>
        );
      })}
    </Box>
  );
}
