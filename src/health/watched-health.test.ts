import { describe, expect, it } from 'vitest';
import { ClusterSet } from '../cluster/cluster-set.js';
import { loadKubeconfig } from '../cluster/kubeconfig.js';
import type { Health } from './rules.js';
import { startSandbox } from '../sandbox/index.js';
import { watchedHealth } from './watched-health.js';

const deployment = (name: string, image: string, replicas = 2) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image }] } },
  },
});

/** Timers the test fires by hand: the deadline passes when the test says so. */
function manualTimers() {
  const pending: (() => void)[] = [];
  const timers = {
    setTimeout: ((fn: () => void) => {
      pending.push(fn);
      return 0 as unknown as NodeJS.Timeout;
    }) as unknown as typeof setTimeout,
    clearTimeout: (() => undefined) as typeof clearTimeout,
  };
  return { timers, expire: () => pending.splice(0).forEach((fn) => fn()) };
}

/** One sandbox cluster, sandbox-a, whose pods turn ready `readinessDelayMs` after they start. */
async function oneCluster(readinessDelayMs = 0) {
  const sandbox = await startSandbox({ clusters: 1, timings: { podStartMs: 0, readinessDelayMs, terminationMs: 0 } });
  const clusters = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath));
  return { sandbox, clusters, client: clusters.client('sandbox-a') };
}

describe('health from shared watches', () => {
  it('follows many rollouts to Healthy from shared watches, and judges an update by its new spec', async () => {
    const { sandbox, clusters, client } = await oneCluster();
    const clock = manualTimers();
    const health = watchedHealth(clusters, clock.timers);
    const follow = async (name: string, image: string) => {
      const seen: Health[] = [];
      const applied = await client.apply(deployment(name, image), { force: true });
      const verdict = await health.follow('sandbox-a', applied, {
        signal: new AbortController().signal,
        timeoutMs: 60_000,
        onHealth: (h) => seen.push(h),
      });
      return { verdict, seen };
    };
    try {
      const all = await Promise.all(Array.from({ length: 8 }, (_, i) => follow(`web-${i}`, 'registry.example/web:1')));
      for (const { verdict } of all) expect(verdict).toMatchObject({ state: 'Healthy' });

      // the watch still holds the healthy first version: an update that never becomes ready is
      // not judged by it, and stays Progressing until its deadline
      const stuck = follow('web-0', 'registry.example/web:neverready');
      await new Promise((r) => setTimeout(r, 300));
      clock.expire();
      const { verdict, seen } = await stuck;
      expect(seen.every((h) => h.state !== 'Healthy')).toBe(true);
      expect(verdict).toMatchObject({ state: 'Degraded' });
      expect(verdict.message).toMatch(/^not healthy after 60 s/);
    } finally {
      health.close();
      await sandbox.stop();
    }
  });
});

describe('health follower', () => {
  it('follows a rollout to Healthy, and turns a stuck one Degraded with its reason when the deadline passes', async () => {
    const { sandbox, clusters, client } = await oneCluster();
    try {
      const follow = (image: string, timers: ReturnType<typeof manualTimers>['timers']) => {
        const seen: Health[] = [];
        return {
          seen,
          done: client.apply(deployment('web', image, 1), { force: true }).then((o) =>
            watchedHealth(clusters, timers).follow('sandbox-a', o, {
              signal: new AbortController().signal,
              timeoutMs: 60_000,
              onHealth: (h) => seen.push(h),
            }),
          ),
        };
      };
      const good = follow('registry.example/web:1', manualTimers().timers);
      expect(await good.done).toMatchObject({ state: 'Healthy' });
      expect(good.seen[0].state).toBe('Progressing');

      const clock = manualTimers();
      const stuck = follow('registry.example/web:nopull', clock.timers);
      // wait (bounded) until the pods say why, then let the deadline pass
      for (let i = 0; i < 1200 && !stuck.seen.some((h) => h.reason === 'ImagePullBackOff'); i++)
        await new Promise((r) => setTimeout(r, 25));
      clock.expire();
      const verdict = await stuck.done;
      expect(verdict).toMatchObject({ state: 'Degraded', reason: 'ImagePullBackOff' });
      expect(verdict.message).toMatch(
        /^not healthy after 60 s \(ImagePullBackOff: pod web-\S+: container main ImagePullBackOff/,
      );
    } finally {
      await sandbox.stop();
    }
  });
});

describe('health follower interrupted', () => {
  it('settles every wait still Progressing when the run is interrupted, and the rest when the follower closes', async () => {
    const { sandbox, clusters, client } = await oneCluster(60_000);
    const health = watchedHealth(clusters);
    const interrupt = new AbortController();
    const wait = async (name: string, signal: AbortSignal) =>
      health.follow('sandbox-a', await client.apply(deployment(name, 'registry.example/web:1', 1), { force: true }), {
        signal,
        timeoutMs: 600_000,
        onHealth: () => undefined,
      });
    try {
      // three waits of one run and one of another, none of which can become ready for a minute
      const run = ['a', 'b', 'c'].map((n) => wait(`web-${n}`, interrupt.signal));
      const other = wait('web-d', new AbortController().signal);
      await new Promise((r) => setTimeout(r, 200));
      interrupt.abort();
      // each settles with the last health it reported: nobody knows yet whether it works
      for (const verdict of await Promise.all(run))
        expect(verdict).toEqual({ state: 'Progressing', message: '0 of 1 updated replicas are available' });
      // another run's wait goes on until the follower closes
      const pending = new Promise((r) => setTimeout(() => r('waiting'), 100));
      expect(await Promise.race([other.then(() => 'settled'), pending])).toBe('waiting');
      health.close();
      expect(await other).toMatchObject({ state: 'Progressing' });
    } finally {
      health.close();
      await sandbox.stop();
    }
  });
});

describe('health follower and the grace of a stuck pod', () => {
  it('fails a workload whose pod no node takes once the grace has passed, though nothing changes any more', async () => {
    const { sandbox, clusters, client } = await oneCluster();
    try {
      // timers the test fires by hand, and a clock it moves: the grace ends when the test says so
      const pending: { fn: () => void; ms: number }[] = [];
      const timers = {
        setTimeout: ((fn: () => void, ms: number) => {
          pending.push({ fn, ms });
          return pending.length as unknown as NodeJS.Timeout;
        }) as unknown as typeof setTimeout,
        clearTimeout: (() => undefined) as typeof clearTimeout,
      };
      let now = Date.now();
      const unschedulable = deployment('web', 'registry.example/web:1', 1);
      unschedulable.spec.template.spec = {
        ...unschedulable.spec.template.spec,
        nodeSelector: { 'kdeck.dev/no-such-node': 'true' },
      } as typeof unschedulable.spec.template.spec;
      const seen: Health[] = [];
      const done = client.apply(unschedulable, { force: true }).then((o) =>
        watchedHealth(clusters, timers, () => now).follow('sandbox-a', o, {
          signal: new AbortController().signal,
          timeoutMs: 300_000,
          graceMs: 10_000,
          onHealth: (h) => seen.push(h),
        }),
      );
      for (let i = 0; i < 1200 && !seen.some((h) => h.reason === 'Unschedulable'); i++)
        await new Promise((r) => setTimeout(r, 25));
      expect(seen.at(-1)).toMatchObject({ state: 'Progressing', reason: 'Unschedulable' });
      // the grace passes; only the follower's own look again can notice (the pod stays as it is)
      now += 10_000;
      for (const t of pending.splice(0)) if (t.ms < 300_000) t.fn();
      expect(await done).toMatchObject({ state: 'Degraded', reason: 'Unschedulable' });
    } finally {
      await sandbox.stop();
    }
  });
});
