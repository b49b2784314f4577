import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createActor, toPromise, waitFor } from 'xstate';
import type { Resource, Spec } from '../model/resource.js';
import { LocalStateBackend } from '../state/local.js';
import { executeChanges } from './execute.js';
import { operationMachine, type ExecuteFn } from './operation-machine.js';
import { planChanges } from './plan.js';
import { changeKey } from '../diff/change-set.js';
import { FakeClusters, testStack } from './testing.js';

const stack = testStack('appops/shop/dev');
const cm = (n: number): Resource => ({
  id: `v1:ConfigMap:shop:c${n}`,
  type: 'Kubernetes',
  attributes: {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `c${n}`, namespace: 'shop' },
    data: { n: String(n) },
  },
});

function machineFor(spec: Spec | Error, execute?: ExecuteFn) {
  const backend = new LocalStateBackend(fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-machine-')));
  const clusters = new FakeClusters(['a']);
  const run: ExecuteFn =
    execute ??
    ((changeSet, emit, signal) =>
      executeChanges(
        {
          stack,
          changeSet,
          clusters,
          backend,
          operation: 'apply',
          operator: 't@h',
          concurrency: 2,
          timeoutMs: 1000,
          signal,
        },
        emit,
      ));
  return operationMachine({
    compile: async () => {
      if (spec instanceof Error) throw spec;
      return spec;
    },
    plan: (s) => planChanges({ stack, spec: s, clusters, backend }),
    execute: run,
  });
}

describe('the apply machine', () => {
  it('waits for approval, applies, and tracks every resource', async () => {
    const actor = createActor(machineFor({ resources: [cm(1), cm(2)] }), { input: { autoApprove: false } }).start();
    await waitFor(actor, (s) => s.matches('awaitingApproval'));
    expect(actor.getSnapshot().context.changeSet!.changes.map((c) => c.action)).toEqual(['Create', 'Create']);
    actor.send({ type: 'APPROVE' });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(done.value).toBe('done');
    expect(Object.values(done.context.progress).map((p) => p.phase)).toEqual(['succeeded', 'succeeded']);
    expect(done.context.result?.counts.created).toBe(2);
  });

  it('stops when the user says no, and when there is nothing to do', async () => {
    const actor = createActor(machineFor({ resources: [cm(1)] }), { input: { autoApprove: false } }).start();
    await waitFor(actor, (s) => s.matches('awaitingApproval'));
    actor.send({ type: 'REJECT' });
    expect((await waitFor(actor, (s) => s.status === 'done')).value).toBe('cancelled');
    const empty = createActor(machineFor({ resources: [] }), { input: { autoApprove: false } }).start();
    expect((await toPromise(empty), empty.getSnapshot().value)).toBe('done');
  });

  it('ends failed with the compile error', async () => {
    const actor = createActor(machineFor(new Error('main.k:3:5 expected int, got str')), {
      input: { autoApprove: true },
    }).start();
    const s = await waitFor(actor, (x) => x.status === 'done');
    expect(s.value).toBe('failed');
    expect(s.context.error).toBe('main.k:3:5 expected int, got str');
  });

  it('on Ctrl-C stops starting resources, lets the running ones finish, and ends interrupted', async () => {
    let release: () => void = () => {};
    const slow: ExecuteFn = async (changeSet, emit, signal) => {
      emit({ type: 'started', id: changeSet.changes[0].id, cluster: 'a', action: 'Create' });
      await new Promise<void>((r) => (release = r));
      emit({ type: 'finished', id: changeSet.changes[0].id, cluster: 'a', outcome: 'succeeded' });
      return {
        succeeded: [{ cluster: 'a', id: changeSet.changes[0].id }],
        failed: [],
        skipped: [],
        notStarted: changeSet.changes.slice(1).map(({ cluster, id }) => ({ cluster, id })),
        stopped: [],
        forgotten: [],
        unhealthy: [],
        interrupted: signal.aborted,
        counts: { created: 1, updated: 0, deleted: 0 },
      };
    };
    const actor = createActor(machineFor({ resources: [cm(1), cm(2)] }, slow), {
      input: { autoApprove: true },
    }).start();
    await waitFor(actor, (s) => s.context.progress[changeKey({ cluster: 'a', id: cm(1).id })]?.phase === 'running');
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().matches({ applying: 'stopping' })).toBe(true);
    release();
    const s = await waitFor(actor, (x) => x.status === 'done');
    expect(s.value).toBe('interrupted');
    expect(s.context.progress[changeKey({ cluster: 'a', id: cm(1).id })].phase).toBe('succeeded');
    expect(s.context.result?.notStarted).toEqual([{ cluster: 'a', id: cm(2).id }]);
  });
});
