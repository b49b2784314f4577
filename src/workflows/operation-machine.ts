/**
 * Apply and destroy as one xstate machine: compiling → planning → awaiting approval → applying →
 * done, or failed, cancelled (the user said no) or interrupted (Ctrl-C). Its I/O comes in as
 * actors (compile, plan, execute), so the console, the command line and the tests run the same
 * machine against real clusters, the sandbox or a scripted double.
 */
import { assign, fromCallback, fromPromise, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { Spec } from '../model/resource.js';
import type { Health } from '../health/rules.js';
import type { EngineEvent, ExecuteResult } from './execute.js';
import { errorMessage } from '../diagnostics/user-error.js';
import { changeKey, summarize, type ChangeSet } from '../diff/change-set.js';

/** `stopped` and `forgotten` as ResourceOutcome (execute.ts) says: neither is done. */
export type ResourcePhase =
  'pending' | 'running' | 'applied' | 'succeeded' | 'failed' | 'skipped' | 'stopped' | 'forgotten';

export interface ResourceProgress {
  phase: ResourcePhase;
  health?: Health;
  message?: string;
}

export interface OperationContext {
  autoApprove: boolean;
  spec?: Spec;
  changeSet?: ChangeSet;
  /** By `changeKey(cluster, id)`: a stack moving between clusters has the same id on both. */
  progress: Record<string, ResourceProgress>;
  /** The engine's events, newest last (bounded). */
  log: EngineEvent[];
  /** How many events there were in all, dropped ones included: a reader of `log` finds the new ones by it. */
  logCount: number;
  result?: ExecuteResult;
  error?: string;
}

export type OperationEvent =
  | { type: 'APPROVE' }
  | { type: 'REJECT' }
  | { type: 'CANCEL' }
  /** The engine's events of one turn of the event loop, in order. */
  | { type: 'ENGINE'; events: EngineEvent[] }
  | { type: 'EXECUTED'; result: ExecuteResult }
  | { type: 'EXECUTE_FAILED'; error: string };

export interface ExecuteActorInput {
  changeSet: ChangeSet;
}

/** What the execute actor is given: the change set, a way to report, and an abort signal. */
export type ExecuteFn = (
  changeSet: ChangeSet,
  emit: (e: EngineEvent) => void,
  signal: AbortSignal,
) => Promise<ExecuteResult>;

/** How long engine events gather before the machine takes them: a frame of the console. */
const FRAME_MS = 16;
const LOG_LIMIT = 500;

/** The machine, with the three actors the caller provides. */
export function operationMachine(actors: {
  compile: () => Promise<Spec>;
  plan: (spec: Spec) => Promise<ChangeSet>;
  execute: ExecuteFn;
}) {
  return setup({
    types: {
      context: {} as OperationContext,
      events: {} as OperationEvent,
      input: {} as { autoApprove: boolean },
    },
    actors: {
      compile: fromPromise<Spec>(() => actors.compile()),
      plan: fromPromise<ChangeSet, { spec: Spec }>(({ input }) => actors.plan(input.spec)),
      execute: fromCallback<{ type: 'STOP' }, ExecuteActorInput>(({ input, sendBack, receive }) => {
        const controller = new AbortController();
        receive((e) => {
          if (e.type === 'STOP') controller.abort();
        });
        // the events of one frame go together: each update copies the run's progress, and a run of
        // hundreds of resources sends thousands of events, most in turns of their own (a watch event
        // each)
        let pending: EngineEvent[] = [];
        const flush = () => {
          if (pending.length === 0) return;
          const events = pending;
          pending = [];
          sendBack({ type: 'ENGINE', events });
        };
        const emit = (event: EngineEvent) => {
          if (pending.length === 0) setTimeout(flush, FRAME_MS);
          pending.push(event);
          // the log keeps LOG_LIMIT events: a longer batch would push some out unread
          if (pending.length === LOG_LIMIT) flush();
        };
        actors.execute(input.changeSet, emit, controller.signal).then(
          (result) => {
            flush();
            sendBack({ type: 'EXECUTED', result });
          },
          (e: unknown) => {
            flush();
            sendBack({ type: 'EXECUTE_FAILED', error: errorMessage(e) });
          },
        );
        return () => controller.abort();
      }),
    },
    guards: {
      nothingToDo: ({ event }) => {
        const counts = summarize((event as unknown as { output: ChangeSet }).output.changes);
        return counts.Create + counts.Update + counts.Delete + counts.Import === 0;
      },
      autoApprove: ({ context }) => context.autoApprove,
      interrupted: ({ event }) => event.type === 'EXECUTED' && event.result.interrupted,
      incomplete: ({ event }) =>
        event.type === 'EXECUTED' &&
        event.result.failed.length + event.result.skipped.length + event.result.notStarted.length > 0,
    },
    actions: {
      track: assign(({ context, event }) => {
        if (event.type !== 'ENGINE') return {};
        const progress = { ...context.progress };
        for (const e of event.events) {
          const key = changeKey(e);
          const before = progress[key] ?? { phase: 'pending' as const };
          switch (e.type) {
            case 'started':
              progress[key] = { ...before, phase: 'running' };
              break;
            case 'applied':
              progress[key] = { ...before, phase: 'applied' };
              break;
            case 'health':
              progress[key] = { ...before, health: e.health };
              break;
            case 'finished':
              progress[key] = { ...before, phase: e.outcome, ...(e.message ? { message: e.message } : {}) };
              break;
            case 'skipped':
              progress[key] = {
                ...before,
                phase: 'skipped',
                message: `skipped: it depends on ${e.because}, which did not succeed`,
              };
              break;
            case 'changed-since-preview':
              progress[key] = { ...before, message: e.message };
              break;
          }
        }
        return {
          progress,
          log: [...context.log, ...event.events].slice(-LOG_LIMIT),
          logCount: context.logCount + event.events.length,
        };
      }),
    },
  }).createMachine({
    id: 'operation',
    initial: 'compiling',
    context: ({ input }) => ({ autoApprove: input.autoApprove, progress: {}, log: [], logCount: 0 }),
    states: {
      compiling: {
        invoke: {
          src: 'compile',
          onDone: { target: 'planning', actions: assign({ spec: ({ event }) => event.output }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => errorMessage(event.error) }) },
        },
      },
      planning: {
        invoke: {
          src: 'plan',
          input: ({ context }) => ({ spec: context.spec! }),
          onDone: [
            { guard: 'nothingToDo', target: 'done', actions: assign({ changeSet: ({ event }) => event.output }) },
            { guard: 'autoApprove', target: 'applying', actions: assign({ changeSet: ({ event }) => event.output }) },
            { target: 'awaitingApproval', actions: assign({ changeSet: ({ event }) => event.output }) },
          ],
          onError: { target: 'failed', actions: assign({ error: ({ event }) => errorMessage(event.error) }) },
        },
      },
      awaitingApproval: {
        on: { APPROVE: 'applying', REJECT: 'cancelled', CANCEL: 'cancelled' },
      },
      applying: {
        entry: assign({
          progress: ({ context }) =>
            Object.fromEntries(context.changeSet!.changes.map((c) => [changeKey(c), { phase: 'pending' as const }])),
        }),
        invoke: { id: 'execute', src: 'execute', input: ({ context }) => ({ changeSet: context.changeSet! }) },
        initial: 'running',
        states: {
          running: { on: { CANCEL: 'stopping' } },
          // Ctrl-C: nothing new starts; what runs finishes (bounded by its own deadlines), state is saved
          stopping: { entry: sendTo('execute', { type: 'STOP' }) },
        },
        on: {
          ENGINE: { actions: 'track' },
          EXECUTED: [
            { guard: 'interrupted', target: 'interrupted', actions: assign({ result: ({ event }) => event.result }) },
            { guard: 'incomplete', target: 'failed', actions: assign({ result: ({ event }) => event.result }) },
            { target: 'done', actions: assign({ result: ({ event }) => event.result }) },
          ],
          EXECUTE_FAILED: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
        },
      },
      done: { type: 'final' },
      failed: { type: 'final' },
      cancelled: { type: 'final' },
      interrupted: { type: 'final' },
    },
  });
}

export type OperationActor = ActorRefFrom<ReturnType<typeof operationMachine>>;
export type OperationSnapshot = SnapshotFrom<ReturnType<typeof operationMachine>>;
