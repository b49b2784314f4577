import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import type { ChangeSet } from '../../diff/change-set.js';
import { graphOf } from '../../graph/graph.js';
import type { Spec } from '../../model/resource.js';
import type { CompileOutcome } from './compile-protocol.js';
import type { PlanResult, StackActor } from './stack-machine.js';
import { stackActorId, workspaceMachine, type WorkspaceIO, type WorkspaceReport } from './workspace-machine.js';

const DEBOUNCE_MS = 30;
const REPLAN_MS = 300;

interface Pending<T> {
  key: string;
  resolve: (value: T) => void;
  reject: (e: Error) => void;
}

/** Lets promise callbacks run: the machines' I/O answers through promises, never through timers. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

const specOf = (name: string): Spec => ({
  resources: [
    {
      id: `v1:ConfigMap:default:${name}`,
      type: 'Kubernetes',
      attributes: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } },
    },
  ],
});

const mainOf = (key: string) => `/w/${key}/main.k`;

function compiled(key: string, spec: Spec): CompileOutcome {
  return { ok: true, spec, ms: 1, inputs: { files: [mainOf(key)], folders: [] } };
}

function broken(key: string): CompileOutcome {
  const failure = { summary: 'main.k:3:1 expected an expression', text: 'main.k:3:1 expected an expression\n...' };
  return { ok: false, failure, ms: 1, inputs: { files: [mainOf(key)], folders: [] } };
}

const changeSetOf = (stack: string): ChangeSet => ({
  project: 'p',
  stack,
  changes: [],
  graph: graphOf({ resources: [] }),
  deletions: graphOf({ resources: [] }),
  states: new Map(),
});

/** The workspace machine over scripted I/O that answers only when told, on a simulated clock. */
function workspace(stacks: string[], planConcurrency = 4) {
  const clock = new SimulatedClock();
  const compiles: Pending<CompileOutcome>[] = [];
  const plans: (Pending<ChangeSet> & { spec: Spec })[] = [];
  let planning = 0;
  let mostPlanning = 0;
  const told: string[] = [];
  const io: WorkspaceIO = {
    compile: (key) => new Promise((resolve, reject) => compiles.push({ key, resolve, reject })),
    plan: (key, spec) => {
      planning++;
      mostPlanning = Math.max(mostPlanning, planning);
      return new Promise<ChangeSet>((resolve, reject) => plans.push({ key, spec, resolve, reject })).finally(
        () => planning--,
      );
    },
  };
  const planText = (r: PlanResult) => (r.ok ? 'ok' : r.message);
  const report: WorkspaceReport = {
    compileStarted: (key) => told.push(`${key}: compiling`),
    compiled: (key, o) => told.push(`${key}: compiled ${o.ok ? 'ok' : o.failure.summary}`),
    planStarted: (key) => told.push(`${key}: planning`),
    planned: (key, r) => told.push(`${key}: planned ${planText(r)}`),
    planAbandoned: (key) => told.push(`${key}: plan abandoned`),
    saved: (files, affected) => told.push(`saved ${files.join(', ')}: ${affected.stacks.join(', ')}`),
  };
  const actor = createActor(
    workspaceMachine(io, report, { debounceMs: DEBOUNCE_MS, replanMs: REPLAN_MS, planConcurrency }),
    {
      input: { stacks },
      clock,
    },
  );
  actor.start();
  const stack = (key: string) => actor.getSnapshot().children[stackActorId(key)] as StackActor;
  return {
    actor,
    clock,
    told,
    compiles,
    plans,
    stack,
    state: (key: string) => stack(key).getSnapshot().value.work,
    mostPlanning: () => mostPlanning,
    /** Answers the oldest unanswered compile. */
    async finishCompile(outcome: (key: string) => CompileOutcome) {
      const c = compiles.shift()!;
      c.resolve(outcome(c.key));
      await settle();
      return c.key;
    },
    async finishPlan(index = 0, result: (key: string) => ChangeSet = changeSetOf) {
      const [p] = plans.splice(index, 1);
      p!.resolve(result(p!.key));
      await settle();
      return p!.key;
    },
  };
}

describe('the console engine machines', () => {
  it('compiles a stack exactly once more when it is saved during its compile', async () => {
    const w = workspace(['p/a', 'p/b']);
    w.actor.send({ type: 'COMPILE', keys: ['p/a', 'p/b'] });
    await w.finishCompile((k) => compiled(k, specOf(k)));
    await w.finishCompile((k) => compiled(k, specOf(k)));
    await w.finishPlan();
    await w.finishPlan();
    expect(w.state('p/a')).toBe('ready');

    w.actor.send({ type: 'FILES', files: [mainOf('p/a')] });
    w.clock.increment(DEBOUNCE_MS);
    expect(w.compiles.map((c) => c.key)).toEqual(['p/a']);
    expect(w.state('p/a')).toEqual({ compiling: 'running' });
    // two more saves while the compile runs, each settled
    for (let i = 0; i < 2; i++) {
      w.actor.send({ type: 'FILES', files: [mainOf('p/a')] });
      w.clock.increment(DEBOUNCE_MS);
    }
    expect(w.compiles).toHaveLength(1);
    await w.finishCompile((k) => compiled(k, specOf('old')));
    // what the stale compile made is shown, but not planned: the files changed under it
    expect(w.plans).toHaveLength(0);
    expect(w.compiles.map((c) => c.key)).toEqual(['p/a']);
    await w.finishCompile((k) => compiled(k, specOf('new')));
    expect(w.compiles).toHaveLength(0);
    expect(w.plans.map((p) => [p.key, p.spec])).toEqual([['p/a', specOf('new')]]);
    expect(w.told.filter((t) => t.startsWith('p/a: compiling'))).toHaveLength(3);
    expect(w.told.filter((t) => t.startsWith('saved'))).toEqual([
      'saved /w/p/a/main.k: p/a',
      'saved /w/p/a/main.k: p/a',
      'saved /w/p/a/main.k: p/a',
    ]);
  });

  it('compiles once for two saves in the debounce window, and only the stacks that read the file', async () => {
    const w = workspace(['p/a', 'p/b']);
    w.actor.send({ type: 'COMPILE', keys: ['p/a', 'p/b'] });
    await w.finishCompile((k) => compiled(k, specOf(k)));
    await w.finishCompile((k) => compiled(k, specOf(k)));
    await w.finishPlan();
    await w.finishPlan();
    w.told.length = 0;

    w.actor.send({ type: 'FILES', files: [mainOf('p/b')] });
    w.clock.increment(DEBOUNCE_MS - 10);
    w.actor.send({ type: 'FILES', files: [mainOf('p/b'), '/w/p/b/stack.yaml'] });
    w.clock.increment(DEBOUNCE_MS - 10);
    expect(w.compiles).toHaveLength(0);
    w.clock.increment(10);
    expect(w.compiles.map((c) => c.key)).toEqual(['p/b']);
    expect(w.told).toEqual(['saved /w/p/b/main.k, /w/p/b/stack.yaml: p/b', 'p/b: compiling']);
    await w.finishCompile((k) => compiled(k, specOf(k)));
    expect(w.compiles).toHaveLength(0);
  });

  it('compiles one stack at a time, the stack on screen first, and never plans more than the bound at once', async () => {
    const keys = ['p/a', 'p/b', 'p/c', 'p/d', 'p/e', 'p/f'];
    const w = workspace(keys, 2);
    w.actor.send({ type: 'FOCUS', key: 'p/e' });
    w.actor.send({ type: 'COMPILE', keys });
    const order: string[] = [];
    while (w.compiles.length) {
      // the worker compiles serially: one compile asked at a time
      expect(w.compiles).toHaveLength(1);
      order.push(await w.finishCompile((k) => compiled(k, specOf(k))));
    }
    expect(order).toEqual(['p/e', 'p/a', 'p/b', 'p/c', 'p/d', 'p/f']);
    expect(w.plans).toHaveLength(2);
    expect(keys.filter((k) => JSON.stringify(w.state(k)) === '{"planning":"queued"}')).toHaveLength(4);

    // a save abandons a running plan, but its slot is held until the plan really ends
    w.actor.send({ type: 'COMPILE', keys: ['p/e'] });
    expect(w.told).toContain('p/e: plan abandoned');
    await w.finishCompile((k) => compiled(k, specOf(k)));
    expect(w.plans).toHaveLength(2);

    while (w.plans.length) await w.finishPlan(w.plans.length - 1);
    expect(w.mostPlanning()).toBe(2);
    expect(keys.map(w.state)).toEqual(keys.map(() => 'ready'));
    // the abandoned plan's answer was not taken: p/e was planned twice, and reported once
    expect(w.told.filter((t) => t === 'p/e: planned ok')).toHaveLength(1);
  });

  it('plans once more, after the re-plan delay, when drift is seen during a plan', async () => {
    const w = workspace(['p/a']);
    w.actor.send({ type: 'COMPILE', keys: ['p/a'] });
    await w.finishCompile((k) => compiled(k, specOf(k)));
    expect(w.plans).toHaveLength(1);

    w.actor.send({ type: 'DRIFT', keys: ['p/a'] });
    w.clock.increment(REPLAN_MS - 100);
    // more drift restarts the wait
    w.actor.send({ type: 'DRIFT', keys: ['p/a'] });
    w.clock.increment(REPLAN_MS - 100);
    await w.finishPlan();
    expect(w.plans).toHaveLength(0);
    expect(w.state('p/a')).toBe('ready');
    w.clock.increment(100);
    expect(w.plans).toHaveLength(1);

    // drift settling while the plan still runs: once more, right after it
    w.actor.send({ type: 'DRIFT', keys: ['p/a'] });
    w.actor.send({ type: 'DRIFT', keys: ['p/a'] });
    w.clock.increment(REPLAN_MS);
    expect(w.plans).toHaveLength(1);
    await w.finishPlan();
    expect(w.plans).toHaveLength(1);
    await w.finishPlan();
    w.clock.increment(REPLAN_MS * 10);
    expect(w.plans).toHaveLength(0);
    expect(w.told.filter((t) => t === 'p/a: planned ok')).toHaveLength(3);
  });

  it('keeps the last good Spec and plan beside a compile error, and plans that Spec when asked', async () => {
    const w = workspace(['p/a']);
    w.actor.send({ type: 'COMPILE', keys: ['p/a'] });
    await w.finishCompile((k) => compiled(k, specOf('good')));
    const good = changeSetOf('good');
    await w.finishPlan(0, () => good);
    expect(w.state('p/a')).toBe('ready');

    w.actor.send({ type: 'COMPILE', keys: ['p/a'] });
    await w.finishCompile(broken);
    const ctx = () => w.stack('p/a').getSnapshot().context;
    expect(w.state('p/a')).toBe('error');
    expect(ctx().failure?.summary).toBe('main.k:3:1 expected an expression');
    expect(ctx().spec).toEqual(specOf('good'));
    expect(ctx().changeSet).toBe(good);
    expect(w.plans).toHaveLength(0);

    // an apply ended: the last good Spec is planned again, and the error stays
    w.actor.send({ type: 'PLAN', keys: ['p/a'] });
    expect(w.plans.map((p) => p.spec)).toEqual([specOf('good')]);
    await w.finishPlan();
    expect(w.state('p/a')).toBe('error');

    // an apply ends while a broken save compiles: the last good Spec is still planned again
    w.actor.send({ type: 'COMPILE', keys: ['p/a'] });
    w.actor.send({ type: 'PLAN', keys: ['p/a'] });
    await w.finishCompile(broken);
    expect(w.plans.map((p) => p.spec)).toEqual([specOf('good')]);
    await w.finishPlan();
    expect(w.state('p/a')).toBe('error');

    w.actor.send({ type: 'COMPILE', keys: ['p/a'] });
    await w.finishCompile((k) => compiled(k, specOf('fixed')));
    await w.finishPlan();
    expect(w.state('p/a')).toBe('ready');
    expect(ctx().failure).toBeUndefined();
    expect(ctx().spec).toEqual(specOf('fixed'));
  });

  it('shows a plan that cannot be made as an error, and a stack that went is forgotten', async () => {
    const w = workspace(['p/a', 'p/b']);
    w.actor.send({ type: 'COMPILE', keys: ['p/a', 'p/b'] });
    await w.finishCompile((k) => compiled(k, specOf(k)));
    w.plans.shift()!.reject(new Error('connection refused'));
    await settle();
    expect(w.state('p/a')).toBe('error');
    expect(w.told).toContain('p/a: planned connection refused');

    // p/b goes while it compiles; its answer is dropped, and the worker takes the next stack
    w.actor.send({ type: 'STACKS', keys: ['p/a', 'p/c'] });
    w.actor.send({ type: 'COMPILE', keys: ['p/c'] });
    await w.finishCompile((k) => compiled(k, specOf(k)));
    expect(w.actor.getSnapshot().children[stackActorId('p/b')]).toBeUndefined();
    expect(w.compiles.map((c) => c.key)).toEqual(['p/c']);
    await w.finishCompile((k) => compiled(k, specOf(k)));
    expect(w.plans.map((p) => p.key)).toEqual(['p/c']);
  });
});
