/**
 * The top two lines: the workspace, the contexts (prod ones in the warning colour, the
 * default underlined), read-only and watch marks; then the selected stack's compile status
 * (`✓ compiled prod in 38 ms` or `✗ main.k:12:5 …`) and its plan in numbers.
 */
import path from 'node:path';
import { Box, Text } from 'ink';
import { summarize } from '../../diff/change-set.js';
import type { ConsoleState, StackEntry } from '../../app/console/state.js';
import { cells, cut } from '../../views/text.js';
import { theme } from '../../views/theme.js';

function compileText(s: StackEntry): { text: string; tone: keyof typeof theme } {
  if (s.compile.state === 'error') return { text: `✗ ${s.compile.failure.summary}`, tone: 'danger' };
  if (s.compile.state === 'pending') return { text: '… compiling', tone: 'muted' };
  return {
    text: `✓ compiled ${s.stack.name} in ${Math.round(s.compile.ms)} ms${s.compiling ? ' (compiling again…)' : ''}`,
    tone: 'ok',
  };
}

function planText(s: StackEntry): string {
  if (s.plan.state === 'error') return 'cannot compare with the cluster (see Events)';
  if (!s.changeSet) return s.spec ? 'comparing with the cluster…' : '';
  const n = summarize(s.changeSet.changes);
  const stale = s.compile.state === 'error' ? 'last good plan: ' : s.planning ? 'comparing again… ' : '';
  return `${stale}${n.Create} create, ${n.Update} update, ${n.Delete} delete, ${n.UnChanged} unchanged${n.Import ? `, ${n.Import} adopt` : ''}`;
}

export function Header({ state, stack, width }: { state: ConsoleState; stack?: StackEntry; width: number }) {
  const compile = stack ? compileText(stack) : undefined;
  const plan = stack ? planText(stack) : '';
  const target = stack ? `${stack.key} → ${stack.stack.cluster ?? state.context ?? '(no context)'}` : 'no stack';
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
}
