import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/object.js';
import { ManualClock } from '../clock.js';
import { SandboxCluster } from '../cluster.js';
import { recordUpdate } from '../patch/managed-fields.js';
import { EventRecorder } from './events.js';

let cluster: SandboxCluster | undefined;
afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
});

const deployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:1' }] } },
  },
};

describe('the event recorder', () => {
  it('gives every Event the fields its component owns, as a write of it from scratch would', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    cluster = await SandboxCluster.start({ name: 'a', nodes: 2, seed: 1, clock, objects: [deployment] });
    for (let i = 0; i < 4; i++) await cluster.advance(1_000);
    const events = cluster.store.list('/events', 'default');
    // several of each shape: a pod's kubelet Events name a host, the controllers' do not
    expect(events.length).toBeGreaterThan(10);
    for (const e of events) {
      const [entry, ...rest] = e.metadata.managedFields ?? [];
      expect(rest).toEqual([]);
      const { metadata: _stored, ...fields } = e;
      const fresh = recordUpdate(undefined, undefined, { ...fields, metadata: {} }, 'Event', {
        manager: entry!.manager,
        apiVersion: 'v1',
        time: entry!.time,
        scope: 'main',
      });
      expect(entry).toEqual(fresh[0]);
    }
  });

  it('keeps the newest Events up to its limit, deleting the oldest first', async () => {
    cluster = await SandboxCluster.start({ name: 'a', nodes: 1, seed: 1, objects: [] });
    const before = cluster.store.list('/events', 'default').length;
    const recorder = new EventRecorder(cluster.api, (write) => write(), 3);
    const about = { ...deployment, metadata: { ...deployment.metadata, uid: 'u-1' } };
    for (let i = 1; i <= 5; i++) recorder.record(about, 'Normal', 'Step', `step ${i}`, 'test');
    const messages = cluster.store
      .list('/events', 'default')
      .map((e) => e.message)
      .filter((m) => String(m).startsWith('step '));
    expect(messages.sort()).toEqual(['step 3', 'step 4', 'step 5']);
    expect(cluster.store.list('/events', 'default').length).toBe(before + 3);
  });
});
