/**
 * One cluster's part of a recovery run: its batches in order, each through a gate (the owning
 * workloads stay within maxUnavailable), the action, and verification (replacements Ready,
 * owners Healthy). A failure follows the runbook's policy: continue, stop the cluster, or pause
 * for the operator (retry, skip, stop). PAUSE holds the cluster at the next batch boundary,
 * ABORT ends it there; a step in flight always finishes. Deadlines live in the context, not in
 * timers, so a run restored from its snapshot keeps them.
 */
import { assign, fromCallback, sendParent, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { errorMessage } from '../../diagnostics/user-error.js';
import type { OnFailure } from '../../recovery/plan.js';
import {
  StepError,
  type BatchOutcome,
  type HealthNote,
  type RecoverySteps,
  type RunBatch,
  type RunPlan,
  type StepFailure,
  type StepInput,
  type TargetOutcome,
} from './model.js';

export interface ClusterInput {
  cluster: string;
}

/**
 * Only what changes as the cluster works: the plan (batches, strategy) is the machine's, given
 * when it is made, so a snapshot written after every transition stays small.
 */
export interface ClusterContext extends ClusterInput {
  /** The batch being worked on (0-based); the number of batches once all are through. */
  index: number;
  outcomes: BatchOutcome[];
  deadline: number;
  hold: boolean;
  abort: boolean;
  failure?: StepFailure;
  /** The latest health reading of the batch in flight, for the screen. */
  note?: HealthNote;
}

/** How a cluster's part ended (for now: a stopped cluster can be retried by a resumed run). */
export type ClusterEnd = 'done' | 'stopped' | 'aborted';

export type ClusterEvent =
  | { type: 'PAUSE' }
  | { type: 'RESUME' }
  | { type: 'ABORT' }
  | { type: 'RETRY' }
  | { type: 'SKIP' }
  | { type: 'STOP' }
  | { type: 'NOTE'; note: HealthNote }
  | { type: 'STEP_DONE'; outcomes?: TargetOutcome[] }
  | { type: 'STEP_FAILED'; failure: StepFailure };

/** What the run keeps of a settled cluster (a finished child machine is gone from the run). */
export interface ClusterResult {
  end: ClusterEnd;
  outcomes: BatchOutcome[];
  failure?: StepFailure;
}

export type ClusterSettled = { type: 'CLUSTER_SETTLED'; cluster: string; result: ClusterResult };

type StepKind = 'gate' | 'act' | 'verify';

/** How often a step's health readings reach the machine (the first at once, then the latest). */
const NOTE_INTERVAL_MS = 100;

function failureOf(e: unknown): StepFailure {
  return e instanceof StepError
    ? { reason: e.reason, message: e.message }
    : { reason: 'Error', message: errorMessage(e) };
}

export function clusterMachine(steps: RecoverySteps, plan: RunPlan) {
  const byCluster = new Map<string, RunBatch[]>();
  const batchesOf = (cluster: string) => {
    let b = byCluster.get(cluster);
    if (!b) byCluster.set(cluster, (b = plan.batches.filter((x) => x.cluster === cluster)));
    return b;
  };
  // every step is a callback actor: it reports health as it goes, and one event says how it ended
  const step = (kind: StepKind) =>
    fromCallback<ClusterEvent, StepInput>(({ input, sendBack }) => {
      const controller = new AbortController();
      // the context keeps only the latest reading, for the screen, and a batch's workloads change
      // their readings dozens of times a second: the machine hears the first at once and then
      // the latest once per interval, not every one (each event is a macrostep of the machine)
      let held: HealthNote | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const release = () => {
        timer = undefined;
        const note = held;
        held = undefined;
        if (note && !controller.signal.aborted) sendBack({ type: 'NOTE', note });
      };
      const report = (note: HealthNote) => {
        held = note;
        if (timer === undefined) {
          release();
          timer = setTimeout(release, NOTE_INTERVAL_MS);
        }
      };
      const settle = (event: ClusterEvent) => {
        clearTimeout(timer);
        release();
        if (!controller.signal.aborted) sendBack(event);
      };
      const work =
        kind === 'gate'
          ? steps.gate(input, report, controller.signal).then(() => undefined)
          : kind === 'act'
            ? steps.act(input, controller.signal)
            : steps.verify(input, report, controller.signal).then(() => undefined);
      work.then(
        (outcomes) => settle({ type: 'STEP_DONE', ...(outcomes ? { outcomes } : {}) }),
        (e: unknown) => settle({ type: 'STEP_FAILED', failure: failureOf(e) }),
      );
      return () => {
        clearTimeout(timer);
        controller.abort();
      };
    });

  const stepInput = ({ context }: { context: ClusterContext }): StepInput => ({
    cluster: context.cluster,
    action: plan.action,
    batch: batchesOf(context.cluster)[context.index]!,
    maxUnavailable: plan.maxUnavailable,
    restartedAt: plan.restartedAt,
    deadline: context.deadline,
  });
  const batchName = (c: ClusterContext) => `batch ${batchesOf(c.cluster)[c.index]?.index ?? c.index + 1}`;

  return setup({
    types: { context: {} as ClusterContext, events: {} as ClusterEvent, input: {} as ClusterInput },
    actors: { gate: step('gate'), act: step('act'), verify: step('verify') },
    actions: {
      settle: sendParent(({ context }, end: ClusterEnd): ClusterSettled => ({
        type: 'CLUSTER_SETTLED',
        cluster: context.cluster,
        result: {
          end,
          outcomes: context.outcomes,
          ...(end === 'stopped' && context.failure ? { failure: context.failure } : {}),
        },
      })),
      newDeadline: assign({ deadline: () => steps.now() + plan.healthTimeoutMs, failure: undefined, note: undefined }),
      note: assign({ note: ({ event }) => (event.type === 'NOTE' ? event.note : undefined) }),
      fail: assign({ failure: ({ event }) => (event.type === 'STEP_FAILED' ? event.failure : undefined) }),
      finishBatch: assign(({ context }, outcome: BatchOutcome) => ({
        outcomes: context.outcomes.map((o, i) => (i === context.index ? outcome : o)),
        index: context.index + 1,
      })),
      auditActs: ({ context, event }) => {
        if (event.type !== 'STEP_DONE' || !event.outcomes) return;
        const batch = batchesOf(context.cluster)[context.index]!;
        event.outcomes.forEach((outcome, i) => {
          const t = batch.targets[i]!;
          steps.audit({
            cluster: context.cluster,
            target: `${t.namespace}/${t.kind}/${t.name}`,
            action: plan.action,
            outcome,
            ...(t.uid ? { detail: `uid ${t.uid}` } : {}),
          });
        });
      },
      auditBatch: ({ context }, p: { outcome: string; detail?: string }) =>
        steps.audit({ cluster: context.cluster, target: batchName(context), action: 'batch', ...p }),
      auditFailure: ({ context }) =>
        steps.audit({
          cluster: context.cluster,
          target: batchName(context),
          action: 'batch',
          outcome: 'failed',
          detail: context.failure ? `${context.failure.reason}: ${context.failure.message}` : '',
        }),
    },
    guards: {
      aborting: ({ context }) => context.abort,
      holding: ({ context }) => context.hold,
      allThrough: ({ context }) => context.index >= batchesOf(context.cluster).length,
      policy: (_, p: OnFailure) => plan.onFailure === p,
    },
  }).createMachine({
    id: 'cluster',
    context: ({ input }) => ({
      ...input,
      index: 0,
      outcomes: batchesOf(input.cluster).map(() => 'pending' as const),
      deadline: 0,
      hold: false,
      abort: false,
    }),
    initial: 'next',
    on: {
      PAUSE: { actions: assign({ hold: true }) },
      RESUME: { actions: assign({ hold: false }) },
      ABORT: { actions: assign({ abort: true }) },
      NOTE: { actions: 'note' },
    },
    states: {
      next: {
        always: [
          { guard: 'aborting', target: 'aborted' },
          { guard: 'allThrough', target: 'done' },
          { guard: 'holding', target: 'held' },
          { target: 'gating', actions: 'newDeadline' },
        ],
      },
      held: {
        on: {
          RESUME: { target: 'next', actions: assign({ hold: false }) },
          ABORT: { target: 'aborted', actions: assign({ abort: true }) },
        },
      },
      gating: {
        invoke: { src: 'gate', input: stepInput },
        on: {
          STEP_DONE: 'acting',
          STEP_FAILED: { target: 'failing', actions: 'fail' },
        },
      },
      acting: {
        invoke: { src: 'act', input: stepInput },
        on: {
          STEP_DONE: { target: 'verifying', actions: ['auditActs', 'newDeadline'] },
          STEP_FAILED: { target: 'failing', actions: 'fail' },
        },
      },
      verifying: {
        invoke: { src: 'verify', input: stepInput },
        on: {
          STEP_DONE: {
            target: 'next',
            actions: [
              { type: 'auditBatch', params: { outcome: 'verified' } },
              { type: 'finishBatch', params: 'done' },
            ],
          },
          STEP_FAILED: { target: 'failing', actions: 'fail' },
        },
      },
      failing: {
        entry: 'auditFailure',
        always: [
          { guard: 'aborting', target: 'aborted' },
          {
            guard: { type: 'policy', params: 'continue' },
            target: 'next',
            actions: { type: 'finishBatch', params: 'failed' },
          },
          { guard: { type: 'policy', params: 'abort' }, target: 'stopped' },
          { target: 'paused' },
        ],
      },
      paused: {
        on: {
          RETRY: {
            target: 'gating',
            actions: ['newDeadline', { type: 'auditBatch', params: { outcome: 'retried by the operator' } }],
          },
          SKIP: {
            target: 'next',
            actions: [
              { type: 'auditBatch', params: { outcome: 'skipped by the operator' } },
              { type: 'finishBatch', params: 'skipped' },
            ],
          },
          STOP: 'stopped',
          ABORT: { target: 'aborted', actions: assign({ abort: true }) },
        },
      },
      // not final: a resumed run retries a stopped cluster's failed batch
      stopped: {
        entry: { type: 'settle', params: 'stopped' },
        on: {
          RETRY: { target: 'gating', actions: ['newDeadline', { type: 'auditBatch', params: { outcome: 'retried' } }] },
          ABORT: { target: 'aborted', actions: assign({ abort: true }) },
        },
      },
      aborted: { type: 'final', entry: { type: 'settle', params: 'aborted' } },
      done: { type: 'final', entry: { type: 'settle', params: 'done' } },
    },
  });
}

export type ClusterMachine = ReturnType<typeof clusterMachine>;
export type ClusterActor = ActorRefFrom<ClusterMachine>;
export type ClusterSnapshot = SnapshotFrom<ClusterMachine>;
