/**
 * One stack in the console, as a machine: idle → compiling → planning → ready, or error (its
 * compile failed, or its plan could not be made). The workspace machine, its parent, owns the
 * compile worker and the plan slots: a stack asks for them (COMPILE_WANTED, PLAN_WANTED) and
 * waits in `queued` until it is given one. Made dirty while busy, a stack runs once more after:
 * a save during its compile compiles again, a reason to plan during its plan plans again. Drift
 * seen by the cluster watch plans again once it has been quiet for the re-plan delay (an xstate
 * `after`, so tests drive it with a simulated clock). What the stack learns goes out through
 * `StackReport`; its last good Spec and plan stay in its context beside a later error.
 */
import { and, assign, raise, sendParent, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { ChangeSet } from '../../diff/change-set.js';
import type { Spec } from '../../model/resource.js';
import type { CompileFailure, CompileOutcome } from './compile-protocol.js';

export interface StackInput {
  /** `project/stack`. */
  key: string;
}

export type PlanResult = { ok: true; changeSet: ChangeSet } | { ok: false; message: string };

export interface StackContext extends StackInput {
  /** The last Spec that compiled: plans are made of it, and a failed compile keeps it. */
  spec?: Spec;
  /** The last plan made; it belongs to `spec` and stays beside a later error. */
  changeSet?: ChangeSet;
  /** Why the last compile failed; none once the stack compiles again. */
  failure?: CompileFailure;
  /** Why the last plan could not be made. */
  planError?: string;
  /** Saved while compiling: compile once more when this compile ends. */
  compileAgain: boolean;
  /** Asked to plan while busy: plan once more when this plan ends (or after this compile, even a failed one). */
  planAgain: boolean;
  /** The plan in flight, as the workspace numbered it: the answer of a plan a compile made moot is not taken for a newer one. */
  planId?: number;
}

export type StackEvent =
  /** The files the stack reads changed, or the user asked for it. */
  | { type: 'COMPILE' }
  /** Compare with the clusters again (an operation ended, the context changed, drift settled). */
  | { type: 'PLAN' }
  /** The cluster watch saw a resource of the stack change outside kdeck. */
  | { type: 'DRIFT' }
  /** From the workspace: the worker took this stack's compile. */
  | { type: 'COMPILE_STARTED' }
  | { type: 'COMPILED'; outcome: CompileOutcome }
  /** From the workspace: a plan slot was given, and the plan numbered `planId` runs. */
  | { type: 'PLAN_STARTED'; planId: number }
  | { type: 'PLAN_SETTLED'; planId: number; result: PlanResult };

/** What a stack asks of its workspace. */
export type StackRequest =
  | { type: 'COMPILE_WANTED'; key: string }
  | { type: 'PLAN_WANTED'; key: string; spec: Spec }
  /** The stack no longer waits for a plan slot (a compile came first, or its plan ended). */
  | { type: 'PLAN_DROPPED'; key: string };

/** What the stacks learn, told as it happens (the console writes it into its store). */
export interface StackReport {
  compileStarted(key: string): void;
  compiled(key: string, outcome: CompileOutcome): void;
  planStarted(key: string): void;
  planned(key: string, result: PlanResult): void;
  /** The plan in flight no longer counts: the stack is compiled again first. */
  planAbandoned(key: string): void;
}

export interface StackTiming {
  /** After drift is seen, wait this long for more before planning again. */
  replanMs: number;
}

export function stackMachine(report: StackReport, timing: StackTiming) {
  return setup({
    types: { context: {} as StackContext, events: {} as StackEvent, input: {} as StackInput },
    delays: { replan: timing.replanMs },
    actions: {
      wantCompile: sendParent(({ context }): StackRequest => ({ type: 'COMPILE_WANTED', key: context.key })),
      wantPlan: sendParent(({ context }): StackRequest => ({
        type: 'PLAN_WANTED',
        key: context.key,
        spec: context.spec!,
      })),
      dropPlan: sendParent(({ context }): StackRequest => ({ type: 'PLAN_DROPPED', key: context.key })),
      reportCompileStarted: ({ context }) => report.compileStarted(context.key),
      keepCompile: assign(({ event }) => {
        if (event.type !== 'COMPILED') return {};
        return event.outcome.ok ? { spec: event.outcome.spec, failure: undefined } : { failure: event.outcome.failure };
      }),
      reportCompiled: ({ context, event }) => {
        if (event.type === 'COMPILED') report.compiled(context.key, event.outcome);
      },
      startPlan: assign({ planId: ({ event }) => (event.type === 'PLAN_STARTED' ? event.planId : undefined) }),
      reportPlanStarted: ({ context }) => report.planStarted(context.key),
      keepPlan: assign(({ event }) => {
        if (event.type !== 'PLAN_SETTLED') return {};
        return event.result.ok
          ? { changeSet: event.result.changeSet, planError: undefined, planId: undefined }
          : { planError: event.result.message, planId: undefined };
      }),
      reportPlanned: ({ context, event }) => {
        if (event.type === 'PLAN_SETTLED') report.planned(context.key, event.result);
      },
      // a plan still queued was never shown as running: only a running one is abandoned
      abandonPlan: ({ context }) => {
        if (context.planId !== undefined) report.planAbandoned(context.key);
      },
    },
    guards: {
      compileAgain: ({ context }) => context.compileAgain,
      compiledOk: ({ event }) => event.type === 'COMPILED' && event.outcome.ok,
      hasSpec: ({ context }) => context.spec !== undefined,
      thisPlan: ({ context, event }) => event.type === 'PLAN_SETTLED' && event.planId === context.planId,
      planAgain: ({ context }) => context.planAgain,
      // ready means the files compile and the plan was made of them
      healthy: ({ context, event }) => event.type === 'PLAN_SETTLED' && event.result.ok && !context.failure,
    },
  }).createMachine({
    id: 'stack',
    type: 'parallel',
    context: ({ input }) => ({ key: input.key, compileAgain: false, planAgain: false }),
    states: {
      work: {
        initial: 'idle',
        states: {
          // nothing known yet: the first COMPILE starts it
          idle: { on: { COMPILE: 'compiling' } },
          compiling: {
            entry: assign({ compileAgain: false }),
            initial: 'queued',
            states: {
              // a save while queued changes nothing: the compile has not read the files yet
              queued: { entry: 'wantCompile', on: { COMPILE_STARTED: 'running' } },
              running: {
                entry: 'reportCompileStarted',
                on: { COMPILE: { actions: assign({ compileAgain: true }) } },
              },
            },
            on: {
              // a plan follows a good compile anyway; after a failed one, the last good Spec is planned
              PLAN: { actions: assign({ planAgain: true }) },
              COMPILED: [
                // the files changed under the compile: what it made is shown, but not planned
                {
                  guard: 'compileAgain',
                  target: 'compiling',
                  reenter: true,
                  actions: ['keepCompile', 'reportCompiled'],
                },
                { guard: 'compiledOk', target: 'planning', actions: ['keepCompile', 'reportCompiled'] },
                {
                  guard: and(['planAgain', 'hasSpec']),
                  target: 'planning',
                  actions: ['keepCompile', 'reportCompiled'],
                },
                { target: 'error', actions: ['keepCompile', 'reportCompiled'] },
              ],
            },
          },
          planning: {
            entry: assign({ planAgain: false, planId: undefined }),
            exit: 'dropPlan',
            initial: 'queued',
            states: {
              // a reason to plan while queued changes nothing: the plan has not started
              queued: { entry: 'wantPlan', on: { PLAN_STARTED: { target: 'running', actions: 'startPlan' } } },
              running: {
                entry: 'reportPlanStarted',
                on: {
                  PLAN: { actions: assign({ planAgain: true }) },
                  // the answer of a plan abandoned earlier matches no transition: only its slot was freed
                  PLAN_SETTLED: [
                    {
                      guard: and(['thisPlan', 'planAgain']),
                      target: '#stack.work.planning',
                      reenter: true,
                      actions: ['keepPlan', 'reportPlanned'],
                    },
                    {
                      guard: and(['thisPlan', 'healthy']),
                      target: '#stack.work.ready',
                      actions: ['keepPlan', 'reportPlanned'],
                    },
                    { guard: 'thisPlan', target: '#stack.work.error', actions: ['keepPlan', 'reportPlanned'] },
                  ],
                },
              },
            },
            // a plan of the old Spec is moot: compile first, a plan follows
            on: { COMPILE: { target: 'compiling', actions: 'abandonPlan' } },
          },
          ready: { on: { COMPILE: 'compiling', PLAN: 'planning' } },
          // the last good Spec and plan stay in the context (and on screen) beside the error
          error: { on: { COMPILE: 'compiling', PLAN: { guard: 'hasSpec', target: 'planning' } } },
        },
      },
      drift: {
        initial: 'quiet',
        states: {
          quiet: { on: { DRIFT: 'settling' } },
          // each drift restarts the wait, so that a burst of changes plans once
          settling: {
            on: { DRIFT: { target: 'settling', reenter: true } },
            after: { replan: { target: 'quiet', actions: raise({ type: 'PLAN' }) } },
          },
        },
      },
    },
  });
}

export type StackMachine = ReturnType<typeof stackMachine>;
export type StackActor = ActorRefFrom<StackMachine>;
export type StackSnapshot = SnapshotFrom<StackMachine>;
