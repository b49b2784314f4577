/**
 * The main pane: a tab line naming every view with its key, then the view the user chose (or
 * the help, a confirmation, or the context picker in its place).
 */
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { Bindings } from '../actions.js';
import { keyLabel } from '../keys.js';
import { cells, cut } from '../../views/text.js';
import { theme } from '../../views/theme.js';
import { focusMark } from '../components/Pane.js';
import { VIEWS, type ViewId } from '../views.js';

/**
 * The tab line in the room it has: every view with its key and title, padded; or, when that is
 * too wide, closer together; then titles cut to three letters; then the keys alone. Every
 * view stays named, so no view's key is hidden on a narrow terminal.
 */
function tabLabels(view: ViewId, bindings: Bindings, width: number): { id: ViewId; text: string }[] {
  const label = (v: (typeof VIEWS)[number], title: string) => {
    const key = bindings.get(`view.${v.id}`)?.[0];
    return `${key ? `${keyLabel(key)} ` : ''}${title}`.trim();
  };
  const tiers = [
    (v: (typeof VIEWS)[number]) => ` ${label(v, v.title)} `,
    (v: (typeof VIEWS)[number]) => (v.id === view ? ` ${label(v, v.title)} ` : `${label(v, v.title)} `),
    (v: (typeof VIEWS)[number]) => (v.id === view ? ` ${label(v, v.title)} ` : `${label(v, v.title.slice(0, 3))} `),
    (v: (typeof VIEWS)[number]) => (v.id === view ? ` ${label(v, v.title)} ` : `${label(v, '')} `),
  ];
  for (const tier of tiers) {
    const tabs = VIEWS.map((v) => ({ id: v.id, text: tier(v) }));
    if (tabs.reduce((n, t) => n + cells(t.text), 0) <= width) return tabs;
  }
  return VIEWS.map((v) => ({ id: v.id, text: cut(label(v, ''), 2) }));
}

function TabLine({
  view,
  bindings,
  width,
  focused,
}: {
  view: ViewId;
  bindings: Bindings;
  width: number;
  focused: boolean;
}) {
  return (
    <Text wrap="truncate-end">
      <Text bold={focused} color={focused ? theme.accent : theme.muted} dimColor={!focused}>
        {focusMark(focused)}
      </Text>
      {tabLabels(view, bindings, width - cells(focusMark(focused))).map((t) => (
        <Text key={t.id} inverse={t.id === view} bold={t.id === view} color={t.id === view ? undefined : theme.muted}>
          {t.text}
        </Text>
      ))}
    </Text>
  );
}

export function MainPane({
  view,
  bindings,
  width,
  focused,
  title,
  children,
}: {
  view: ViewId;
  bindings: Bindings;
  width: number;
  /** The main pane has the keys. */
  focused: boolean;
  title?: string;
  children: ReactNode;
}) {
  return (
    <Box flexDirection="column">
      <TabLine view={view} bindings={bindings} width={width} focused={focused} />
      {title !== undefined && <Text color={theme.muted}>{cut(title, width)}</Text>}
      {children}
    </Box>
  );
}
