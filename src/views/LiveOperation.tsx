/**
 * OperationProgress bound to a running operation machine, redrawn as its snapshot changes and
 * kept within the terminal's height.
 */
import { useSelector } from '@xstate/react';
import { useStdout } from 'ink';
import type { OperationActor } from '../workflows/operation-machine.js';
import { OperationProgress } from './OperationProgress.js';

export function LiveOperation({ actor }: { actor: OperationActor }) {
  const changeSet = useSelector(actor, (s) => s.context.changeSet);
  const progress = useSelector(actor, (s) => s.context.progress);
  const { stdout } = useStdout();
  if (!changeSet) return null;
  return <OperationProgress changeSet={changeSet} progress={progress} maxRows={Math.max(3, (stdout.rows || 24) - 4)} />;
}
