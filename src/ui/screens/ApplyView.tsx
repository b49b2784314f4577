/**
 * Apply: the selected stack's apply or destroy as it runs (or as it ended): per resource
 * progress and health (OperationProgress), then the live health stream, newest last.
 */
import { useSelector } from '@xstate/react';
import { Box, Text } from 'ink';
import type { OperationEntry } from '../../app/console/state.js';
import { shortId } from '../../model/ids.js';
import { OperationProgress } from '../../views/OperationProgress.js';
import { cut, fit, fitAs } from '../../views/text.js';
import { clock } from '../time.js';
import { healthTone, theme } from '../../views/theme.js';

const STATE_TEXT: Record<string, string> = {
  compiling: 'starting',
  planning: 'planning under the lock',
  awaitingApproval: 'waiting for approval',
  applying: 'running',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};

export function ApplyView({
  operation,
  idle,
  width,
  height,
}: {
  operation?: OperationEntry;
  idle: string;
  width: number;
  height: number;
}) {
  if (!operation) return <Text color={theme.muted}>{fit(idle, width)}</Text>;
  return <LiveApply operation={operation} width={width} height={height} />;
}

function LiveApply({ operation, width, height }: { operation: OperationEntry; width: number; height: number }) {
  const value = useSelector(operation.actor, (s) =>
    String(typeof s.value === 'string' ? s.value : Object.keys(s.value)[0]),
  );
  const changeSet = useSelector(operation.actor, (s) => s.context.changeSet);
  const progress = useSelector(operation.actor, (s) => s.context.progress);
  const log = useSelector(operation.actor, (s) => s.context.log);
  const error = useSelector(operation.actor, (s) => s.context.error);
  const health = log.filter((e) => e.type === 'health');
  const progressRows = Math.max(3, Math.floor((height - 4) * 0.6));
  const streamRows = Math.max(1, height - 3 - Math.min(progressRows, (changeSet?.changes.length ?? 0) + 2));
  const tone =
    value === 'failed'
      ? theme.danger
      : value === 'done'
        ? theme.ok
        : value === 'interrupted' || value === 'cancelled'
          ? theme.warning
          : theme.progress;
  return (
    <Box flexDirection="column" height={height}>
      <Text>
        <Text bold>
          {operation.operation} {operation.stack}
        </Text>
        <Text color={tone}> {STATE_TEXT[value] ?? value}</Text>
        <Text color={theme.muted}> · started {clock(operation.startedAt)}</Text>
      </Text>
      {error && <Text color={theme.danger}>{cut(error, width)}</Text>}
      {changeSet && (
        <OperationProgress changeSet={changeSet} progress={progress} maxRows={progressRows} width={width} />
      )}
      <Text bold>{fit('Health stream', width)}</Text>
      <Box flexDirection="column">
        {health.length === 0 && <Text color={theme.muted}>{fit('No health reported yet.', width)}</Text>}
        {health.slice(-streamRows).map((e, i) => (
          <Text key={i}>
            <Text color={theme.muted}>{clock(Date.parse(e.at))} </Text>
            <Text>{fitAs(shortId(e.id), Math.min(36, Math.floor(width * 0.4)), 'middle')} </Text>
            <Text color={theme[healthTone[e.health.state]]}>
              {cut(
                `${e.health.state}${e.health.reason ? ` (${e.health.reason})` : ''}: ${e.health.message}`,
                width - Math.min(36, Math.floor(width * 0.4)) - 10,
              )}
            </Text>
          </Text>
        ))}
      </Box>
    </Box>
  );
}
