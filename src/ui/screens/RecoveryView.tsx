/**
 * Recovery: the plan of a runbook asked for with `:recover RUNBOOK hosts=...` (targets by
 * cluster, batches, blast radius). Running the plan belongs to the runbook machine; until it
 * is part of kdeck, this view shows the plan and says so.
 */
import { useMemo } from 'react';
import { Box, Text } from 'ink';
import type { RecoveryEntry } from '../session/recovery.js';
import { cut, fit } from '../text.js';
import { theme } from '../theme.js';
import { recoveryLines } from './recovery-lines.js';

export function RecoveryView({ recovery, runbooks, recoverKey, scroll, width, height }: { recovery?: RecoveryEntry; runbooks: string[]; recoverKey: string; scroll: number; width: number; height: number }) {
  const lines = useMemo(() => (recovery?.state === 'planned' ? recoveryLines(recovery.plan) : []), [recovery]);
  if (!recovery) {
    const example = runbooks[0] ?? 'runbooks/AppRecovery.k';
    return (
      <Box flexDirection="column">
        <Text>{fit('No runbook yet.', width)}</Text>
        <Text color={theme.muted}>{cut(`Press ${recoverKey} or type :recover RUNBOOK hosts=a,b — for example :recover ${example} hosts=web-1,web-2`, width)}</Text>
        {runbooks.length > 0 && <Text color={theme.muted}>{cut(`Runbooks here: ${runbooks.join(', ')}`, width)}</Text>}
      </Box>
    );
  }
  const title = `${recovery.runbook}${recovery.args.length ? ` ${recovery.args.join(' ')}` : ''}`;
  if (recovery.state === 'planning') return <Text color={theme.progress}>{fit(`Planning ${title}: resolving the hostnames on every cluster…`, width)}</Text>;
  if (recovery.state === 'error') {
    return (
      <Box flexDirection="column">
        <Text bold>{cut(title, width)}</Text>
        {recovery.message.split('\n').map((l, i) => (
          <Text key={i} color={theme.danger}>
            {cut(l, width)}
          </Text>
        ))}
      </Box>
    );
  }
  const bodyHeight = Math.max(1, height - 2);
  const top = Math.min(scroll, Math.max(0, lines.length - bodyHeight));
  return (
    <Box flexDirection="column" height={height}>
      <Text color={theme.muted}>{cut(title, width)}</Text>
      <Box flexDirection="column" height={bodyHeight}>
        {lines.slice(top, top + bodyHeight).map((l, i) => (
          <Text key={top + i} color={l.tone ? theme[l.tone] : undefined} bold={l.bold}>
            {cut(l.text, width) || ' '}
          </Text>
        ))}
      </Box>
      <Text color={theme.warning}>{cut('Plan only: running a runbook comes with the recovery machine (kdeck recover); nothing was changed.', width)}</Text>
    </Box>
  );
}
