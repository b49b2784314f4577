/**
 * What only the sandbox does: faults on purpose (images that never pull, crash loops, lost
 * nodes, API errors, dropped watches, a cluster that stops answering or goes away), its
 * controllable clock (progress deadlines, back-offs), authentication, and state kept across a
 * restart. Driven through client-node over HTTPS, like the contract suite.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppsV1Api,
  BatchV1Api,
  CoreV1Api,
  ListWatch,
  Watch,
  type V1ConfigMap,
  type V1Deployment,
  type V1Pod,
} from '@kubernetes/client-node';
import { ManualClock } from '../src/sandbox/clock.js';
import { SandboxCluster } from '../src/sandbox/cluster.js';
import { startSandbox } from '../src/sandbox/launcher.js';
import { eventually, failure, FAST, kubeConfigFor, raw, statusOf } from './support/kube-target.js';

function pod(name: string, image: string): V1Pod {
  return { metadata: { name, labels: { app: name } }, spec: { containers: [{ name: 'app', image }] } };
}

function deployment(name: string, image: string, progressDeadlineSeconds?: number): V1Deployment {
  return {
    metadata: { name },
    spec: {
      replicas: 1,
      ...(progressDeadlineSeconds ? { progressDeadlineSeconds } : {}),
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image }] } },
    },
  };
}

describe('on a manual clock', () => {
  const clock = new ManualClock();
  let cluster: SandboxCluster;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  beforeAll(async () => {
    cluster = await SandboxCluster.start({
      name: 'm',
      clock,
      timings: { podStartMs: 1000, readinessDelayMs: 2000, terminationMs: 1000, jobRunMs: 1000, crashAfterMs: 3000 },
    });
    const kc = kubeConfigFor(cluster);
    core = kc.makeApiClient(CoreV1Api);
    apps = kc.makeApiClient(AppsV1Api);
  });
  afterAll(() => cluster.stop());

  const status = async (name: string) => (await core.readNamespacedPod({ name, namespace: 'default' })).status!;

  it('walks a pod through ContainerCreating, Running and Ready as time passes', async () => {
    await core.createNamespacedPod({ namespace: 'default', body: pod('life', 'nginx:1.27') });
    await cluster.settle();
    expect((await status('life')).containerStatuses?.[0]?.state?.waiting?.reason).toBe('ContainerCreating');
    await cluster.advance(1000);
    const running = await status('life');
    expect(running.phase).toBe('Running');
    expect(running.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
    await cluster.advance(2000);
    const ready = await status('life');
    expect(ready.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(ready.containerStatuses?.[0]).toMatchObject({ ready: true, started: true, restartCount: 0 });
  });

  it('slows readiness down, for one pod by annotation or for all by fault, and never readies :neverready', async () => {
    const slow = pod('slow-one', 'nginx:1.27');
    slow.metadata!.annotations = { 'sandbox.kdeck.dev/readiness-delay': '30s' };
    await core.createNamespacedPod({ namespace: 'default', body: slow });
    await core.createNamespacedPod({ namespace: 'default', body: pod('never', 'app:neverready') });
    const ready = async (name: string) => (await status(name)).conditions?.find((c) => c.type === 'Ready')?.status;
    await cluster.advance(1000 + 2000);
    expect([await ready('slow-one'), await ready('never')]).toEqual(['False', 'False']);
    await cluster.advance(28_000);
    expect([await ready('slow-one'), await ready('never')]).toEqual(['True', 'False']);
    cluster.faults.set({ readinessDelayMs: 60_000 });
    await core.createNamespacedPod({ namespace: 'default', body: pod('slow-all', 'nginx:1.27') });
    await cluster.advance(1000 + 30_000);
    expect(await ready('slow-all')).toBe('False');
    await cluster.advance(30_000);
    expect(await ready('slow-all')).toBe('True');
    cluster.faults.clear();
  });

  it('readies a pod with a readiness probe at the first probe after its initialDelaySeconds', async () => {
    const probed = pod('probed', 'nginx:1.27');
    probed.spec!.containers[0]!.readinessProbe = {
      httpGet: { path: '/', port: 80 },
      initialDelaySeconds: 15,
      periodSeconds: 10,
    };
    await core.createNamespacedPod({ namespace: 'default', body: probed });
    await cluster.advance(1000);
    expect((await status('probed')).phase).toBe('Running');
    // probes tick every 10 s from the container's start; the one at 10 s comes before the
    // initial delay, so the first that can pass is at 20 s
    await cluster.advance(20_000 - 1);
    expect((await status('probed')).conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
    await cluster.advance(1);
    expect((await status('probed')).conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
  });

  it('keeps the lines a crashed container wrote for logs --previous, and 400 before any crash', async () => {
    await core.createNamespacedPod({ namespace: 'default', body: pod('crashing', 'busybox:crashloop') });
    await cluster.advance(1000);
    const never = await raw(
      kubeConfigFor(cluster),
      'GET',
      '/api/v1/namespaces/default/pods/crashing/log?previous=true',
    );
    expect(never.status).toBe(400);
    expect(never.json().message).toBe('previous terminated container "app" in pod "crashing" not found');
    await cluster.advance(3000);
    const previous = await core.readNamespacedPodLog({ name: 'crashing', namespace: 'default', previous: true });
    const lines = previous.trim().split('\n');
    expect(lines[0]).toContain('started from image busybox:crashloop');
    expect(lines.at(-1)).toContain('exiting with code 1');
  });

  it('never pulls a :nopull image (ErrImagePull, then ImagePullBackOff)', async () => {
    await core.createNamespacedPod({ namespace: 'default', body: pod('nopull', 'registry.example/app:nopull') });
    await cluster.advance(1000);
    expect((await status('nopull')).containerStatuses?.[0]?.state?.waiting?.reason).toBe('ErrImagePull');
    await cluster.advance(1000);
    const s = await status('nopull');
    expect(s.phase).toBe('Pending');
    expect(s.containerStatuses?.[0]?.state?.waiting).toMatchObject({
      reason: 'ImagePullBackOff',
      message: 'Back-off pulling image "registry.example/app:nopull"',
    });
  });

  it('crash-loops a :crashloop container with growing restart counts and back-off', async () => {
    await core.createNamespacedPod({ namespace: 'default', body: pod('crash', 'app:crashloop') });
    await cluster.advance(1000 + 3000);
    const first = await status('crash');
    expect(first.phase).toBe('Running');
    expect(first.containerStatuses?.[0]).toMatchObject({
      restartCount: 1,
      ready: false,
      lastState: { terminated: { exitCode: 1, reason: 'Error' } },
    });
    expect(first.containerStatuses?.[0]?.state?.waiting?.reason).toBe('CrashLoopBackOff');
    await cluster.advance(10_000 + 3000);
    expect((await status('crash')).containerStatuses?.[0]?.restartCount).toBe(2);
  });

  it('counts a replacement pod available once it has been Ready for minReadySeconds, though its siblings passed theirs long ago', async () => {
    const d = deployment('minready', 'nginx:1.27');
    d.spec!.replicas = 3;
    d.spec!.minReadySeconds = 10;
    await apps.createNamespacedDeployment({ namespace: 'default', body: d });
    await cluster.advance(1000 + 2000);
    await cluster.advance(10_000);
    const available = async () =>
      (await apps.readNamespacedDeployment({ name: 'minready', namespace: 'default' })).status?.availableReplicas ?? 0;
    expect(await available()).toBe(d.spec!.replicas ?? 1);
    const victim = (await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=minready' })).items[0]!;
    await core.deleteNamespacedPod({ name: victim.metadata!.name!, namespace: 'default', gracePeriodSeconds: 0 });
    await cluster.advance(1000 + 2000);
    expect(await available()).toBe((d.spec!.replicas ?? 1) - 1);
    await cluster.advance(10_000);
    expect(await available()).toBe(d.spec!.replicas ?? 1);
  });

  it('marks a Deployment ProgressDeadlineExceeded when it makes no progress in time', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('stuck', 'app:nopull', 30) });
    await cluster.advance(29_000);
    const before = await apps.readNamespacedDeployment({ name: 'stuck', namespace: 'default' });
    expect(before.status?.conditions?.find((c) => c.type === 'Progressing')?.status).toBe('True');
    await cluster.advance(3_000);
    const after = await apps.readNamespacedDeployment({ name: 'stuck', namespace: 'default' });
    expect(after.status?.conditions?.find((c) => c.type === 'Progressing')).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: expect.stringMatching(/^ReplicaSet "stuck-[a-z0-9]+" has timed out progressing\.$/),
    });
  });

  it('fails a Job whose pods keep failing once it passes its backoffLimit', async () => {
    const batch = kubeConfigFor(cluster).makeApiClient(BatchV1Api);
    await batch.createNamespacedJob({
      namespace: 'default',
      body: {
        metadata: { name: 'flaky' },
        spec: {
          backoffLimit: 1,
          template: { spec: { restartPolicy: 'Never', containers: [{ name: 'run', image: 'tool:fail' }] } },
        },
      },
    });
    // two failed pods, with the controller's 10 s back-off between them
    for (let i = 0; i < 4; i++) await cluster.advance(6000);
    const job = await batch.readNamespacedJob({ name: 'flaky', namespace: 'default' });
    expect(job.status?.failed).toBe(2);
    expect(job.status?.conditions?.find((c) => c.type === 'Failed')).toMatchObject({
      status: 'True',
      reason: 'BackoffLimitExceeded',
    });
  });

  it("starts a CronJob's Jobs when its schedule fires, and lists them as active", async () => {
    const batch = kubeConfigFor(cluster).makeApiClient(BatchV1Api);
    await batch.createNamespacedCronJob({
      namespace: 'default',
      body: {
        metadata: { name: 'tick' },
        spec: {
          schedule: '*/5 * * * *',
          jobTemplate: {
            spec: {
              template: {
                spec: { restartPolicy: 'OnFailure', containers: [{ name: 'run', image: 'tool:neverready' }] },
              },
            },
          },
        },
      },
    });
    const firstFiring = (Math.floor(clock.now() / 300_000) + 1) * 300_000;
    await cluster.advance(firstFiring - clock.now() + 1000);
    const cj = await batch.readNamespacedCronJob({ name: 'tick', namespace: 'default' });
    expect(cj.status?.lastScheduleTime?.getTime()).toBe(firstFiring);
    expect(cj.status?.active?.map((a) => a.name)).toEqual([`tick-${firstFiring / 60_000}`]);
    const jobs = await batch.listNamespacedJob({ namespace: 'default' });
    expect(
      jobs.items.find((j) => j.metadata?.name === `tick-${firstFiring / 60_000}`)?.metadata?.ownerReferences?.[0]?.kind,
    ).toBe('CronJob');
    const bad = statusOf(
      await failure(
        batch.createNamespacedCronJob({
          namespace: 'default',
          body: {
            metadata: { name: 'bad' },
            spec: {
              schedule: '61 * * * *',
              jobTemplate: {
                spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'r', image: 'x:1' }] } } },
              },
            },
          },
        }),
      ),
    );
    expect(bad).toMatchObject({ code: 422, reason: 'Invalid' });
  });

  it('takes a node away (NotReady, unreachable taint, pods not ready) and gives it back', async () => {
    const podOnNode = (await core.listNamespacedPod({ namespace: 'default', fieldSelector: 'metadata.name=life' }))
      .items[0]!;
    const node = podOnNode.spec!.nodeName!;
    cluster.faults.set({ notReadyNodes: [node] });
    await cluster.settle();
    const down = await core.readNode({ name: node });
    expect(down.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('Unknown');
    expect(down.spec?.taints?.map((x) => `${x.key}:${x.effect}`)).toEqual([
      'node.kubernetes.io/unreachable:NoSchedule',
      'node.kubernetes.io/unreachable:NoExecute',
    ]);
    expect((await status('life')).conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
    cluster.faults.set({ notReadyNodes: [] });
    await cluster.settle();
    expect((await core.readNode({ name: node })).status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe(
      'True',
    );
    expect((await core.readNode({ name: node })).spec?.taints ?? []).toEqual([]);
  });
});

describe('on the wall clock', () => {
  let cluster: SandboxCluster;
  let core: CoreV1Api;
  beforeAll(async () => {
    cluster = await SandboxCluster.start({ name: 'w', timings: FAST, seed: 7 });
    core = kubeConfigFor(cluster).makeApiClient(CoreV1Api);
  });
  afterAll(() => cluster.stop());

  it('asks for the token (401), except for /version and health checks', async () => {
    const kc = kubeConfigFor(cluster);
    const denied = await raw(kc, 'GET', '/api/v1/namespaces', undefined, {}, false);
    expect(denied.status).toBe(401);
    expect(denied.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    expect((await raw(kc, 'GET', '/version', undefined, {}, false)).json()).toMatchObject({ gitVersion: 'v1.34.1' });
    expect((await raw(kc, 'GET', '/readyz', undefined, {}, false)).text).toBe('ok');
  });

  it('fails requests on purpose: 500s, and 429s with Retry-After', async () => {
    cluster.faults.set({ apiErrors: [{ status: 500, rate: 1, verbs: ['list'], resources: ['configmaps'] }] });
    expect(statusOf(await failure(core.listNamespacedConfigMap({ namespace: 'default' })))).toMatchObject({
      code: 500,
      reason: 'InternalError',
    });
    expect((await core.listNamespacedService({ namespace: 'default' })).items.length).toBeGreaterThan(0);
    cluster.faults.set({ apiErrors: [{ status: 429, rate: 1, retryAfterSeconds: 3 }] });
    const e = (await failure(core.readNamespace({ name: 'default' }))) as {
      code: number;
      headers: Record<string, string>;
    };
    expect(e.code).toBe(429);
    expect(e.headers['retry-after']).toBe('3');
    cluster.faults.clear();
    expect((await core.readNamespace({ name: 'default' })).metadata?.name).toBe('default');
  });

  it('drops watches after N events: cleanly (end) or by resetting the connection', async () => {
    const kc = kubeConfigFor(cluster);
    const watchUntilDone = async () => {
      const seen: string[] = [];
      const done = new Promise<unknown>((resolve) => {
        void new Watch(kc).watch('/api/v1/namespaces/default/configmaps', {}, (type) => seen.push(type), resolve);
      });
      return { seen, done };
    };
    cluster.faults.set({ watchDropAfterEvents: 1, watchDropMode: 'end' });
    const ended = await watchUntilDone();
    expect(await ended.done).toBeNull();
    expect(ended.seen).toHaveLength(1);
    cluster.faults.set({ watchDropAfterEvents: 1, watchDropMode: 'reset' });
    const reset = await watchUntilDone();
    expect(await reset.done).toBeInstanceOf(Error);
    cluster.faults.clear();
  });

  it('answers a watch from a compacted resourceVersion with an ERROR 410 event; an informer relists', async () => {
    const kc = kubeConfigFor(cluster);
    const old = (await core.listNamespacedConfigMap({ namespace: 'default' })).metadata!.resourceVersion!;
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'before-compaction' } } });
    cluster.compact();
    const events: { type: string; code?: number }[] = [];
    const done = new Promise<unknown>((resolve) => {
      void new Watch(kc).watch(
        '/api/v1/namespaces/default/configmaps',
        { resourceVersion: old },
        (type, obj: { code?: number }) => events.push({ type, code: obj.code }),
        resolve,
      );
    });
    expect(await done).toBeNull();
    expect(events).toEqual([{ type: 'ERROR', code: 410 }]);

    const informer = new ListWatch<V1ConfigMap>('/api/v1/namespaces/default/configmaps', new Watch(kc), () =>
      core.listNamespacedConfigMap({ namespace: 'default' }),
    );
    let connects = 0;
    informer.on('connect', () => connects++);
    await informer.start();
    try {
      // the watch cache expires under the informer: it lists again and carries on
      cluster.faults.set({ watchDropAfterEvents: 1, watchDropMode: 'expire' });
      await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'during-expiry' } } });
      await eventually('the informer to relist', () => (connects >= 2 ? true : undefined));
      cluster.faults.clear();
      await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'after-relist' } } });
      await eventually('the informer to see every object', () =>
        informer.get('after-relist', 'default') && informer.get('during-expiry', 'default') ? true : undefined,
      );
    } finally {
      await informer.stop();
      cluster.faults.clear();
    }
  });

  it('stops answering when unresponsive (the admin endpoint still answers), and answers again after', async () => {
    const kc = kubeConfigFor(cluster);
    cluster.faults.set({ unresponsive: true });
    const hanging = raw(kc, 'GET', '/api/v1/namespaces').then(
      () => 'answered',
      (e: unknown) => e,
    );
    await eventually('the request to be held', async () =>
      (await raw(kc, 'GET', '/__sandbox/')).json().heldRequests === 1 ? true : undefined,
    );
    const admin = await raw(kc, 'PATCH', '/__sandbox/faults', JSON.stringify({ unresponsive: false }));
    expect(admin.status).toBe(200);
    // the request held while silent is dropped when the cluster comes back; the next one is served
    expect(await hanging).toBeInstanceOf(Error);
    expect((await core.listNamespace()).items.length).toBeGreaterThan(0);
    const bad = await raw(kc, 'PATCH', '/__sandbox/faults', JSON.stringify({ unresponsive: 'yes' }));
    expect(bad.status).toBe(422);
  });

  it('goes away (connections refused) and comes back on the same port with its objects', async () => {
    const kc = kubeConfigFor(cluster);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'survives' } } });
    await cluster.disconnect();
    const e = (await failure(core.listNamespace())) as { code?: string; message: string };
    expect(`${e.code ?? ''} ${e.message}`).toMatch(/ECONNREFUSED/);
    await cluster.reconnect();
    expect(
      (await kc.makeApiClient(CoreV1Api).readNamespacedConfigMap({ namespace: 'default', name: 'survives' })).metadata
        ?.name,
    ).toBe('survives');
  });

  it('refuses connections once stopped', async () => {
    const gone = await SandboxCluster.start({ name: 'gone', timings: FAST });
    const c = kubeConfigFor(gone).makeApiClient(CoreV1Api);
    expect((await c.listNamespace()).items.length).toBeGreaterThan(0);
    await gone.stop();
    const e = (await failure(c.listNamespace())) as { code?: string; message: string };
    expect(`${e.code ?? ''} ${e.message}`).toMatch(/ECONNREFUSED/);
  });
});

describe('state file', () => {
  it('keeps objects, ports and tokens across a restart, and resourceVersions never go back', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-state-'));
    const statePath = path.join(dir, 'state.json');
    const kubeconfig = path.join(dir, 'kubeconfig');
    try {
      const first = await startSandbox({ clusters: 2, statePath, kubeconfig, timings: FAST });
      const core = kubeConfigFor(first.cluster('b')).makeApiClient(CoreV1Api);
      await core.createNamespacedConfigMap({
        namespace: 'default',
        body: { metadata: { name: 'kept' }, data: { a: '1' } },
      });
      const rv = Number((await core.listNamespacedConfigMap({ namespace: 'default' })).metadata!.resourceVersion);
      await first.stop();
      expect(fs.statSync(statePath).mode & 0o777).toBe(0o600);

      const second = await startSandbox({ clusters: 2, statePath, kubeconfig, timings: FAST });
      try {
        const again = kubeConfigFor(second.cluster('b')).makeApiClient(CoreV1Api);
        expect((await again.readNamespacedConfigMap({ namespace: 'default', name: 'kept' })).data).toEqual({ a: '1' });
        const made = await again.createNamespacedConfigMap({
          namespace: 'default',
          body: { metadata: { name: 'new' } },
        });
        expect(Number(made.metadata!.resourceVersion)).toBeGreaterThan(rv);
        expect(second.cluster('b').token).toBe(first.cluster('b').token);
      } finally {
        await second.stop();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
