/**
 * A bordered pane whose border says whether it has the keys.
 */
import type { ReactNode } from 'react';
import { Box } from 'ink';
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
      overflow="hidden"
    >
      {children}
    </Box>
  );
}
