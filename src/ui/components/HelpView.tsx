/**
 * `?`: every action that works here with its keys and what it does, grouped, straight from
 * the action registry (read-only mode hides what it refuses; a keymap file's keys show), then
 * the `:` commands and where keys are remapped.
 */
import { Box, Text } from 'ink';
import { visibleActions, type ActionContext, type ActionGroup, type Bindings } from '../actions.js';
import { keyLabel } from '../keys.js';
import { COMMANDS } from '../palette.js';
import { cut, fit } from '../../views/text.js';
import { theme } from '../../views/theme.js';
import type { DiffLine } from '../screens/diff-lines.js';

const GROUPS: ActionGroup[] = ['Navigate', 'Views', 'Stack', 'Object', 'Logs', 'Recovery', 'Console'];

/** How a dangerous action of a group asks first. */
const DANGER_NOTE: Partial<Record<ActionGroup, string>> = {
  Stack: ' (asks first; on a prod context, type the stack)',
  Object: ' (asks first; on a prod context, type the context)',
};

/** `about`: lines about what is on screen first (the log view's kubectl command). */
export function helpLines(
  ctx: ActionContext,
  bindings: Bindings,
  keymapFile: string,
  about: readonly DiffLine[] = [],
): DiffLine[] {
  const actions = visibleActions(ctx, bindings);
  const lines: DiffLine[] = [...about];
  for (const g of GROUPS) {
    const inGroup = actions.filter((a) => a.def.group === g);
    if (!inGroup.length) continue;
    lines.push({ text: g, bold: true });
    for (const a of inGroup)
      lines.push({
        text: `  ${fit(a.keys.map(keyLabel).join(' '), 14)} ${fit(a.def.id, 15)} ${a.def.description}${a.def.dangerous ? (DANGER_NOTE[a.def.group] ?? '') : ''}`,
      });
  }
  if (ctx.readOnly)
    lines.push({ text: 'Read-only: apply, destroy and shell are hidden and refused.', tone: 'warning' });
  lines.push({ text: 'Commands', bold: true });
  for (const c of COMMANDS) lines.push({ text: `  ${fit(c.usage, 30)} ${c.description}` });
  lines.push({
    text: `Keys are remapped in ${keymapFile} (action: key, or action: [key, key]); the ids are in the second column.`,
    tone: 'muted',
  });
  return lines;
}

export function HelpView({
  lines,
  scroll,
  closeKey,
  scrollKeys,
  width,
  height,
}: {
  lines: DiffLine[];
  scroll: number;
  closeKey: string;
  scrollKeys: string;
  width: number;
  height: number;
}) {
  const body = Math.max(1, height - 1);
  const top = Math.min(scroll, Math.max(0, lines.length - body));
  return (
    <Box flexDirection="column" height={height}>
      <Box flexDirection="column" height={body}>
        {lines.slice(top, top + body).map((l, i) => (
          <Text key={top + i} bold={l.bold} color={l.tone ? theme[l.tone] : undefined}>
            {cut(l.text, width) || ' '}
          </Text>
        ))}
      </Box>
      <Text color={theme.muted}>
        {fit(`${closeKey} closes the help${lines.length > body ? `; ${scrollKeys} scroll` : ''}`, width)}
      </Text>
    </Box>
  );
}
