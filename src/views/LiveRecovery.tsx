/**
 * The recovery view bound to a running recovery machine, with the operator's keys: p pause,
 * r resume, a abort; for a cluster paused on a failure: t retry the batch, s skip it, x stop
 * the cluster (a later `kdeck recover --resume` retries it).
 */
import { useSelector } from '@xstate/react';
import { Box, render, Text, useInput, type Instance } from 'ink';
import { useEffect, useState } from 'react';
import type { ClusterActor, ClusterSnapshot } from '../workflows/recovery/cluster-machine.js';
import { clusterActorId, type RunActor } from '../workflows/recovery/run-machine.js';
import {
  ClusterProgressLine,
  nameWidth,
  RecoveryHeader,
  WaitingClusters,
  type ClusterRow,
} from './RecoveryProgress.js';
import { theme } from './theme.js';

export interface LiveRecoveryProps {
  actor: RunActor;
  /** Contexts shown in the warning colour. */
  prod: ReadonlySet<string>;
  /** Whether this view takes the keys (the console routes keys itself). */
  keys?: boolean;
  /** Ctrl-C while this view holds the terminal in raw mode, where it is a key and not a signal. */
  onInterrupt?: () => void;
}

function rowOf(s: ClusterSnapshot, prod: boolean): ClusterRow {
  const c = s.context;
  return {
    cluster: c.cluster,
    phase: String(s.value),
    index: c.index,
    outcomes: c.outcomes,
    ...(c.note ? { note: c.note } : {}),
    ...(c.failure ? { failure: c.failure } : {}),
    prod,
  };
}

const sameRow = (a: ClusterRow, b: ClusterRow) =>
  a.phase === b.phase &&
  a.index === b.index &&
  a.outcomes === b.outcomes &&
  a.note === b.note &&
  a.failure === b.failure;

function LiveClusterLine({ actorRef, prod, width }: { actorRef: ClusterActor; prod: boolean; width: number }) {
  const row = useSelector(actorRef, (s) => rowOf(s, prod), sameRow);
  return <ClusterProgressLine row={row} width={width} />;
}

/** Whether some cluster waits for the operator after a failure: the footer offers retry, skip, stop. */
function useAnyPaused(actor: RunActor, started: string[]): boolean {
  const [paused, setPaused] = useState(false);
  useEffect(() => {
    const refs = started
      .map((c) => actor.getSnapshot().children[clusterActorId(c)] as ClusterActor | undefined)
      .filter((r): r is ClusterActor => r !== undefined);
    const update = () => setPaused(refs.some((r) => r.getSnapshot().value === 'paused'));
    const subs = refs.map((r) => r.subscribe(update));
    update();
    return () => subs.forEach((s) => s.unsubscribe());
  }, [actor, started]);
  return paused;
}

export function LiveRecovery({ actor, prod, keys = true, onInterrupt }: LiveRecoveryProps) {
  const context = useSelector(actor, (s) => s.context);
  // a run that has finished is no longer paused or aborting, whatever it was when it ended
  const finished = useSelector(actor, (s) => s.status === 'done' || s.matches('finished'));
  const anyPaused = useAnyPaused(actor, context.started);
  useInput(
    (input, key) => {
      if (key.ctrl && input === 'c') return onInterrupt?.();
      const type = ({ p: 'PAUSE', r: 'RESUME', a: 'ABORT', t: 'RETRY', s: 'SKIP', x: 'STOP' } as const)[
        input as 'p' | 'r' | 'a' | 't' | 's' | 'x'
      ];
      if (type) actor.send({ type });
    },
    { isActive: keys },
  );
  const width = nameWidth(context.clusters);
  return (
    <Box flexDirection="column">
      <RecoveryHeader
        runId={context.runId}
        runbook={context.runbook}
        paused={context.paused && !finished}
        aborting={context.aborting && !finished}
      />
      {context.started.map((c) => {
        const ref = actor.getSnapshot().children[clusterActorId(c)] as ClusterActor | undefined;
        if (ref) return <LiveClusterLine key={c} actorRef={ref} prod={prod.has(c)} width={width} />;
        // a cluster that is through has no machine left: the run keeps its result
        const r = context.settled[c];
        return r ? (
          <ClusterProgressLine
            key={c}
            row={{
              cluster: c,
              phase: r.end,
              index: r.outcomes.length,
              outcomes: r.outcomes,
              ...(r.failure ? { failure: r.failure } : {}),
              prod: prod.has(c),
            }}
            width={width}
          />
        ) : null;
      })}
      <WaitingClusters clusters={context.clusters.filter((c) => !context.started.includes(c))} width={width} />
      {keys ? (
        <Text color={theme.muted}>
          {anyPaused ? 't retry batch · s skip batch · x stop cluster · ' : ''}
          {context.paused ? 'r resume' : 'p pause'} · a abort
        </Text>
      ) : null}
    </Box>
  );
}

/** Draws a run on the terminal until it is unmounted; Ctrl-C reaches the run through `onInterrupt`. */
export function renderLiveRecovery(props: LiveRecoveryProps): Instance {
  return render(<LiveRecovery {...props} />, { exitOnCtrlC: false, patchConsole: false });
}
