/**
 * Events: what the console saw, newest last: compiles and their errors, saved files, drift,
 * operations, watch reconnects. It follows the newest unless scrolled back.
 */
import { Box, Text } from 'ink';
import type { ConsoleEvent } from '../../app/console/state.js';
import { cut, fit } from '../../views/text.js';
import { clock } from '../time.js';
import { theme } from '../../views/theme.js';

const GLYPH = {
  info: { glyph: '·', tone: 'muted' },
  warn: { glyph: '!', tone: 'warning' },
  error: { glyph: '✗', tone: 'danger' },
} as const;

export function EventsView({
  events,
  scroll,
  newerKeys,
  width,
  height,
}: {
  events: readonly ConsoleEvent[];
  scroll: number;
  /** the down and bottom keys, as bound */ newerKeys: string;
  width: number;
  height: number;
}) {
  const bodyHeight = Math.max(1, height - 1);
  const back = Math.min(scroll, Math.max(0, events.length - bodyHeight));
  const end = events.length - back;
  const shown = events.slice(Math.max(0, end - bodyHeight), end);
  return (
    <Box flexDirection="column" height={height}>
      <Box flexDirection="column" height={bodyHeight}>
        {events.length === 0 && <Text color={theme.muted}>{fit('Nothing has happened yet.', width)}</Text>}
        {shown.map((e, i) => (
          <Text key={end - shown.length + i}>
            <Text color={theme.muted}>{clock(e.at)} </Text>
            <Text color={theme[GLYPH[e.level].tone]}>{GLYPH[e.level].glyph} </Text>
            <Text color={e.level === 'info' ? undefined : theme[GLYPH[e.level].tone]}>{cut(e.text, width - 11)}</Text>
          </Text>
        ))}
      </Box>
      <Text color={theme.muted}>
        {fit(
          back
            ? `${back} newer event${back === 1 ? '' : 's'} below (${newerKeys})`
            : `${events.length} event${events.length === 1 ? '' : 's'}, following the newest`,
          width,
        )}
      </Text>
    </Box>
  );
}
