import { describe, expect, it } from 'vitest';
import { lowerBound } from './rehearsal.js';

describe('the lower bound of a recovery run', () => {
  const readiness = (w: string) => ({ web: 2000, api: 4000, worker: 1000, cache: 3000 })[w] ?? 0;
  const batches = [
    { cluster: 'a', workloads: ['web', 'api'] },
    { cluster: 'a', workloads: ['web'] },
    { cluster: 'b', workloads: ['worker'] },
    { cluster: 'b', workloads: ['worker'] },
    { cluster: 'c', workloads: ['cache'] },
  ];

  it("is each cluster's batches in order, each as long as its slowest workload's readiness, clusters side by side", () => {
    expect(lowerBound(batches, readiness, 3)).toEqual({
      overallMs: 6000,
      clusters: [
        { cluster: 'a', ms: 6000 },
        { cluster: 'b', ms: 2000 },
        { cluster: 'c', ms: 3000 },
      ],
    });
  });

  it('queues clusters beyond clusterConcurrency behind the first free one', () => {
    expect(lowerBound(batches, readiness, 1).overallMs).toBe(11000);
    expect(lowerBound(batches, readiness, 2).overallMs).toBe(6000);
  });
});
