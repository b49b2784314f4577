import { describe, expect, it } from 'vitest';
import type { Deployment, ReplicaSet } from './kinds.js';
import {
  calculateStatus,
  maxSurge,
  maxUnavailable,
  newReplicaSetSize,
  oldReplicaSetSizes,
  progress,
} from './deployment-rollout.js';

const NOW = Date.UTC(2026, 0, 1, 12);

function deployment(
  replicas: number,
  surge: number | string,
  unavailable: number | string,
  status: Deployment['status'] = {},
): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', generation: 2 },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { spec: { containers: [{ name: 'app', image: 'app:2' }] } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status,
  };
}

function rs(name: string, created: string, spec: number, available: number, replicas = spec): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, creationTimestamp: created },
    spec: { replicas: spec, selector: {}, template: { spec: { containers: [] } } },
    status: { replicas, readyReplicas: available, availableReplicas: available },
  };
}

describe('fence posts', () => {
  it('rounds a percentage surge up and unavailability down, and never lets both be 0', () => {
    expect([maxSurge(deployment(10, '25%', '25%')), maxUnavailable(deployment(10, '25%', '25%'))]).toEqual([3, 2]);
    expect([maxSurge(deployment(3, '10%', '10%')), maxUnavailable(deployment(3, '10%', '10%'))]).toEqual([1, 0]);
    expect([maxSurge(deployment(3, 0, 0)), maxUnavailable(deployment(3, 0, 0))]).toEqual([0, 1]);
    expect(maxUnavailable(deployment(2, 0, 5))).toBe(2);
  });
});

describe('one step of a rolling update (4 replicas, surge 1, unavailable 0)', () => {
  const d = deployment(4, 1, 0);
  const old = rs('web-old', '2026-01-01T00:00:00Z', 4, 4);

  it('scales the new ReplicaSet up by the surge only', () => {
    const fresh = rs('web-new', '2026-01-01T01:00:00Z', 0, 0);
    expect(newReplicaSetSize(d, fresh, [old, fresh])).toBe(1);
  });

  it('scales the old one down only as new pods become available', () => {
    const newNotReady = rs('web-new', '2026-01-01T01:00:00Z', 1, 0);
    expect(oldReplicaSetSizes(d, newNotReady, [old]).get(old)).toBe(4);
    const newReady = rs('web-new', '2026-01-01T01:00:00Z', 1, 1);
    expect(oldReplicaSetSizes(d, newReady, [old]).get(old)).toBe(3);
  });

  it('drops unhealthy old replicas first, as far as the unavailability allowed goes', () => {
    const unhealthy = rs('web-old', '2026-01-01T00:00:00Z', 4, 2);
    const d2 = deployment(4, 1, 2);
    const newRs = rs('web-new', '2026-01-01T01:00:00Z', 1, 0);
    expect(oldReplicaSetSizes(d2, newRs, [unhealthy]).get(unhealthy)).toBe(2);
  });
});

describe('status and conditions', () => {
  it('counts replicas over all ReplicaSets and says whether minimum availability holds', () => {
    const d = deployment(4, 1, 0);
    const s = calculateStatus(d, rs('web-new', 'b', 1, 1), [rs('web-old', 'a', 3, 3), rs('web-new', 'b', 1, 1)], NOW);
    expect(s).toMatchObject({ observedGeneration: 2, replicas: 4, updatedReplicas: 1, availableReplicas: 4 });
    expect(s.conditions?.find((c) => c.type === 'Available')).toMatchObject({
      status: 'True',
      reason: 'MinimumReplicasAvailable',
    });
    const short = calculateStatus(
      d,
      rs('web-new', 'b', 1, 0),
      [rs('web-old', 'a', 3, 3), rs('web-new', 'b', 1, 0)],
      NOW,
    );
    expect(short.conditions?.find((c) => c.type === 'Available')).toMatchObject({
      status: 'False',
      reason: 'MinimumReplicasUnavailable',
    });
  });

  it('reports progress, completion, and the deadline passing with no progress', () => {
    const since = new Date(NOW - 601_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const stale = deployment(2, 1, 0, {
      updatedReplicas: 1,
      replicas: 2,
      readyReplicas: 1,
      availableReplicas: 1,
      conditions: [
        {
          type: 'Progressing',
          status: 'True',
          reason: 'ReplicaSetUpdated',
          lastUpdateTime: since,
          lastTransitionTime: since,
        },
      ],
    });
    const newRs = rs('web-new', 'b', 1, 0);
    const same = calculateStatus(stale, newRs, [rs('web-old', 'a', 1, 1), newRs], NOW);
    const timedOut = progress(stale, newRs, same, NOW).status.conditions?.find((c) => c.type === 'Progressing');
    expect(timedOut).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: 'ReplicaSet "web-new" has timed out progressing.',
    });

    const moved = calculateStatus(stale, rs('web-new', 'b', 2, 2), [rs('web-new', 'b', 2, 2)], NOW);
    expect(
      progress(stale, rs('web-new', 'b', 2, 2), moved, NOW).status.conditions?.find((c) => c.type === 'Progressing'),
    ).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      message: 'ReplicaSet "web-new" has successfully progressed.',
    });
  });
});
