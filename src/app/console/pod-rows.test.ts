import { describe, expect, it } from 'vitest';
import { humanDuration } from './age.js';
import { podsBehind, podsOfWorkload, labelSelectorText } from '../pods/owned-pods.js';
import { parseSort, podRow, podStatus, sortPods } from './pod-rows.js';

const NOW = Date.parse('2026-03-02T09:10:00Z');
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString();

const pod = (name: string, status: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'web', uid: `${name}-uid`, creationTimestamp: at(300_000), ...extra },
  spec: { nodeName: 'a-node-1', containers: [{ name: 'app' }] },
  status: { phase: 'Running', podIP: '10.0.0.5', ...status },
});

describe('pods as kubectl get pods -o wide prints them', () => {
  it('says why a container waits, with the restarts and the age of the last one', () => {
    const row = podRow(
      pod('web-1', {
        containerStatuses: [
          {
            name: 'app',
            ready: false,
            restartCount: 3,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { exitCode: 1, finishedAt: at(42_000) } },
          },
        ],
      }),
      NOW,
    );
    expect(row).toMatchObject({
      name: 'web-1',
      ready: '0/1',
      status: 'CrashLoopBackOff',
      restartsText: '3 (42s ago)',
      age: '5m',
      node: 'a-node-1',
      ip: '10.0.0.5',
      tone: 'danger',
    });
  });

  it('follows kubectl for init containers, terminations and pods being deleted', () => {
    expect(
      podStatus(
        pod('a', { phase: 'Pending', initContainerStatuses: [{ state: { waiting: { reason: 'PodInitializing' } } }] }),
      ),
    ).toBe('Init:0/1');
    expect(podStatus(pod('b', { containerStatuses: [{ state: { terminated: { exitCode: 137 } } }] }))).toBe(
      'ExitCode:137',
    );
    expect(podStatus(pod('c', { containerStatuses: [{ state: { terminated: { reason: 'OOMKilled' } } }] }))).toBe(
      'OOMKilled',
    );
    expect(podStatus(pod('d', {}, { deletionTimestamp: at(1000) }))).toBe('Terminating');
  });

  it('prints ages as kubectl does', () => {
    expect(
      [5_000, 119_000, 150_000, 600_000, 3 * 3600_000 + 60_000, 50 * 3600_000, 400 * 86400_000].map(humanDuration),
    ).toEqual(['5s', '119s', '2m30s', '10m', '3h1m', '2d2h', '400d']);
  });

  it('sorts by a column, descending with a minus, and says which columns there are', () => {
    const rows = [
      podRow(pod('web-10', { containerStatuses: [{ restartCount: 1 }] }), NOW),
      podRow(pod('web-2', { containerStatuses: [{ restartCount: 7 }] }), NOW),
      podRow(pod('web-1', {}), NOW),
    ];
    expect(sortPods(rows, undefined).map((r) => r.name)).toEqual(['web-1', 'web-2', 'web-10']);
    const byRestarts = parseSort('-restarts');
    expect(byRestarts).toEqual({ column: 'restarts', descending: true });
    expect(sortPods(rows, byRestarts as Exclude<typeof byRestarts, { error: string }>).map((r) => r.name)).toEqual([
      'web-2',
      'web-10',
      'web-1',
    ]);
    expect(parseSort('colour')).toEqual({
      error: 'no column colour; sort by name, ready, status, restarts, age, node, ip (-COLUMN: descending)',
    });
  });
});

describe('the pods of an object', () => {
  const deployment = {
    kind: 'Deployment',
    metadata: { name: 'web', uid: 'd1' },
    spec: { selector: { matchLabels: { app: 'web' } } },
  };
  const rs = (name: string, owner: string) => ({
    kind: 'ReplicaSet',
    metadata: { name, uid: name, ownerReferences: [{ kind: 'Deployment', uid: owner, controller: true }] },
  });
  const owned = (name: string, owner: string) =>
    pod(name, {}, { ownerReferences: [{ kind: 'ReplicaSet', name: owner, uid: owner, controller: true }] });

  it('follows owner references from a Deployment through its ReplicaSets, leaving pods of other controllers out', () => {
    const pods = [owned('web-a-1', 'web-a'), owned('web-b-1', 'web-b'), owned('other-1', 'other'), pod('bare', {})];
    const found = podsOfWorkload(deployment, pods, [rs('web-a', 'd1'), rs('web-b', 'd1'), rs('other', 'd2')]);
    expect(found.map((p) => p.metadata?.name)).toEqual(['web-a-1', 'web-b-1', 'bare']);
    expect(
      labelSelectorText({
        matchLabels: { app: 'web' },
        matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }],
      }),
    ).toBe('app=web,tier in (a,b)');
  });

  it("finds a Service's pods through its EndpointSlices or Endpoints", () => {
    const pods = [pod('web-1', {}), pod('web-2', {}), pod('db-1', {})];
    const slice = { kind: 'EndpointSlice', endpoints: [{ targetRef: { kind: 'Pod', name: 'web-1' } }] };
    const endpoints = {
      kind: 'Endpoints',
      subsets: [{ notReadyAddresses: [{ targetRef: { kind: 'Pod', name: 'web-2' } }] }],
    };
    expect(podsBehind([slice, endpoints], pods).map((p) => p.metadata?.name)).toEqual(['web-1', 'web-2']);
  });
});
