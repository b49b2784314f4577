/**
 * The forecast screen tests show for the fixture's recovery plan: what a rehearsal of it on the
 * fixture's two clusters reports (frontend ready 4.2 s after start on sandbox-a, 6 s on
 * sandbox-b; sandbox-a's second batch held at its gate until the first replacement is ready).
 */
import { lowerBound, REHEARSAL_LIMITS, type Rehearsal } from '../../recovery/rehearsal.js';
import type { RunPlan } from '../../workflows/recovery/model.js';

const READINESS_MS: Record<string, number> = { 'sandbox-a': 4200, 'sandbox-b': 6000 };

export function fixtureRehearsal(plan: RunPlan): Rehearsal {
  const readiness = (workload: string) => READINESS_MS[workload.split('/')[0] ?? ''] ?? 0;
  const bound = lowerBound(
    plan.batches.map((b) => ({
      cluster: b.cluster,
      workloads: b.targets.map((t) => `${b.cluster}/${t.namespace}/Deployment/frontend`),
    })),
    readiness,
    plan.clusterConcurrency,
  );
  const batches: Rehearsal['batches'] = [
    {
      cluster: 'sandbox-a',
      index: 1,
      targets: ['guestbook/Pod/frontend-7d9-abcde'],
      startMs: 0,
      gateOpenMs: 0,
      endMs: 4400,
      outcome: 'verified',
    },
    {
      cluster: 'sandbox-a',
      index: 2,
      targets: ['guestbook/Pod/frontend-7d9-fghij'],
      startMs: 4400,
      gateOpenMs: 4700,
      endMs: 8900,
      outcome: 'verified',
    },
    {
      cluster: 'sandbox-b',
      index: 1,
      targets: ['guestbook/Pod/frontend-7d9-klmno'],
      startMs: 8900,
      gateOpenMs: 8900,
      endMs: 15100,
      outcome: 'verified',
    },
  ];
  const overallMs = 15100;
  return {
    runbook: plan.runbook,
    action: plan.action,
    timeScale: 0.25,
    tookMs: 3800,
    predicted: {
      overallMs,
      clusters: [
        { cluster: 'sandbox-a', wallMs: 8900, end: 'done' },
        { cluster: 'sandbox-b', wallMs: 6200, end: 'done' },
      ],
    },
    batches,
    workloads: [
      {
        workload: 'sandbox-a/guestbook/Deployment/frontend',
        desired: 3,
        availableBefore: 3,
        minAvailable: 2,
        minAtMs: 100,
        readiness: { ms: 4200, source: 'pods', samples: 3 },
      },
      {
        workload: 'sandbox-b/guestbook/Deployment/frontend',
        desired: 1,
        availableBefore: 1,
        minAvailable: 0,
        minAtMs: 9000,
        readiness: { ms: 6000, source: 'pods', samples: 1 },
      },
    ],
    gates: [
      {
        cluster: 'sandbox-a',
        batch: 1,
        atMs: 0,
        decision: 'opened',
        message: 'every workload has its replicas available',
      },
      {
        cluster: 'sandbox-a',
        batch: 2,
        atMs: 4400,
        decision: 'held',
        subject: 'guestbook/Deployment/frontend',
        message: '2 of 3 available; waiting for 3',
      },
      {
        cluster: 'sandbox-b',
        batch: 1,
        atMs: 8900,
        decision: 'opened',
        message: 'every workload has its replicas available',
      },
    ],
    refusals: [],
    pauses: [],
    lowerBound: bound,
    ratio: overallMs / bound.overallMs,
    limits: [...REHEARSAL_LIMITS],
  };
}
