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
import { rehearsalLines } from './rehearsal-lines.js';
import type { DiffLine } from './diff-lines.js';

/** From this width the rehearsal shows beside the plan; narrower, below it. */
const SIDE_BY_SIDE_WIDTH = 120;
const GUTTER = ' │ ';

export interface RecoveryViewProps {
  recovery?: RecoveryEntry;
  runbooks: string[];
  /** Runs an earlier kdeck left unfinished, newest first. */
  unfinished: UnfinishedRun[];
  /** The keys of `recover` and `recovery.run`, for the hints. */
  recoverKey: string;
  runKey: string;
  rehearseKey: string;
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
  rehearseKey,
  prod,
  scroll,
  width,
  height,
}: RecoveryViewProps) {
  const plan = recovery?.state === 'planned' ? recovery.plan : undefined;
  const rehearsal = recovery?.state === 'planned' ? recovery.rehearsal : undefined;
  const side = rehearsal !== undefined && width >= SIDE_BY_SIDE_WIDTH;
  const left = side ? Math.floor((width - GUTTER.length) / 2) : width;
  const right = width - left - GUTTER.length;
  const lines = useMemo(() => (plan ? recoveryLines(plan) : []), [plan]);
  const forecast = useMemo(
    () => (rehearsal ? rehearsalLines(rehearsal, side ? right : width) : []),
    [rehearsal, side, right, width],
  );
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
  // one column: the forecast first, since it is what the operator asked for last
  const below: DiffLine[] = side || !forecast.length ? lines : [...forecast, { text: '' }, ...lines];
  const longest = side ? Math.max(lines.length, forecast.length) : below.length;
  const top = Math.min(scroll, Math.max(0, longest - bodyHeight));
  const column = (from: readonly DiffLine[], w: number) => (
    <Box flexDirection="column" width={w} height={bodyHeight}>
      {from.slice(top, top + bodyHeight).map((l, i) => (
        <Text key={top + i} color={l.tone ? theme[l.tone] : undefined} bold={l.bold}>
          {cut(l.text, w) || ' '}
        </Text>
      ))}
    </Box>
  );
  const footer =
    rehearsal?.state === 'rehearsed'
      ? `Rehearsed, nothing changed: ${runKey} runs this same plan for real (asks first; prod clusters by name).`
      : rehearsal?.state === 'rehearsing'
        ? 'Rehearsing on an embedded copy: the clusters are only read; nothing changed.'
        : `Plan only, nothing changed yet: ${runKey} runs it (asks first; prod clusters by name), ${rehearseKey} rehearses it.`;
  return (
    <Box flexDirection="column" height={height}>
      <Text color={theme.muted}>{cut(title, width)}</Text>
      {side ? (
        <Box flexDirection="row" height={bodyHeight}>
          {column(lines, left)}
          <Box flexDirection="column" width={GUTTER.length}>
            {Array.from({ length: bodyHeight }, (_, i) => (
              <Text key={i} color={theme.muted}>
                {GUTTER}
              </Text>
            ))}
          </Box>
          {column(forecast, right)}
        </Box>
      ) : (
        column(below, width)
      )}
      <Text color={theme.warning}>{cut(footer, width)}</Text>
    </Box>
  );
}
