import { describe, expect, it } from 'vitest';
import { ClusterSet } from '../cluster/cluster-set.js';
import { loadKubeconfig } from '../cluster/kubeconfig.js';
import type { Health } from './rules.js';
import { startSandbox } from '../sandbox/index.js';
import { watchedHealth } from './watched-health.js';

const deployment = (name: string, image: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: {
    replicas: 2,
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

describe('health from shared watches', () => {
  it('follows many rollouts to Healthy from shared watches, and judges an update by its new spec', async () => {
    const sandbox = await startSandbox({
      clusters: 1,
      timings: { podStartMs: 0, readinessDelayMs: 0, terminationMs: 0 },
    });
    const clusters = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath));
    const client = clusters.client('sandbox-a');
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
