import { describe, expect, it } from 'vitest';
import { advance, backoffMs, newRun, SYNC_RETRY_MS, type ContainerNature } from './container-run.js';

const T = { podStartMs: 1000, jobRunMs: 2000, crashAfterMs: 3000 };
const server: ContainerNature = { fault: undefined, restartPolicy: 'Always', exitCode: 0 };

describe('a simulated container', () => {
  it('starts once the pod has had its start time, and keeps running', () => {
    const early = advance(newRun(0), 999, server, T);
    expect(early.run.stage).toBe('creating');
    expect(early.next).toBe(1000);
    const started = advance(newRun(0), 5000, server, T);
    expect(started).toMatchObject({ run: { stage: 'running', startedAt: 1000, restarts: 0 }, happened: ['started'] });
    expect(started.next).toBeUndefined();
  });

  it('never pulls a :nopull image: ErrImagePull, then back-off, then again', () => {
    const nopull: ContainerNature = { ...server, fault: 'nopull' };
    expect(advance(newRun(0), 1500, nopull, T).run.stage).toBe('pullError');
    expect(advance(newRun(0), 2000, nopull, T).run.stage).toBe('pullBackOff');
    const retried = advance(newRun(0), 2000 + 10_000, nopull, T);
    expect(retried.run).toMatchObject({ stage: 'pullError', pullAttempts: 2 });
  });

  it('crash-loops with a back-off that doubles up to five minutes', () => {
    const crash: ContainerNature = { ...server, fault: 'crashloop' };
    const first = advance(newRun(0), 4000, crash, T);
    expect(first.run).toMatchObject({
      stage: 'backOff',
      restarts: 1,
      last: { exitCode: 1, reason: 'Error', startedAt: 1000, finishedAt: 4000 },
    });
    expect(first.next).toBe(4000 + 10_000);
    expect(advance(newRun(0), 4000 + 10_000 + 3000, crash, T).run).toMatchObject({ stage: 'backOff', restarts: 2 });
    expect([1, 2, 3, 6, 10].map(backoffMs)).toEqual([10_000, 20_000, 40_000, 300_000, 300_000]);
  });

  it('exits for good under restartPolicy Never, and restarts a failure under OnFailure', () => {
    const job: ContainerNature = { fault: undefined, restartPolicy: 'Never', exitCode: 0 };
    expect(advance(newRun(0), 3000, job, T).run).toMatchObject({
      stage: 'exited',
      last: { exitCode: 0, reason: 'Completed' },
    });
    const retry: ContainerNature = { fault: undefined, restartPolicy: 'OnFailure', exitCode: 1 };
    expect(advance(newRun(0), 3000, retry, T).run).toMatchObject({ stage: 'backOff', restarts: 1 });
  });

  it('waits as CreateContainerConfigError while its environment cannot be made, and starts at the next sync after', () => {
    const missing: ContainerNature = { ...server, configProblem: 'configmap "app" not found' };
    const waiting = advance(newRun(0), 1500, missing, T);
    expect(waiting).toMatchObject({
      run: { stage: 'configError', configError: 'configmap "app" not found' },
      happened: ['configFailed'],
      next: 1000 + SYNC_RETRY_MS,
    });
    // still missing at the next sync: another try, another event
    expect(advance(waiting.run, 1000 + SYNC_RETRY_MS, missing, T)).toMatchObject({
      run: { stage: 'configError', since: 1000 + SYNC_RETRY_MS },
      happened: ['configFailed'],
    });
    // there by the next sync: it starts then, not before
    expect(advance(waiting.run, 1000 + SYNC_RETRY_MS - 1, server, T).run.stage).toBe('configError');
    const started = advance(waiting.run, 1000 + SYNC_RETRY_MS, server, T);
    expect(started).toMatchObject({
      run: { stage: 'running', startedAt: 1000 + SYNC_RETRY_MS },
      happened: ['started'],
    });
    expect(started.run.configError).toBeUndefined();
  });
});
