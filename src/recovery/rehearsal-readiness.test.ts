import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../model/kube-object.js';
import { estimateReadiness, podReadinessMs } from './rehearsal-readiness.js';

const pod = (started: string[], readyAt: string | undefined, ready = true): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p' },
  status: {
    conditions: readyAt ? [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: readyAt }] : [],
    containerStatuses: started.map((s, i) => ({ name: `c${i}`, state: { running: { startedAt: s } } })),
  },
});

describe('a workload readiness estimated from its pods', () => {
  it('is the time from the last container start to Ready', () => {
    expect(podReadinessMs(pod(['2026-01-01T00:00:00Z', '2026-01-01T00:00:02Z'], '2026-01-01T00:00:07Z'))).toBe(5000);
  });

  it('says nothing for a pod not Ready, or missing a timestamp, or restarted since it turned Ready', () => {
    expect(podReadinessMs(pod(['2026-01-01T00:00:00Z'], '2026-01-01T00:00:03Z', false))).toBeUndefined();
    expect(podReadinessMs(pod(['2026-01-01T00:00:00Z'], undefined))).toBeUndefined();
    expect(podReadinessMs(pod([], '2026-01-01T00:00:03Z'))).toBeUndefined();
    expect(podReadinessMs(pod(['2026-01-01T00:05:00Z'], '2026-01-01T00:00:03Z'))).toBeUndefined();
  });

  it('takes the median of the pods that tell, so one slow pod does not decide it', () => {
    const at = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}Z`;
    const pods = [pod([at(0)], at(4)), pod([at(0)], at(4)), pod([at(0)], at(30)), pod([at(0)], undefined)];
    expect(estimateReadiness(pods, 9000)).toEqual({ ms: 4000, source: 'pods', samples: 3 });
    expect(estimateReadiness([pod([at(0)], at(2)), pod([at(0)], at(4))], 9000).ms).toBe(3000);
  });

  it('falls back to the operator value when no pod tells, and says so', () => {
    expect(estimateReadiness([pod(['2026-01-01T00:00:00Z'], undefined)], 9000)).toEqual({
      ms: 9000,
      source: 'fallback',
      samples: 0,
    });
  });
});
