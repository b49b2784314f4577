/**
 * The console's workspace as a machine, parent of one stack machine per stack. It owns what the
 * stacks share: the compile worker (one compile at a time, the stack on screen first, then in
 * the order asked), the plan slots (at most `planConcurrency` plans at once, in the order
 * asked), and the file watch's saves (the files of one save gathered for the debounce delay,
 * then the stacks that read them compiled). Its I/O comes in as `WorkspaceIO` and what it learns
 * goes out through `WorkspaceReport`, so tests run it with scripted doubles and a simulated
 * clock.
 */
import {
  assign,
  enqueueActions,
  fromCallback,
  fromPromise,
  setup,
  type ActorRefFrom,
  type EventObject,
  type SnapshotFrom,
} from 'xstate';
import type { ChangeSet } from '../../diff/change-set.js';
import { errorMessage } from '../../diagnostics/user-error.js';
import type { StackInputs } from '../../konfig/stack-inputs.js';
import type { Spec } from '../../model/resource.js';
import { affectedStacks, type Affected } from './affected.js';
import type { CompileOutcome } from './compile-protocol.js';
import {
  stackMachine,
  type PlanResult,
  type StackEvent,
  type StackReport,
  type StackRequest,
  type StackTiming,
} from './stack-machine.js';

export interface WorkspaceIO {
  /** Compiles the stack (in the worker); a compile error is an outcome, a rejection is shown as one. */
  compile(key: string): Promise<CompileOutcome>;
  /** Compares the stack's Spec with its state and clusters. */
  plan(key: string, spec: Spec): Promise<ChangeSet>;
}

export interface WorkspaceReport extends StackReport {
  /** A save has settled: its files, the stacks it concerns (now compiling), and whether stacks may have come or gone. */
  saved(files: string[], affected: Affected): void;
}

export interface WorkspaceTiming extends StackTiming {
  /** After a file event, wait this long for the rest of the save before compiling. */
  debounceMs: number;
  /** Plans made at once (each is a few reads and dry runs per resource). */
  planConcurrency: number;
}

export interface WorkspaceInput {
  /** The stacks' keys, in the order they are listed. */
  stacks: string[];
}

interface PlanRequest {
  key: string;
  spec: Spec;
}

interface RunningPlan {
  planId: number;
  key: string;
}

export interface WorkspaceContext extends WorkspaceInput {
  /** The stack on screen: its compile goes first. */
  focused?: string;
  /** What each stack read when it last compiled; a stack not in here is concerned by any save. */
  inputs: Readonly<Record<string, StackInputs>>;
  /** The files of the save being gathered. */
  saved: string[];
  compileQueue: string[];
  /** The stack the worker compiles. */
  compiling?: string;
  planQueue: PlanRequest[];
  /** The plans running, abandoned ones included: they hold their slot until they end. */
  planning: RunningPlan[];
  nextPlanId: number;
}

export type WorkspaceEvent =
  /** The file watch saw these files change. */
  | { type: 'FILES'; files: string[] }
  /** Passed on to the stacks named. */
  | { type: 'COMPILE' | 'PLAN' | 'DRIFT'; keys: string[] }
  | { type: 'FOCUS'; key: string }
  /** The workspace's stacks now (a stack or project file came or went). */
  | { type: 'STACKS'; keys: string[] }
  | StackRequest
  | { type: 'PLAN_SETTLED'; planId: number; key: string; result: PlanResult };

export const stackActorId = (key: string) => `stack:${key}`;
const planActorId = (planId: number) => `plan:${planId}`;

/** `keys` with the stack on screen first: told first, it asks for the worker first. */
function focusedFirst(keys: readonly string[], focused: string | undefined): string[] {
  return focused !== undefined && keys.includes(focused) ? [focused, ...keys.filter((k) => k !== focused)] : [...keys];
}

/** A compile whose worker call itself failed: shown like a compile error, and its inputs unknown. */
function crashed(error: unknown): CompileOutcome {
  const text = `the compiler failed: ${errorMessage(error)}; the stack is compiled again at the next save`;
  return { ok: false, failure: { summary: text, text }, ms: 0, inputs: { files: [], folders: [] } };
}

export function workspaceMachine(io: WorkspaceIO, report: WorkspaceReport, timing: WorkspaceTiming) {
  return setup({
    types: { context: {} as WorkspaceContext, events: {} as WorkspaceEvent, input: {} as WorkspaceInput },
    actors: {
      stack: stackMachine(report, timing),
      compile: fromPromise<CompileOutcome, { key: string }>(({ input }) => io.compile(input.key)),
      // a callback, not a promise actor: its answer names the plan, whichever stack state it finds
      plan: fromCallback<EventObject, RunningPlan & PlanRequest>(({ input, sendBack }) => {
        let stopped = false;
        const settle = (result: PlanResult) => {
          if (!stopped) sendBack({ type: 'PLAN_SETTLED', planId: input.planId, key: input.key, result });
        };
        // the executor runs now, so the plan starts with its slot (and a throw is a rejection)
        void new Promise<ChangeSet>((resolve) => resolve(io.plan(input.key, input.spec))).then(
          (changeSet) => settle({ ok: true, changeSet }),
          (e: unknown) => settle({ ok: false, message: errorMessage(e) }),
        );
        return () => {
          stopped = true;
        };
      }),
    },
    delays: { debounce: timing.debounceMs },
    actions: {
      spawnStacks: enqueueActions(({ context, enqueue }) => {
        for (const key of context.stacks) enqueue.spawnChild('stack', { id: stackActorId(key), input: { key } });
      }),
      forward: enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'COMPILE' && event.type !== 'PLAN' && event.type !== 'DRIFT') return;
        const toStack: StackEvent = { type: event.type };
        for (const key of focusedFirst(event.keys, context.focused))
          if (context.stacks.includes(key)) enqueue.sendTo(stackActorId(key), toStack);
      }),
      restack: enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'STACKS') return;
        const keep = new Set(event.keys);
        for (const key of context.stacks) if (!keep.has(key)) enqueue.stopChild(stackActorId(key));
        for (const key of event.keys)
          if (!context.stacks.includes(key)) enqueue.spawnChild('stack', { id: stackActorId(key), input: { key } });
        enqueue.assign({
          stacks: event.keys,
          inputs: Object.fromEntries(Object.entries(context.inputs).filter(([k]) => keep.has(k))),
          compileQueue: context.compileQueue.filter((k) => keep.has(k)),
          planQueue: context.planQueue.filter((r) => keep.has(r.key)),
        });
      }),
      gather: assign({
        saved: ({ context, event }) =>
          event.type === 'FILES' ? [...new Set([...context.saved, ...event.files])].sort() : context.saved,
      }),
      compileSaved: enqueueActions(({ context, enqueue }) => {
        const inputs = new Map(context.stacks.map((k) => [k, context.inputs[k]]));
        const affected = affectedStacks(context.saved, inputs);
        const files = context.saved;
        enqueue(() => report.saved(files, affected));
        const compile: StackEvent = { type: 'COMPILE' };
        for (const key of focusedFirst(affected.stacks, context.focused)) enqueue.sendTo(stackActorId(key), compile);
        enqueue.assign({ saved: [] });
      }),
      queueCompile: assign({
        compileQueue: ({ context, event }) =>
          event.type === 'COMPILE_WANTED' && !context.compileQueue.includes(event.key)
            ? [...context.compileQueue, event.key]
            : context.compileQueue,
      }),
      takeCompile: enqueueActions(({ context, enqueue }) => {
        const focused = context.focused !== undefined && context.compileQueue.includes(context.focused);
        const key = focused ? context.focused! : context.compileQueue[0]!;
        enqueue.assign({ compiling: key, compileQueue: context.compileQueue.filter((k) => k !== key) });
        const started: StackEvent = { type: 'COMPILE_STARTED' };
        enqueue.sendTo(stackActorId(key), started);
      }),
      deliverCompile: enqueueActions(
        ({ context, enqueue }, { outcome, inputs }: { outcome: CompileOutcome; inputs?: StackInputs }) => {
          const key = context.compiling!;
          const { [key]: _old, ...others } = context.inputs;
          enqueue.assign({ compiling: undefined, inputs: inputs ? { ...others, [key]: inputs } : others });
          // a stack that went while it compiled has no one to tell
          const compiled: StackEvent = { type: 'COMPILED', outcome };
          if (context.stacks.includes(key)) enqueue.sendTo(stackActorId(key), compiled);
        },
      ),
      queuePlan: assign({
        planQueue: ({ context, event }) =>
          event.type === 'PLAN_WANTED'
            ? [...context.planQueue.filter((r) => r.key !== event.key), { key: event.key, spec: event.spec }]
            : context.planQueue,
      }),
      dropPlan: assign({
        planQueue: ({ context, event }) =>
          event.type === 'PLAN_DROPPED' ? context.planQueue.filter((r) => r.key !== event.key) : context.planQueue,
      }),
      startPlans: enqueueActions(({ context, enqueue }) => {
        const free = timing.planConcurrency - context.planning.length;
        const starting = context.planQueue
          .slice(0, Math.max(0, free))
          .map((r, i) => ({ ...r, planId: context.nextPlanId + i }));
        if (!starting.length) return;
        for (const p of starting) {
          enqueue.spawnChild('plan', { id: planActorId(p.planId), input: p });
          const started: StackEvent = { type: 'PLAN_STARTED', planId: p.planId };
          enqueue.sendTo(stackActorId(p.key), started);
        }
        enqueue.assign({
          planQueue: context.planQueue.slice(starting.length),
          planning: [...context.planning, ...starting.map(({ planId, key }) => ({ planId, key }))],
          nextPlanId: context.nextPlanId + starting.length,
        });
      }),
      settlePlan: enqueueActions(({ context, event, enqueue }) => {
        if (event.type !== 'PLAN_SETTLED') return;
        enqueue.stopChild(planActorId(event.planId));
        enqueue.assign({ planning: context.planning.filter((p) => p.planId !== event.planId) });
        const settled: StackEvent = { type: 'PLAN_SETTLED', planId: event.planId, result: event.result };
        if (context.stacks.includes(event.key)) enqueue.sendTo(stackActorId(event.key), settled);
      }),
    },
    guards: {
      compileWaiting: ({ context }) => context.compileQueue.length > 0,
    },
  }).createMachine({
    id: 'workspace',
    type: 'parallel',
    context: ({ input }) => ({
      stacks: input.stacks,
      inputs: {},
      saved: [],
      compileQueue: [],
      planQueue: [],
      planning: [],
      nextPlanId: 1,
    }),
    entry: 'spawnStacks',
    on: {
      COMPILE: { actions: 'forward' },
      PLAN: { actions: 'forward' },
      DRIFT: { actions: 'forward' },
      FOCUS: { actions: assign({ focused: ({ event }) => event.key }) },
      STACKS: { actions: 'restack' },
      COMPILE_WANTED: { actions: 'queueCompile' },
      PLAN_WANTED: { actions: ['queuePlan', 'startPlans'] },
      PLAN_DROPPED: { actions: 'dropPlan' },
      PLAN_SETTLED: { actions: ['settlePlan', 'startPlans'] },
    },
    states: {
      saves: {
        initial: 'quiet',
        states: {
          quiet: { on: { FILES: { target: 'gathering', actions: 'gather' } } },
          // each file event restarts the wait: an editor's write, rename and chmod compile once
          gathering: {
            on: { FILES: { target: 'gathering', reenter: true, actions: 'gather' } },
            after: { debounce: { target: 'quiet', actions: 'compileSaved' } },
          },
        },
      },
      compiler: {
        initial: 'idle',
        states: {
          idle: { always: { guard: 'compileWaiting', target: 'busy', actions: 'takeCompile' } },
          busy: {
            invoke: {
              src: 'compile',
              input: ({ context }) => ({ key: context.compiling! }),
              onDone: {
                target: 'idle',
                actions: {
                  type: 'deliverCompile',
                  params: ({ event }) => ({ outcome: event.output, inputs: event.output.inputs }),
                },
              },
              onError: {
                target: 'idle',
                actions: { type: 'deliverCompile', params: ({ event }) => ({ outcome: crashed(event.error) }) },
              },
            },
          },
        },
      },
    },
  });
}

export type WorkspaceMachine = ReturnType<typeof workspaceMachine>;
export type WorkspaceActor = ActorRefFrom<WorkspaceMachine>;
export type WorkspaceSnapshot = SnapshotFrom<WorkspaceMachine>;
