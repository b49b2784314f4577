/**
 * Recovery: the plan of a runbook asked for with `:recover RUNBOOK hosts=...` (targets by
 * cluster, batches, blast radius), or a saved run asked for with `:resume RUN_ID`; once run, the
 * run as LiveRecovery shows it (per cluster: its phase, batches and latest health reading),
 * steered with the keys the footer shows.
 */
import { useMemo } from 'react';
import { Box, Text } from 'ink';
import { LiveRecovery } from '../../views/LiveRecovery.js';
import type { RecoveryEntry } from '../../app/console/recovery.js';
import type { UnfinishedRun } from '../../workflows/recovery/run-store.js';
import { cut, fit } from '../../views/text.js';
import { theme } from '../../views/theme.js';
import { recoveryLines } from './recovery-lines.js';

export interface RecoveryViewProps {
  recovery?: RecoveryEntry;
  runbooks: string[];
  /** Runs an earlier kdeck left unfinished, newest first. */
  unfinished: UnfinishedRun[];
  /** The keys of `recover` and `recovery.run`, for the hints. */
  recoverKey: string;
  runKey: string;
  prod: ReadonlySet<string>;
  scroll: number;
  width: number;
  height: number;
}

export function RecoveryView({
  recovery,
  runbooks,
  unfinished,
  recoverKey,
  runKey,
  prod,
  scroll,
  width,
  height,
}: RecoveryViewProps) {
  const lines = useMemo(() => (recovery?.state === 'planned' ? recoveryLines(recovery.plan) : []), [recovery]);
  if (!recovery) {
    const example = runbooks[0] ?? 'runbooks/AppRecovery.k';
    return (
      <Box flexDirection="column">
        <Text>{fit('No runbook yet.', width)}</Text>
        <Text color={theme.muted}>
          {cut(
            `Press ${recoverKey} or type :recover RUNBOOK hosts=a,b — for example :recover ${example} hosts=web-1,web-2`,
            width,
          )}
        </Text>
        {runbooks.length > 0 && <Text color={theme.muted}>{cut(`Runbooks here: ${runbooks.join(', ')}`, width)}</Text>}
        {unfinished.length > 0 && (
          <>
            <Text> </Text>
            <Text color={theme.warning}>{fit(`Unfinished runs (:resume RUN_ID carries one on):`, width)}</Text>
            {unfinished.slice(0, Math.max(1, Math.floor((height - 5) / 2))).map((r) => (
              <Box key={r.id} flexDirection="column">
                <Text>{cut(`  ${r.id}  ${r.runbook}`, width)}</Text>
                <Text color={theme.muted}>{cut(`    last: ${r.last}`, width)}</Text>
              </Box>
            ))}
          </>
        )}
      </Box>
    );
  }
  const title = `${recovery.runbook}${recovery.args.length ? ` ${recovery.args.join(' ')}` : ''}`;
  if (recovery.state === 'planning')
    return (
      <Text color={theme.progress}>{fit(`Planning ${title}: resolving the hostnames on every cluster…`, width)}</Text>
    );
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
  if (recovery.state === 'saved') {
    const { record } = recovery;
    const clusters = [...new Set(record.plan.batches.map((b) => b.cluster))];
    return (
      <Box flexDirection="column" height={height}>
        <Text bold>{cut(`Saved run ${recovery.runId}`, width)}</Text>
        <Text color={theme.muted}>{cut(title, width)}</Text>
        <Text color={theme.muted}>{cut(`started ${record.createdAt} by ${record.who}`, width)}</Text>
        <Text>
          {cut(`${record.plan.action}: ${record.plan.batches.length} batches in ${clusters.join(', ')}`, width)}
        </Text>
        <Text>
          {cut(
            `at most ${record.plan.maxUnavailable} of a workload at once; on failure: ${record.plan.onFailure}`,
            width,
          )}
        </Text>
        <Text>{cut(`Last recorded: ${recovery.last}`, width)}</Text>
        <Text> </Text>
        <Text color={theme.warning}>{cut(`${runKey} carries it on (asks first; prod clusters by name).`, width)}</Text>
        <Text color={theme.muted}>
          {cut('Batches already verified are not run again; no pod is restarted twice.', width)}
        </Text>
      </Box>
    );
  }
  if (recovery.state === 'running') {
    return (
      <Box flexDirection="column" height={height}>
        <LiveRecovery actor={recovery.actor} prod={prod} keys={false} />
        <Text color={theme.muted}>
          {cut(
            recovery.settled
              ? `The run has ended; its audit log is in .kdeck/runs/${recovery.runId} (and in Events). ${recoverKey} plans another.`
              : `Run ${recovery.runId}: if the console quits, kdeck recover --resume ${recovery.runId} carries it on.`,
            width,
          )}
        </Text>
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
      <Text color={theme.warning}>
        {cut(`Plan only, nothing changed yet: ${runKey} runs it (asks first; prod clusters by name).`, width)}
      </Text>
    </Box>
  );
}
