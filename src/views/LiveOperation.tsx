/**
 * OperationProgress bound to a running operation machine, redrawn as its snapshot changes and
 * kept within the terminal's height.
 */
import { useSelector } from '@xstate/react';
import { render, useStdout, type Instance } from 'ink';
import type { OperationActor } from '../workflows/operation-machine.js';
import { OperationProgress } from './OperationProgress.js';

export function LiveOperation({ actor }: { actor: OperationActor }) {
  const changeSet = useSelector(actor, (s) => s.context.changeSet);
  const progress = useSelector(actor, (s) => s.context.progress);
  const { stdout } = useStdout();
  if (!changeSet) return null;
  return <OperationProgress changeSet={changeSet} progress={progress} maxRows={Math.max(3, (stdout.rows || 24) - 4)} />;
}

/** Draws `actor`'s operation on the terminal until it is unmounted; Ctrl-C stays the operation's. */
export function renderLiveOperation(actor: OperationActor): Instance {
  return render(<LiveOperation actor={actor} />, { exitOnCtrlC: false, patchConsole: false });
}
