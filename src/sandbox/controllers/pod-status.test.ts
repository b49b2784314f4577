import { describe, expect, it } from 'vitest';
import { rfc3339 } from '../time.js';
import type { Pod } from './kinds.js';
import { containerStatus, podStatus } from './pod-status.js';

const pod: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-1', namespace: 'shop' },
  spec: { containers: [{ name: 'main', image: 'web:1' }] },
};

describe('podStatus', () => {
  it("turns Ready when the containers' probes passed, not when a late reconcile saw it", () => {
    const startedAt = Date.parse('2026-11-28T10:00:00.900Z');
    const probePassed = startedAt + 2000;
    const run = { stage: 'running' as const, since: startedAt, startedAt, restarts: 0, pullAttempts: 0 };
    const status = podStatus(
      pod,
      {
        hostIP: '10.0.0.1',
        podIP: '10.244.0.2',
        startTime: rfc3339(startedAt),
        statuses: [containerStatus(pod, 'main', 'web:1', run, true)],
        initStatuses: [],
        gatesPass: true,
        readySince: probePassed,
      },
      // the reconcile came 300 ms late, across a second boundary
      probePassed + 300,
    );
    const at = (type: string) => status.conditions?.find((c) => c.type === type)?.lastTransitionTime;
    expect(at('Ready')).toBe(rfc3339(probePassed));
    expect(at('ContainersReady')).toBe(rfc3339(probePassed));
    expect(at('Initialized')).toBe(rfc3339(probePassed + 300));
  });
});
