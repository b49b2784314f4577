import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import {
  StepError,
  type AuditEntry,
  type RecoverySteps,
  type RunBatch,
  type RunPlan,
  type StepInput,
  type TargetOutcome,
} from './model.js';
import { clusterActorId, runMachine, type RunActor, type RunSnapshot } from './run-machine.js';
import type { ClusterActor } from './cluster-machine.js';

const batch = (cluster: string, index: number, ...names: string[]): RunBatch => ({
  cluster,
  index,
  targets: names.map((name) => ({
    cluster,
    namespace: 'shop',
    kind: 'Pod',
    name,
    uid: `${name}-uid`,
    owner: { kind: 'Deployment', name: 'web' },
  })),
});

function plan(batches: RunBatch[], onFailure: RunPlan['onFailure'] = 'pause', clusterConcurrency = 2): RunPlan {
  return {
    runbook: 'test',
    action: 'delete',
    maxUnavailable: 1,
    clusterConcurrency,
    healthTimeoutMs: 60_000,
    onFailure,
    restartedAt: '2026-11-22T00:00:00Z',
    batches,
    unresolved: [],
    blastRadius: [],
  };
}

/** Steps that record what was acted on; `verdicts` decides verification per cluster and batch. */
function scripted(verdicts: (input: StepInput) => StepError | undefined = () => undefined) {
  const acted: string[] = [];
  const audit: Omit<AuditEntry, 'time' | 'who' | 'run'>[] = [];
  let gateOpen: () => void = () => undefined;
  let held = false;
  const steps: RecoverySteps = {
    now: () => 1_000,
    gate: () => (held ? new Promise<void>((r) => (gateOpen = r)) : Promise.resolve()),
    act: async (input) =>
      input.batch.targets.map((t): TargetOutcome => {
        if (acted.includes(t.name)) return 'already-replaced';
        acted.push(t.name);
        return 'deleted';
      }),
    verify: async (input) => {
      const e = verdicts(input);
      if (e) throw e;
    },
    audit: (e) => audit.push(e),
  };
  return { steps, acted, audit, holdGates: () => (held = true), openGate: () => gateOpen() };
}

const start = (steps: RecoverySteps, runId: string, p: RunPlan) =>
  createActor(runMachine(steps, p), { input: { runId } });
const child = (actor: RunActor, cluster: string) =>
  actor.getSnapshot().children[clusterActorId(cluster)] as ClusterActor | undefined;
const ends = (s: RunSnapshot) => Object.fromEntries(Object.entries(s.context.settled).map(([c, r]) => [c, r.end]));
const finished = (actor: RunActor) =>
  waitFor(actor, (s) => s.matches('finished') || s.status === 'done', { timeout: 5_000 });

describe('the recovery machine', () => {
  it('runs every cluster batch by batch, then finishes', async () => {
    const { steps, acted, audit } = scripted();
    const actor = start(
      steps,
      'r1',
      plan([batch('a', 1, 'p1', 'p2'), batch('a', 2, 'p3'), batch('b', 1, 'q1')]),
    ).start();
    expect(actor.getSnapshot().value).toBe('awaitingApproval');
    actor.send({ type: 'APPROVE' });
    const s = await finished(actor);
    expect(ends(s)).toEqual({ a: 'done', b: 'done' });
    expect(acted.sort()).toEqual(['p1', 'p2', 'p3', 'q1']);
    expect(s.context.settled.a?.outcomes).toEqual(['done', 'done']);
    expect(audit.filter((e) => e.action === 'delete').map((e) => e.target)).toEqual(
      expect.arrayContaining(['shop/Pod/p1', 'shop/Pod/q1']),
    );
    expect(audit.at(-1)).toMatchObject({ action: 'run', outcome: 'finished' });
  });

  it('starts no more clusters at once than the runbook allows', async () => {
    const { steps, holdGates, openGate } = scripted();
    holdGates();
    const actor = start(
      steps,
      'r',
      plan([batch('a', 1, 'p1'), batch('b', 1, 'q1'), batch('c', 1, 'r1')], 'pause', 1),
    ).start();
    actor.send({ type: 'APPROVE' });
    expect(actor.getSnapshot().context.started).toEqual(['a']);
    openGate();
    await waitFor(actor, (s) => s.context.started.length === 2, { timeout: 5_000 });
    expect(ends(actor.getSnapshot())).toEqual({ a: 'done' });
  });

  it('stops a cluster whose batch fails under on-failure abort while the others finish, and a resume retries it', async () => {
    let broken = true;
    const { steps, acted } = scripted((input) =>
      input.cluster === 'b' && broken ? new StepError('CrashLoopBackOff', 'web-x keeps crashing') : undefined,
    );
    const actor = start(
      steps,
      'r',
      plan([batch('a', 1, 'p1'), batch('b', 1, 'q1'), batch('b', 2, 'q2')], 'abort'),
    ).start();
    actor.send({ type: 'APPROVE' });
    let s = await finished(actor);
    expect(ends(s)).toEqual({ a: 'done', b: 'stopped' });
    expect(s.context.settled.b?.failure).toEqual({ reason: 'CrashLoopBackOff', message: 'web-x keeps crashing' });
    expect(acted).not.toContain('q2');
    broken = false;
    actor.send({ type: 'RETRY_STOPPED' });
    s = await waitFor(actor, (x) => x.matches('finished') && x.context.settled.b?.end === 'done', { timeout: 5_000 });
    // the retried batch's pod was already replaced: it is not deleted again
    expect(acted.filter((n) => n === 'q1')).toHaveLength(1);
    expect(acted).toContain('q2');
  });

  it('pauses on a failure for the operator, who can skip the batch', async () => {
    const { steps } = scripted((input) =>
      input.batch.index === 1 ? new StepError('Timeout', 'not ready in time') : undefined,
    );
    const actor = start(steps, 'r', plan([batch('a', 1, 'p1'), batch('a', 2, 'p2')])).start();
    actor.send({ type: 'APPROVE' });
    await waitFor(child(actor, 'a')!, (s) => s.matches('paused'), { timeout: 5_000 });
    actor.send({ type: 'SKIP', cluster: 'a' });
    const s = await finished(actor);
    expect(ends(s)).toEqual({ a: 'done' });
    expect(s.context.settled.a?.outcomes).toEqual(['skipped', 'done']);
  });

  it('holds at the next batch on pause, and abort schedules nothing more', async () => {
    const { steps, acted, holdGates, openGate } = scripted();
    holdGates();
    const actor = start(
      steps,
      'r',
      plan([batch('a', 1, 'p1'), batch('a', 2, 'p2'), batch('b', 1, 'q1')], 'pause', 1),
    ).start();
    actor.send({ type: 'APPROVE' });
    actor.send({ type: 'PAUSE' });
    openGate();
    await waitFor(child(actor, 'a')!, (s) => s.matches('held'), { timeout: 5_000 });
    expect(acted).toEqual(['p1']);
    actor.send({ type: 'ABORT' });
    const s = await finished(actor);
    expect(ends(s)).toEqual({ a: 'aborted', b: 'aborted' });
    expect(acted).toEqual(['p1']);
  });

  it('starts no waiting cluster while paused, and starts it on resume', async () => {
    const { steps, acted, holdGates, openGate } = scripted();
    holdGates();
    const actor = start(steps, 'r', plan([batch('a', 1, 'p1'), batch('b', 1, 'q1')], 'pause', 1)).start();
    actor.send({ type: 'APPROVE' });
    actor.send({ type: 'PAUSE' });
    openGate();
    await waitFor(actor, (s) => s.context.settled.a?.end === 'done', { timeout: 5_000 });
    expect(actor.getSnapshot().context.started).toEqual(['a']);
    expect(acted).toEqual(['p1']);
    actor.send({ type: 'RESUME' });
    openGate();
    const s = await finished(actor);
    expect(ends(s)).toEqual({ a: 'done', b: 'done' });
    expect(acted).toEqual(['p1', 'q1']);
  });

  it('survives a restore from its persisted snapshot mid-run and carries on at the right batch', async () => {
    const first = scripted();
    first.holdGates();
    const p = plan([batch('a', 1, 'p1'), batch('a', 2, 'p2'), batch('a', 3, 'p3')]);
    const actor = start(first.steps, 'r', p).start();
    actor.send({ type: 'APPROVE' });
    first.openGate();
    await waitFor(child(actor, 'a')!, (s) => s.context.index === 1 && s.matches('gating'), { timeout: 5_000 });
    const saved = JSON.parse(JSON.stringify(actor.getPersistedSnapshot())) as RunSnapshot;
    actor.stop();

    const second = scripted();
    // the snapshot holds where the run stands; the plan comes from the run's record
    expect(JSON.stringify(saved)).not.toContain('p3-uid');
    const restored = createActor(runMachine(second.steps, p), { snapshot: saved, input: { runId: 'r' } }).start();
    const s = await finished(restored);
    expect(ends(s)).toEqual({ a: 'done' });
    expect(first.acted).toEqual(['p1']);
    expect(second.acted).toEqual(['p2', 'p3']);
  });
});
