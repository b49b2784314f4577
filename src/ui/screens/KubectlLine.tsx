/**
 * The kubectl command that does what a per-object page shows, at its foot: wrapped (at most
 * KUBECTL_LINES lines, cut in the middle past them) so it can be read and copied whole.
 */
import { Box, Text } from 'ink';
import { cutMiddle, fit, wrapWords } from '../../views/text.js';
import { theme } from '../../views/theme.js';

export const KUBECTL_LINES = 3;

/** The command's lines at `width`. */
export function kubectlLines(command: string, width: number): string[] {
  const lines = wrapWords(`$ ${command}`, width);
  if (lines.length <= KUBECTL_LINES) return lines;
  const kept = lines.slice(0, KUBECTL_LINES - 1);
  return [...kept, cutMiddle(lines.slice(KUBECTL_LINES - 1).join(' '), width)];
}

export function KubectlLine({ lines, width }: { lines: readonly string[]; width: number }) {
  return (
    <Box flexDirection="column">
      {lines.map((l, i) => (
        <Text key={i} color={theme.muted}>
          {fit(l, width)}
        </Text>
      ))}
    </Box>
  );
}
