import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ResourceGraph } from '../graph/graph.js';
import { changeKey, type ChangeSet, type ResourceChange } from '../diff/change-set.js';
import { OperationProgress } from './OperationProgress.js';

const change = (id: string, action: ResourceChange['action']): ResourceChange => ({
  id,
  cluster: 'sandbox-a',
  action,
  decision: { action, fields: [], drift: false, driftFields: [] },
  unresolved: [],
});

const changeSet: ChangeSet = {
  project: 'shop',
  stack: 'dev',
  changes: [
    change('v1:Namespace:shop', 'Create'),
    change('apps/v1:Deployment:shop:web', 'Update'),
    change('v1:ConfigMap:shop:c', 'UnChanged'),
    change('v1:Service:shop:old', 'Delete'),
  ],
  graph: new ResourceGraph([], []),
  deletions: new ResourceGraph([], []),
  states: new Map(),
};

/** Progress is kept by (cluster, id). */
const at = (id: string) => changeKey({ cluster: 'sandbox-a', id });

describe('OperationProgress', () => {
  it('shows each change with its phase and health, and a summary', () => {
    const { lastFrame } = render(
      <OperationProgress
        changeSet={changeSet}
        maxRows={10}
        progress={{
          [at('v1:Namespace:shop')]: { phase: 'succeeded', health: { state: 'Healthy', message: 'active' } },
          [at('apps/v1:Deployment:shop:web')]: {
            phase: 'applied',
            health: {
              state: 'Progressing',
              reason: 'ImagePullBackOff',
              message: 'pod web-1: container main ImagePullBackOff',
            },
          },
          [at('v1:Service:shop:old')]: { phase: 'pending' },
        }}
      />,
    );
    const frame = lastFrame()!;
    expect(frame.split('\n')).toEqual([
      '◑ Update  apps/v1:Deployment:shop:web sandbox-a Progressing (ImagePullBackOff): pod web-1: containe…',
      '✓ Create  v1:Namespace:shop           sandbox-a Healthy: active',
      '· Delete  v1:Service:shop:old         sandbox-a',
      '1 done, 1 running, 0 failed, 0 skipped, 1 waiting',
    ]);
  });

  it('keeps to the rows it may use and says how many it left out', () => {
    const { lastFrame } = render(
      <OperationProgress
        changeSet={changeSet}
        maxRows={1}
        progress={{ [at('v1:Service:shop:old')]: { phase: 'failed', message: 'Forbidden: no' } }}
      />,
    );
    expect(lastFrame()!.split('\n').slice(0, 2)).toEqual([
      '✗ Delete  v1:Service:shop:old         sandbox-a Forbidden: no',
      '… and 2 more',
    ]);
  });
});

describe('OperationProgress: only what really happened is done', () => {
  it('shows a resource stopped while progressing and one kept for another stack, neither as ✓ done', () => {
    const { lastFrame } = render(
      <OperationProgress
        changeSet={changeSet}
        maxRows={10}
        width={140}
        progress={{
          [at('v1:Namespace:shop')]: { phase: 'succeeded', health: { state: 'Healthy', message: 'active' } },
          [at('apps/v1:Deployment:shop:web')]: {
            phase: 'stopped',
            health: { state: 'Progressing', reason: 'CrashLoopBackOff', message: 'pod web-1: container main' },
            message: 'stopped while progressing: applied and recorded, its health not yet known',
          },
          [at('v1:Service:shop:old')]: {
            phase: 'forgotten',
            message: 'kept in the cluster: also applied by shop/prod; only forgotten by this stack',
          },
        }}
      />,
    );
    const lines = lastFrame()!.split('\n');
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^◌ Update +apps\/v1:Deployment:shop:web +sandbox-a stopped while Progressing \(CrashLoopBackOff\)/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^○ Delete +v1:Service:shop:old +sandbox-a kept in the cluster: also applied by shop\/prod/,
      ),
    );
    expect(lines.at(-1)).toBe(
      '1 done, 0 running, 0 failed, 0 skipped, 0 waiting, 1 stopped while progressing, 1 forgotten (kept)',
    );
  });
});
