/**
 * The line above the footer: what is being typed (a `/` filter, a `:` command with its
 * completions), else the console's last message (why a key was refused, what a command did),
 * else the newest event.
 */
import { Text } from 'ink';
import type { Message, Mode } from '../navigation.js';
import { completions } from '../palette.js';
import type { ConsoleEvent } from '../../app/console/state.js';
import { cut } from '../../views/text.js';
import { theme } from '../../views/theme.js';

const levelTone = { info: 'muted', warn: 'warning', error: 'danger' } as const;

/** A line being typed: its sigil, the text with a cursor, and a hint after it. */
function Prompt({ sigil, text, hint }: { sigil: string; text: string; hint: string }) {
  return (
    <Text wrap="truncate-end">
      <Text bold color={theme.accent}>
        {sigil}
      </Text>
      <Text>{text}</Text>
      <Text inverse> </Text>
      <Text color={theme.muted}>{hint}</Text>
    </Text>
  );
}

export function StatusLine({
  mode,
  message,
  event,
  width,
}: {
  mode: Mode;
  message?: Message;
  event?: ConsoleEvent;
  width: number;
}) {
  if (mode.kind === 'palette') {
    const options = completions(mode.text);
    const hint =
      options.length > 1 || (options.length === 1 && options[0] !== mode.text) ? `   tab: ${options.join(' ')}` : '';
    return <Prompt sigil=":" text={mode.text} hint={hint} />;
  }
  if (mode.kind === 'filter') return <Prompt sigil="/" text={mode.text} hint="   enter: keep  esc: clear" />;
  if (mode.kind === 'search')
    return <Prompt sigil="/" text={mode.text} hint="   search the log  enter: keep  esc: clear" />;
  if (message) return <Text color={theme[message.tone]}>{cut(message.text, width)}</Text>;
  if (event) return <Text color={theme[levelTone[event.level]]}>{cut(event.text, width)}</Text>;
  return <Text> </Text>;
}
