import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { StepError, type RecoverySteps, type RunBatch, type RunPlan } from '../workflows/recovery/model.js';
import { runMachine } from '../workflows/recovery/run-machine.js';
import { LiveRecovery } from './LiveRecovery.js';

const batch = (cluster: string, index: number, name: string): RunBatch => ({
  cluster,
  index,
  targets: [
    { cluster, namespace: 'shop', kind: 'Pod', name, uid: `${name}-uid`, owner: { kind: 'Deployment', name: 'web' } },
  ],
});

const plan: RunPlan = {
  runbook: 'app-recovery',
  action: 'delete',
  maxUnavailable: 1,
  clusterConcurrency: 2,
  healthTimeoutMs: 60_000,
  onFailure: 'pause',
  restartedAt: '2026-11-22T00:00:00Z',
  batches: [batch('prod-eu', 1, 'web-1'), batch('prod-eu', 2, 'web-2'), batch('staging', 1, 'web-3')],
  unresolved: [],
  blastRadius: [],
};

/** Ink redraws on a later turn of the event loop: wait until the frame says what we expect. */
async function frameWith(lastFrame: () => string | undefined, text: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const f = lastFrame() ?? '';
    if (f.includes(text)) return f;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`no frame showed ${JSON.stringify(text)}; the last was:\n${lastFrame() ?? ''}`);
}

describe('LiveRecovery', () => {
  it("shows each cluster's batches and health, pauses on a failure, and retries it on t", async () => {
    let failing = true;
    const steps: RecoverySteps = {
      now: () => 0,
      gate: async () => undefined,
      act: async (input) => input.batch.targets.map(() => 'deleted' as const),
      verify: async (input, report) => {
        report({ subject: 'shop/Deployment/web', health: { state: 'Progressing', message: '2 of 3 pods Ready' } });
        if (input.cluster === 'prod-eu' && input.batch.index === 2 && failing)
          throw new StepError('CrashLoopBackOff', 'pod web-9 keeps crashing');
      },
      audit: () => undefined,
    };
    const actor = createActor(runMachine(steps, plan), { input: { runId: 'r-1' } }).start();
    const { lastFrame, stdin, unmount } = render(<LiveRecovery actor={actor} prod={new Set(['prod-eu'])} />);
    actor.send({ type: 'APPROVE' });
    const paused = await frameWith(lastFrame, 'paused: failure');
    expect(paused).toContain('app-recovery run r-1');
    expect(paused).toContain('CrashLoopBackOff: pod web-9 keeps crashing');
    expect(paused).toMatch(/prod-eu\s+paused: failure\s+1\/2 ✓·/);
    expect(paused).toMatch(/staging\s+done\s+1\/1 ✓/);
    expect(paused).toContain('t retry batch · s skip batch · x stop cluster');
    failing = false;
    stdin.write('t');
    const done = await frameWith(lastFrame, '2/2 ✓✓');
    expect(done).toMatch(/prod-eu\s+done\s+2\/2 ✓✓/);
    unmount();
    actor.stop();
  });
});
