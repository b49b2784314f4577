import { createActor, waitFor } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { ChangeSet, ResourceChange } from '../diff/change-set.js';
import { ResourceGraph } from '../graph/graph.js';
import { filterRows, resourceRows, stackBadge } from './derive.js';
import { idParts, shortId } from '../model/ids.js';
import { operationMachine } from '../workflows/operation-machine.js';
import { liveKey, newStackEntry, type StackEntry } from '../app/console/state.js';

const stack = {
  name: 'dev',
  dir: '/ws/apps/shop/dev',
  path: 'apps/shop/dev',
  project: { name: 'shop', dir: '/ws/apps/shop' },
};
const change = (id: string, action: ResourceChange['action'], drift = false): ResourceChange => ({
  id,
  cluster: 'a',
  action,
  decision: { action, fields: [], drift, driftFields: [] },
  unresolved: [],
});
const changeSet = (changes: ResourceChange[]): ChangeSet => ({
  project: 'shop',
  stack: 'dev',
  changes,
  graph: new ResourceGraph([], []),
  deletions: new ResourceGraph([], []),
  states: new Map(),
});
const planned = (changes: ResourceChange[], extra: Partial<StackEntry> = {}): StackEntry => ({
  ...newStackEntry(stack),
  plan: { state: 'ok' },
  changeSet: changeSet(changes),
  ...extra,
});

describe('stackBadge', () => {
  it('says unchanged, N changes, drift, unhealthy or error, the most urgent first', () => {
    expect(stackBadge(newStackEntry(stack)).text).toBe('…');
    expect(stackBadge(planned([change('v1:Namespace:shop', 'UnChanged')])).text).toBe('unchanged');
    expect(
      stackBadge(planned([change('v1:Namespace:shop', 'Create'), change('v1:ConfigMap:shop:c', 'Update')])).text,
    ).toBe('2 changes');
    expect(stackBadge(planned([change('v1:ConfigMap:shop:c', 'Update', true)])).kind).toBe('drift');
    const degraded = new Map([
      [liveKey('a', 'v1:ConfigMap:shop:c'), { drift: true, health: { state: 'Degraded' as const, message: 'x' } }],
    ]);
    expect(stackBadge(planned([change('v1:ConfigMap:shop:c', 'Update', true)], { live: degraded })).kind).toBe(
      'unhealthy',
    );
    expect(
      stackBadge(planned([], { compile: { state: 'error', ms: 1, failure: { summary: 'main.k:1:1 x', text: 'x' } } }))
        .kind,
    ).toBe('error');
  });
});

describe('stackBadge after an operation', () => {
  it('says unhealthy when the last apply judged a resource Degraded, though its live object looks only Progressing', async () => {
    const web = change('apps/v1:Deployment:shop:web', 'Update');
    const actor = createActor(
      operationMachine({
        compile: async () => ({ resources: [] }),
        plan: async () => changeSet([web]),
        execute: async () => ({
          succeeded: [],
          failed: [{ cluster: web.cluster, id: web.id }],
          skipped: [],
          notStarted: [],
          stopped: [],
          forgotten: [],
          unhealthy: [{ cluster: web.cluster, id: web.id }],
          interrupted: false,
          counts: { created: 0, updated: 1, deleted: 0 },
        }),
      }),
      { input: { autoApprove: true } },
    ).start();
    await waitFor(actor, (s) => s.status === 'done');
    const live = new Map([
      [liveKey('a', web.id), { drift: false, health: { state: 'Progressing' as const, message: 'waiting' } }],
    ]);
    const entry = planned([change(web.id, 'UnChanged')], { live });
    expect(stackBadge(entry).kind).toBe('unchanged');
    expect(stackBadge(entry, { stack: 'shop/dev', operation: 'apply', actor, startedAt: 0, running: false }).kind).toBe(
      'unhealthy',
    );
  });
});

describe('resource rows', () => {
  it('names resources the way people do and filters them', () => {
    expect(idParts('apps/v1:Deployment:shop:web')).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: 'shop',
      name: 'web',
    });
    expect(shortId('v1:Namespace:shop')).toBe('Namespace/shop');
    const rows = resourceRows(
      planned([change('v1:Namespace:shop', 'UnChanged'), change('apps/v1:Deployment:shop:web', 'Update', true)]),
    );
    expect(rows.map((r) => [r.kind, r.name, r.action, r.drift])).toEqual([
      ['Namespace', 'shop', 'UnChanged', false],
      ['Deployment', 'shop/web', 'Update', true],
    ]);
    expect(filterRows(rows, 'deploy', (r) => r.id).map((r) => r.kind)).toEqual(['Deployment']);
    expect(filterRows(rows, '!deploy', (r) => r.id).map((r) => r.kind)).toEqual(['Namespace']);
  });
});
