/**
 * The bottom line: the keys that work here, from the action registry (so read-only mode and
 * the keymap file show through), as `key label` pairs, cut to the width.
 */
import { cells } from '../../views/text.js';
import { Text } from 'ink';
import { visibleActions, type ActionContext, type Bindings } from '../actions.js';
import { keyLabel } from '../keys.js';
import { theme } from '../../views/theme.js';

interface Hint {
  key: string;
  label: string;
  priority: number;
}

/** The view keys' hint (`1-6 views`) ranks with opening things. */
const VIEWS_PRIORITY = 7;

function footerHints(ctx: ActionContext, bindings: Bindings): Hint[] {
  const visible = visibleActions(ctx, bindings);
  const first = (id: string) => visible.find((a) => a.def.id === id)?.keys[0];
  const hints: Hint[] = visible
    .filter((a) => a.def.footer !== undefined)
    .map((a) => {
      // up and down share one hint: j/k move
      const up = a.def.id === 'down' ? first('up') : undefined;
      return {
        key: up ? `${keyLabel(a.keys[0])}/${keyLabel(up)}` : keyLabel(a.keys[0]),
        label: a.def.label,
        priority: a.def.footer!,
      };
    });
  const views = visible.filter((a) => a.def.id.startsWith('view.')).map((a) => a.keys[0]);
  if (views.length)
    hints.splice(2, 0, {
      key: views.length > 1 ? `${views[0]}-${views[views.length - 1]}` : views[0],
      label: 'views',
      priority: VIEWS_PRIORITY,
    });
  return hints;
}

/** The hints that fit in `width`, the most important kept, in their usual order. */
function fitHints(hints: Hint[], width: number): Hint[] {
  const kept = new Set<Hint>();
  let used = 0;
  for (const h of [...hints].sort((a, b) => a.priority - b.priority)) {
    const cost = cells(h.key) + cells(h.label) + 3;
    if (used + cost > width) continue;
    used += cost;
    kept.add(h);
  }
  return hints.filter((h) => kept.has(h));
}

export function Footer({ ctx, bindings, width }: { ctx: ActionContext; bindings: Bindings; width: number }) {
  const shown = fitHints(footerHints(ctx, bindings), width);
  return (
    <Text wrap="truncate-end">
      {shown.map((h) => (
        <Text key={h.label}>
          <Text bold color={theme.accent}>
            {h.key}
          </Text>
          <Text color={theme.muted}>{` ${h.label}  `}</Text>
        </Text>
      ))}
    </Text>
  );
}
