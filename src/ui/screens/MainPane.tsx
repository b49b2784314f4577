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
import { VIEWS, type ViewId } from '../views.js';

function TabLine({ view, bindings, width }: { view: ViewId; bindings: Bindings; width: number }) {
  let used = 0;
  return (
    <Text wrap="truncate-end">
      {VIEWS.map((v) => {
        const key = bindings.get(`view.${v.id}`)?.[0];
        const label = `${key ? `${keyLabel(key)} ` : ''}${v.title}`;
        used += cells(label) + 2;
        if (used > width) return null;
        return (
          <Text key={v.id} inverse={v.id === view} bold={v.id === view} color={v.id === view ? undefined : theme.muted}>
            {` ${label} `}
          </Text>
        );
      })}
    </Text>
  );
}

export function MainPane({
  view,
  bindings,
  width,
  title,
  children,
}: {
  view: ViewId;
  bindings: Bindings;
  width: number;
  title?: string;
  children: ReactNode;
}) {
  return (
    <Box flexDirection="column">
      <TabLine view={view} bindings={bindings} width={width} />
      {title !== undefined && <Text color={theme.muted}>{cut(title, width)}</Text>}
      {children}
    </Box>
  );
}
