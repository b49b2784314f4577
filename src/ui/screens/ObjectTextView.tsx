/**
 * A page of text about one object (described, or its live YAML): a title, the lines scrolled
 * with the move and page keys, the lines a `/` search matches highlighted, where the page is,
 * and the kubectl command that shows the same.
 */
import { Box, Text } from 'ink';
import { cut, fit } from '../../views/text.js';
import { KubectlLine, kubectlLines } from './KubectlLine.js';
import { theme } from '../../views/theme.js';
import type { DiffLine } from './diff-lines.js';
import { matchingLines } from './object-lines.js';

export function ObjectTextView({
  title,
  lines,
  scroll,
  search,
  command,
  width,
  height,
}: {
  title: string;
  lines: readonly DiffLine[];
  scroll: number;
  search: string;
  command: string;
  width: number;
  height: number;
}) {
  const kubectl = kubectlLines(command, width);
  const body = Math.max(1, height - 2 - kubectl.length);
  const top = Math.min(scroll, Math.max(0, lines.length - body));
  const matches = new Set(matchingLines(lines, search));
  const where = lines.length > body ? `lines ${top + 1}-${Math.min(lines.length, top + body)} of ${lines.length}` : '';
  const found = search ? `${matches.size} line${matches.size === 1 ? ' matches' : 's match'} /${search}` : '';
  return (
    <Box flexDirection="column" height={height}>
      <Text bold>{fit(title, width)}</Text>
      <Box flexDirection="column" height={body}>
        {lines.slice(top, top + body).map((l, i) => {
          const hit = matches.has(top + i);
          return (
            <Text
              key={top + i}
              inverse={hit}
              color={hit ? theme.accent : l.tone ? theme[l.tone] : undefined}
              bold={l.bold === true || hit}
            >
              {cut(l.text, width) || ' '}
            </Text>
          );
        })}
      </Box>
      <Text color={theme.muted}>{fit([where, found].filter(Boolean).join('  ·  '), width)}</Text>
      <KubectlLine lines={kubectl} width={width} />
    </Box>
  );
}
