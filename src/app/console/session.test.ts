import fs from 'node:fs';
import { confirmationFor, type Confirmation } from './confirmation.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterSet } from '../../cluster/cluster-set.js';
import { loadKubeconfig } from '../../cluster/kubeconfig.js';
import { startSandbox, type Sandbox } from '../../sandbox/launcher.js';
import { LocalStateBackend } from '../../state/local.js';
import { until } from '../../ui/testing/until.js';
import { InlineCompiler } from './compiler.js';
import { stackBadge } from '../../ui/derive.js';
import { ConsoleSession } from './session.js';
import { copySample } from '../../../test/support/sample.js';
import { parseOptionArg } from '../../kcl/run.js';
import { launchRun } from '../../workflows/recovery/launch.js';
import { unfinishedRuns } from '../../workflows/recovery/run-store.js';

const copy = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-session-'));
let sandbox: Sandbox;
let session: ConsoleSession;
let clusterSet: ClusterSet;

const entry = (key: string) => session.store.get().stacks.find((s) => s.key === key)!;
const badge = (key: string) => {
  const e = entry(key);
  return stackBadge(e, session.store.get().operations.get(key)).text;
};

beforeAll(async () => {
  copySample(copy);
  sandbox = await startSandbox({ clusters: 2, timings: { podStartMs: 0, readinessDelayMs: 0, terminationMs: 0 } });
  clusterSet = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath));
  session = new ConsoleSession({
    dir: copy,
    clusterSet,
    backend: new LocalStateBackend(copy),
    compiler: new InlineCompiler(),
    contexts: [],
    readOnly: false,
    watch: true,
    debounceMs: 20,
  });
  await session.start();
});

afterAll(async () => {
  await session?.close();
  await sandbox?.stop();
});

/** The confirmation the console would show for the stack's plan now, as the operator accepts it. */
function confirmed(session: ConsoleSession, key: string, action: 'apply' | 'destroy'): Confirmation {
  const state = session.store.get();
  const c = confirmationFor(
    action,
    state.stacks.find((s) => s.key === key)!,
    state,
  );
  if ('refused' in c) throw new Error(c.refused);
  return c;
}

describe('the console session', () => {
  it('compiles and plans every stack, marks the prod context, and applies a stack to Healthy', async () => {
    const state = session.store.get();
    expect(state.contexts).toEqual([
      { name: 'sandbox-a', prod: false },
      { name: 'sandbox-b', prod: true },
    ]);
    await until(() => session.store.get().stacks.every((s) => s.plan.state === 'ok'), 'every stack planned', 120_000);
    expect(badge('nginx-example/dev')).toMatch(/^\d+ changes$/);
    await session.operations.start('nginx-example/dev', 'apply', confirmed(session, 'nginx-example/dev', 'apply'));
    expect(badge('nginx-example/dev')).toBe('applying');
    await until(() => !session.store.get().operations.get('nginx-example/dev')?.running, 'the apply to end', 60_000);
    const final = session.store.get().operations.get('nginx-example/dev')!.actor.getSnapshot();
    expect(final.value).toBe('done');
    await until(() => badge('nginx-example/dev') === 'unchanged', 'the stack to show unchanged after the apply');
    await until(
      () => [...entry('nginx-example/dev').live.values()].every((l) => l.health?.state === 'Healthy'),
      'every resource healthy',
    );
  });

  it('recompiles only the stacks a saved file concerns, and shows the new plan', async () => {
    const before = new Map(session.store.get().stacks.map((s) => [s.key, s.compile]));
    const main = path.join(copy, 'appops/nginx-example/dev/main.k');
    fs.writeFileSync(main, fs.readFileSync(main, 'utf8').replace('1.25.4-alpine', '1.27.1-alpine'));
    await until(() => badge('nginx-example/dev') === '1 change', 'the image change to show as one change');
    const recompiled = session.store
      .get()
      .stacks.filter((s) => s.compile !== before.get(s.key))
      .map((s) => s.key);
    expect(recompiled).toEqual(['nginx-example/dev']);
    const update = entry('nginx-example/dev').changeSet!.changes.find((c) => c.action === 'Update')!;
    expect(update.decision.fields.map((f) => f.path)).toEqual(['spec.template.spec.containers[name=nginx].image']);
  });

  it('keeps the last good plan beside a syntax error', async () => {
    const main = path.join(copy, 'appops/nginx-example/dev/main.k');
    const good = fs.readFileSync(main, 'utf8');
    fs.writeFileSync(main, `${good}\nbroken = {\n`);
    await until(() => entry('nginx-example/dev').compile.state === 'error', 'the compile error');
    const e = entry('nginx-example/dev');
    expect(e.compile.state === 'error' && e.compile.failure.summary).toMatch(/^main\.k:\d+:\d+ /);
    expect(e.changeSet?.changes.some((c) => c.action === 'Update')).toBe(true);
    expect(badge('nginx-example/dev')).toBe('error');
    fs.writeFileSync(main, good);
    await until(() => entry('nginx-example/dev').compile.state === 'ok', 'the fix to compile').catch((e) => {
      console.log(
        session.store
          .get()
          .events.map((x) => x.text)
          .join('\n'),
      );
      throw e;
    });
  });

  it('marks drift as soon as a live object changes outside kdeck', async () => {
    // nothing in flight: only the watch can see what follows
    await until(
      () => !entry('nginx-example/dev').compiling && !entry('nginx-example/dev').planning,
      'the stack to settle',
    );
    const client = clusterSet.client('sandbox-a');
    const ref = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'nginx-example-dev', name: 'nginx-example' };
    const live = await client.get(ref);
    expect(live).toBeDefined();
    await client.rest.request({
      method: 'PATCH',
      path: await client.pathOf(ref),
      query: { fieldManager: 'someone-else' },
      body: { spec: { replicas: 3 } },
      contentType: 'application/merge-patch+json',
    });
    const message =
      'drift: nginx-example/dev: Deployment/nginx-example-dev/nginx-example on sandbox-a changed (spec.replicas) outside kdeck';
    await until(() => session.store.get().events.some((e) => e.text === message), 'the drift to be reported');
    expect(badge('nginx-example/dev')).toBe('drift');
    expect(session.store.get().events.filter((e) => e.text.startsWith('drift:'))).toHaveLength(1);
  });

  it("shows the runbook's own message, with its place, when a recovery is asked for without hostnames", async () => {
    await session.planRecovery('runbooks/AppRecovery.k', []);
    const r = session.store.get().recovery;
    expect(r?.state).toBe('error');
    if (r?.state !== 'error') return;
    expect(r.message).toContain('a pod recovery needs hostnames (-D hosts=a,b,c)');
    expect(r.message).toMatch(/--> .*runbooks\/AppRecovery\.k:\d+:\d+/);
  });

  it('plans a recovery runbook from the hostnames, rehearses it without a write, and runs it: the pod is replaced and the audit log sets it beside the forecast', async () => {
    const client = clusterSet.client('sandbox-a');
    const pods = await client.list({ apiVersion: 'v1', kind: 'Pod', namespace: 'nginx-example-dev' });
    const pod = pods.items[0];
    const name = String(pod.metadata?.name);
    await session.planRecovery('runbooks/AppRecovery.k', [`hosts=${name},nowhere-1`]);
    const planned = session.store.get().recovery;
    expect(planned?.state).toBe('planned');
    if (planned?.state !== 'planned') return;
    expect(planned.plan.runbook.targets.map((t) => `${t.cluster}/${t.namespace}/${t.name}`)).toEqual([
      `sandbox-a/nginx-example-dev/${name}`,
    ]);
    expect(planned.plan.runbook.unresolved).toEqual(['nowhere-1']);
    // rehearsed first: the forecast names the batch, and the cluster is only read
    await session.rehearseRecovery();
    const rehearsed = session.store.get().recovery;
    const rehearsal = rehearsed?.state === 'planned' ? rehearsed.rehearsal : undefined;
    expect(rehearsal?.state).toBe('rehearsed');
    if (rehearsal?.state !== 'rehearsed') return;
    expect(rehearsal.report.batches).toEqual([
      expect.objectContaining({ cluster: 'sandbox-a', index: 1, outcome: 'verified' }),
    ]);
    const untouched = await client.get({ apiVersion: 'v1', kind: 'Pod', namespace: 'nginx-example-dev', name });
    expect(untouched?.metadata?.resourceVersion).toBe(pod.metadata?.resourceVersion);
    await session.runRecovery();
    await until(
      () => {
        const r = session.store.get().recovery;
        return r?.state === 'running' && r.settled;
      },
      'the recovery to finish',
      60_000,
    );
    const r = session.store.get().recovery;
    expect(r?.state === 'running' && r.actor.getSnapshot().context.settled).toEqual({
      'sandbox-a': expect.objectContaining({ end: 'done' }),
    });
    const after = await client.list({ apiVersion: 'v1', kind: 'Pod', namespace: 'nginx-example-dev' });
    expect(after.items.map((p) => p.metadata?.uid)).not.toContain(pod.metadata?.uid);
    const runs = fs.readdirSync(path.join(copy, '.kdeck', 'runs'));
    expect(runs).toHaveLength(1);
    expect(fs.readFileSync(path.join(copy, '.kdeck', 'runs', runs[0], 'audit.jsonl'), 'utf8')).toContain(
      '"outcome":"finished"',
    );
    // the run was the rehearsed plan: its audit log sets the batch beside its forecast
    expect(fs.readFileSync(path.join(copy, '.kdeck', 'runs', runs[0], 'audit.jsonl'), 'utf8')).toContain(
      'the rehearsal predicted',
    );
    expect(session.store.get().events.map((e) => e.text)).toContainEqual(
      expect.stringMatching(/^recovery: sandbox-a {2}nginx-example-dev\/Pod\//),
    );
  });

  it('carries on with :resume a run an earlier kdeck saved and left before its approval', async () => {
    const client = clusterSet.client('sandbox-a');
    const pod = (await client.list({ apiVersion: 'v1', kind: 'Pod', namespace: 'nginx-example-dev' })).items[0];
    const args = [`hosts=${String(pod.metadata?.name)}`];
    await session.planRecovery('runbooks/AppRecovery.k', args);
    const planned = session.store.get().recovery;
    if (planned?.state !== 'planned') throw new Error(`no plan: ${JSON.stringify(planned)}`);
    // what a kdeck that stopped between writing the run and its approval leaves behind
    const left = await launchRun(copy, 'runbooks/AppRecovery.k', args.map(parseOptionArg), planned.plan, clusterSet);
    await left.close();
    expect(unfinishedRuns(copy)).toEqual([
      { id: left.id, runbook: 'runbooks/AppRecovery.k', last: 'not approved yet' },
    ]);

    const later = new ConsoleSession({
      dir: copy,
      clusterSet,
      backend: new LocalStateBackend(copy),
      compiler: new InlineCompiler(),
      contexts: [],
      readOnly: false,
      watch: false,
    });
    try {
      later.openSavedRun(left.id);
      expect(later.store.get().recovery).toMatchObject({ state: 'saved', runId: left.id, last: 'not approved yet' });
      await later.runRecovery();
      await until(
        () => {
          const r = later.store.get().recovery;
          return r?.state === 'running' && r.settled;
        },
        'the resumed recovery to finish',
        60_000,
      );
      const after = await client.list({ apiVersion: 'v1', kind: 'Pod', namespace: 'nginx-example-dev' });
      expect(after.items.map((p) => p.metadata?.uid)).not.toContain(pod.metadata?.uid);
      expect(unfinishedRuns(copy)).toEqual([]);
      later.openSavedRun(left.id);
      await expect(later.runRecovery()).rejects.toThrow(`Run ${left.id} already finished: sandbox-a done.`);
      later.openSavedRun('no-such-run');
      expect(later.store.get().recovery).toMatchObject({
        state: 'error',
        message: expect.stringContaining('there is no run no-such-run'),
      });
    } finally {
      await later.close();
    }
  });

  it('refuses to change anything in read-only mode', async () => {
    const readOnly = new ConsoleSession({
      dir: copy,
      clusterSet: clusterSet,
      backend: new LocalStateBackend(copy),
      compiler: new InlineCompiler(),
      contexts: ['sandbox-a'],
      readOnly: true,
      watch: false,
    });
    await expect(
      readOnly.operations.start('nginx-example/dev', 'destroy', {
        action: 'destroy',
        subject: 'nginx-example/dev',
        approval: { production: [] },
        summary: [],
      }),
    ).rejects.toThrow('destroy changes clusters and is refused in --read-only mode');
    await readOnly.planRecovery('runbooks/AppRecovery.k', ['hosts=a-node-1']);
    await expect(readOnly.runRecovery()).rejects.toThrow('a recovery restarts pods and is refused in --read-only mode');
    await readOnly.close();
  });
});
