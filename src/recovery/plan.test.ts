import { describe, expect, it } from 'vitest';
import { kubectlCommand, planRecovery, runbookOf, type Runbook } from './plan.js';

const pod = (cluster: string, name: string, owner: string) => ({
  cluster,
  namespace: 'shop',
  kind: 'Pod',
  name,
  owner: { kind: 'Deployment', name: owner },
});

const runbook = (batchSize: number, maxUnavailable: number): Runbook => ({
  name: 'app-recovery',
  action: 'delete',
  strategy: { batchSize, maxUnavailable, clusterConcurrency: 3, healthTimeout: '5m', onFailure: 'pause' },
  targets: [
    pod('a', 'web-1', 'web'),
    pod('a', 'web-2', 'web'),
    pod('a', 'api-1', 'api'),
    pod('b', 'web-3', 'web'),
    pod('a', 'web-4', 'web'),
  ],
  unresolved: ['db-9'],
});

describe('recovery plan', () => {
  it('cuts each cluster into batches that never take more than maxUnavailable of one workload', () => {
    const plan = planRecovery(runbook(2, 1));
    expect(plan.batches.map((b) => `${b.cluster}#${b.index}: ${b.targets.map((t) => t.name).join(' ')}`)).toEqual([
      'a#1: web-1 api-1',
      'a#2: web-2',
      'a#3: web-4',
      'b#1: web-3',
    ]);
    expect(plan.blastRadius).toEqual([
      { workload: 'a/shop/Deployment/api', targets: 1, atOnce: 1 },
      { workload: 'a/shop/Deployment/web', targets: 3, atOnce: 1 },
      { workload: 'b/shop/Deployment/web', targets: 1, atOnce: 1 },
    ]);
    expect(planRecovery(runbook(3, 2)).batches.map((b) => b.targets.length)).toEqual([3, 1, 1]);
  });

  it('reads the runbook a KCL file outputs and says what is missing', () => {
    const rb = runbookOf({
      runbook: {
        name: 'r',
        action: 'delete',
        strategy: { batchSize: 2 },
        targets: [{ cluster: 'a', namespace: 'n', kind: 'Pod', name: 'p' }],
        unresolved: ['x'],
      },
    });
    expect(rb).toMatchObject({
      name: 'r',
      strategy: { batchSize: 2, maxUnavailable: 1, onFailure: 'pause' },
      unresolved: ['x'],
    });
    expect(() => runbookOf({})).toThrow('outputs no `runbook`');
    expect(() => runbookOf({ runbook: { name: 'r', action: 'delete', targets: [{ cluster: 'a' }] } })).toThrow(
      'runbook.targets[0].namespace',
    );
  });

  it('gives the kubectl command of every action', () => {
    const t = pod('sandbox-a', 'web-1', 'web');
    expect(kubectlCommand('delete', t)).toBe('kubectl --context sandbox-a -n shop delete pod web-1 --wait=false');
    expect(kubectlCommand('rollout-restart', { ...t, kind: 'Deployment', name: 'web' })).toBe(
      'kubectl --context sandbox-a -n shop rollout restart deployment/web',
    );
  });
});
