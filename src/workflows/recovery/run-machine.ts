/**
 * A recovery run: awaiting approval → executing → finished (or cancelled). Executing spawns one
 * child machine per cluster, at most `clusterConcurrency` at a time, and forwards the operator's
 * pause, resume and abort to them (abort stops scheduling; steps in flight finish). A finished
 * run whose clusters stopped on a failure can be reopened by a resume, which retries them.
 */
import { assign, enqueueActions, setup, spawnChild, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { clusterMachine, type ClusterResult, type ClusterSettled } from './cluster-machine.js';
import type { RecoverySteps, RunPlan } from './model.js';

export interface RunInput {
  runId: string;
}

export interface RunContext extends RunInput {
  /** The runbook's name (the plan's), for the screen. */
  runbook: string;
  /** Clusters in the order they start. */
  clusters: string[];
  started: string[];
  settled: Record<string, ClusterResult>;
  paused: boolean;
  aborting: boolean;
}

export type RunEvent =
  | { type: 'APPROVE' }
  | { type: 'REJECT' }
  | { type: 'PAUSE' }
  | { type: 'RESUME' }
  | { type: 'ABORT' }
  /** The operator's answer to a cluster paused on a failure (every such cluster when none is named). */
  | { type: 'RETRY' | 'SKIP' | 'STOP'; cluster?: string }
  /** A resumed run: try the stopped clusters again. */
  | { type: 'RETRY_STOPPED' }
  | ClusterSettled;

export const clusterActorId = (cluster: string) => `cluster-${cluster}`;

export function clustersOf(plan: { batches: readonly { cluster: string }[] }): string[] {
  return [...new Set(plan.batches.map((b) => b.cluster))];
}

/** The machine of a run of `plan` (the plan is not in the snapshot: run.json keeps it). */
export function runMachine(steps: RecoverySteps, plan: RunPlan) {
  const audit = (action: string, outcome: string, detail?: string) =>
    steps.audit({ action, outcome, ...(detail ? { detail } : {}) });
  return setup({
    types: { context: {} as RunContext, events: {} as RunEvent, input: {} as RunInput },
    actors: { cluster: clusterMachine(steps, plan) },
    actions: {
      startClusters: enqueueActions(({ context, enqueue }) => {
        const running = context.started.filter((c) => !(c in context.settled)).length;
        const waiting = context.clusters.filter((c) => !context.started.includes(c));
        // a paused run starts no cluster either: a cluster's first batch is a next batch too
        const starting =
          context.aborting || context.paused ? [] : waiting.slice(0, Math.max(0, plan.clusterConcurrency - running));
        for (const c of starting)
          enqueue(spawnChild('cluster', { id: clusterActorId(c), systemId: clusterActorId(c), input: { cluster: c } }));
        if (starting.length) enqueue.assign({ started: [...context.started, ...starting] });
      }),
      // the children that can still hear: started and not ended for good
      forward: enqueueActions(({ context, event, enqueue }) => {
        const named = 'cluster' in event && event.cluster ? [event.cluster] : context.started;
        for (const c of named) {
          const end = context.settled[c]?.end;
          if (context.started.includes(c) && end !== 'done' && end !== 'aborted')
            enqueue.sendTo(clusterActorId(c), { type: event.type } as never);
        }
      }),
      settle: assign({
        settled: ({ context, event }) =>
          event.type === 'CLUSTER_SETTLED' ? { ...context.settled, [event.cluster]: event.result } : context.settled,
      }),
      abortWaiting: assign({
        aborting: true,
        // clusters that never started end here: nothing of theirs was touched
        settled: ({ context }) => ({
          ...context.settled,
          ...Object.fromEntries(
            context.clusters
              .filter((c) => !context.started.includes(c))
              .map((c): [string, ClusterResult] => [
                c,
                { end: 'aborted', outcomes: plan.batches.filter((b) => b.cluster === c).map(() => 'pending' as const) },
              ]),
          ),
        }),
      }),
      reopenStopped: enqueueActions(({ context, enqueue }) => {
        const stopped = Object.entries(context.settled)
          .filter(([, r]) => r.end === 'stopped')
          .map(([c]) => c);
        for (const c of stopped) enqueue.sendTo(clusterActorId(c), { type: 'RETRY' } as never);
        enqueue.assign({
          settled: Object.fromEntries(Object.entries(context.settled).filter(([, r]) => r.end !== 'stopped')),
        });
      }),
      audit: (_, p: { action: string; outcome: string }) => audit(p.action, p.outcome),
      auditSettled: ({ event }) => {
        if (event.type === 'CLUSTER_SETTLED')
          steps.audit({
            cluster: event.cluster,
            action: 'cluster',
            outcome: event.result.end,
            ...(event.result.failure
              ? { detail: `${event.result.failure.reason}: ${event.result.failure.message}` }
              : {}),
          });
      },
      auditFinished: ({ context }) =>
        audit(
          'run',
          'finished',
          Object.entries(context.settled)
            .map(([c, r]) => `${c}: ${r.end}`)
            .join(', '),
        ),
    },
    guards: {
      allSettled: ({ context }) => context.clusters.every((c) => c in context.settled),
      anyStopped: ({ context }) => Object.values(context.settled).some((r) => r.end === 'stopped'),
    },
  }).createMachine({
    id: 'recovery',
    context: ({ input }) => ({
      ...input,
      runbook: plan.runbook,
      clusters: clustersOf(plan),
      started: [],
      settled: {},
      paused: false,
      aborting: false,
    }),
    initial: 'awaitingApproval',
    states: {
      awaitingApproval: {
        on: {
          APPROVE: { target: 'executing', actions: { type: 'audit', params: { action: 'run', outcome: 'approved' } } },
          REJECT: { target: 'cancelled', actions: { type: 'audit', params: { action: 'run', outcome: 'cancelled' } } },
        },
      },
      executing: {
        entry: 'startClusters',
        always: { guard: 'allSettled', target: 'finished' },
        on: {
          CLUSTER_SETTLED: { actions: ['settle', 'auditSettled', 'startClusters'] },
          PAUSE: {
            actions: [
              assign({ paused: true }),
              'forward',
              { type: 'audit', params: { action: 'run', outcome: 'paused' } },
            ],
          },
          RESUME: {
            actions: [
              assign({ paused: false }),
              'forward',
              'startClusters',
              { type: 'audit', params: { action: 'run', outcome: 'resumed' } },
            ],
          },
          ABORT: {
            actions: [
              'abortWaiting',
              'forward',
              { type: 'audit', params: { action: 'run', outcome: 'abort requested' } },
            ],
          },
          RETRY: { actions: 'forward' },
          SKIP: { actions: 'forward' },
          STOP: { actions: 'forward' },
        },
      },
      finished: {
        entry: 'auditFinished',
        on: {
          RETRY_STOPPED: {
            guard: 'anyStopped',
            target: 'executing',
            actions: [
              'reopenStopped',
              { type: 'audit', params: { action: 'run', outcome: 'resumed to retry stopped clusters' } },
            ],
          },
        },
      },
      cancelled: { type: 'final' },
    },
  });
}

export type RunMachine = ReturnType<typeof runMachine>;
export type RunActor = ActorRefFrom<RunMachine>;
export type RunSnapshot = SnapshotFrom<RunMachine>;
