/**
 * A bordered pane that says whether it has the keys: its border in the accent colour, and its
 * title line marked ● and bold (○ and dim when the other pane has them), which shows without
 * colour too.
 */
import type { ReactNode } from 'react';
import { Box, Text } from 'ink';
import { fit } from '../../views/text.js';
import { theme } from '../../views/theme.js';

export function Pane({
  width,
  height,
  focused,
  children,
}: {
  width: number;
  height: number;
  focused: boolean;
  children: ReactNode;
}) {
  return (
    <Box
      width={width}
      height={height}
      borderStyle="round"
      borderColor={focused ? theme.accent : theme.muted}
      flexDirection="column"
      overflowY="hidden"
    >
      {children}
    </Box>
  );
}

/** The focus mark a pane's first line starts with. */
export const focusMark = (focused: boolean) => (focused ? '● ' : '○ ');

export function PaneTitle({ focused, width, children }: { focused: boolean; width: number; children: string }) {
  return (
    <Text bold={focused} color={focused ? theme.accent : theme.muted} dimColor={!focused}>
      {fit(`${focusMark(focused)}${children}`, width)}
    </Text>
  );
}
