/**
 * The top two lines: the workspace, the contexts (prod ones in the warning colour, the
 * default underlined), read-only and watch marks; then the selected stack's compile status
 * (`✓ compiled prod in 38 ms` or `✗ main.k:12:5 …`) and its plan in numbers.
 */
import path from 'node:path';
import { memo } from 'react';
import { Box, Text } from 'ink';
import { summarize } from '../../diff/change-set.js';
import type { ConsoleState, StackEntry } from '../../app/console/state.js';
import { cells, cut } from '../../views/text.js';
import { theme } from '../../views/theme.js';

/** The compile's outcome; `short` leaves out what the rest of the line already says. */
function compileText(s: StackEntry, short: boolean): { text: string; tone: keyof typeof theme } {
  if (s.compile.state === 'error') return { text: `✗ ${s.compile.failure.summary}`, tone: 'danger' };
  if (s.compile.state === 'pending') return { text: '… compiling', tone: 'muted' };
  const ms = `${Math.round(s.compile.ms)} ms`;
  return {
    text: `✓ ${short ? ms : `compiled ${s.stack.name} in ${ms}`}${s.compiling ? ' (compiling again…)' : ''}`,
    tone: 'ok',
  };
}

/** The plan in numbers; `short` leaves out the kinds of change that have none. */
function planText(s: StackEntry, short: boolean): string {
  if (s.plan.state === 'error') return 'cannot compare with the cluster (see Events)';
  if (!s.changeSet) return s.spec ? 'comparing with the cluster…' : '';
  const n = summarize(s.changeSet.changes);
  const stale = s.compile.state === 'error' ? 'last good plan: ' : s.planning ? 'comparing again… ' : '';
  const counts: [number, string][] = [
    [n.Create, 'create'],
    [n.Update, 'update'],
    [n.Delete, 'delete'],
    [n.UnChanged, 'unchanged'],
    [n.Import, 'adopt'],
  ];
  const shown = counts.filter(([count, what]) => count > 0 || (!short && what !== 'adopt'));
  return `${stale}${shown.map(([count, what]) => `${count} ${what}`).join(', ')}`;
}

/** Memoized: it reads only the store's state, which a key that moves the selection leaves alone. */
export const Header = memo(function Header({
  state,
  stack,
  width,
}: {
  state: ConsoleState;
  stack?: StackEntry;
  width: number;
}) {
  const target = stack ? `${stack.key} → ${stack.stack.cluster ?? state.context ?? '(no context)'}` : 'no stack';
  const lineOf = (short: boolean) => ({
    compile: stack ? compileText(stack, short) : undefined,
    plan: stack ? planText(stack, short) : '',
  });
  const long = lineOf(false);
  const fits = cells(`${target}  ${long.compile?.text ?? ''}  ${long.plan}`) <= width;
  const { compile, plan } = fits ? long : lineOf(true);
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text bold color={theme.accent}>
          kdeck
        </Text>
        <Text> {path.basename(state.root)} </Text>
        <Text color={theme.muted}>· contexts: </Text>
        {state.contexts.map((c) => (
          <Text key={c.name} color={c.prod ? theme.warning : undefined} underline={c.name === state.context}>
            {c.name}
            {c.prod ? ' (prod)' : ''}{' '}
          </Text>
        ))}
        {state.readOnly && <Text color={theme.warning}>· READ-ONLY </Text>}
        {state.watching && <Text color={theme.muted}>· watching</Text>}
      </Text>
      <Text wrap="truncate-end">
        <Text bold>{`${target}  `}</Text>
        {compile && (
          <Text color={theme[compile.tone]}>{`${cut(compile.text, Math.max(20, width - cells(target) - 30))}  `}</Text>
        )}
        <Text color={theme.muted}>{plan}</Text>
      </Text>
    </Box>
  );
});
