import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../model/kube-object.js';
import { assess, conditionMet, type HealthClock } from './rules.js';

const deployment = (status: KubeObject, generation = 2, replicas = 3): KubeObject => ({
  kind: 'Deployment',
  metadata: { name: 'web', generation },
  spec: { replicas },
  status: { observedGeneration: 2, ...status },
});

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
/** The rules' clock, `ms` after the pods were created, with the default 30 s grace. */
const at = (ms: number, graceMs = 30_000): HealthClock => ({ now: T0 + ms, graceMs });

/** A pod of web's current ReplicaSet, created at T0, whose container waits for `reason`. */
const stuckPod = (reason: string, restartCount = 0, name = 'web-1'): KubeObject => ({
  kind: 'Pod',
  metadata: { name, uid: `uid-${name}`, creationTimestamp: iso(T0), labels: { 'pod-template-hash': 'new' } },
  status: {
    phase: 'Pending',
    containerStatuses: [
      {
        name: 'main',
        ready: false,
        restartCount,
        state: { waiting: { reason, message: 'Back-off pulling image "nginx:nope"' } },
      },
    ],
  },
});
const unschedulablePod = (): KubeObject => ({
  kind: 'Pod',
  metadata: { name: 'web-1', uid: 'uid-web-1', creationTimestamp: iso(T0), labels: { 'pod-template-hash': 'new' } },
  status: {
    phase: 'Pending',
    conditions: [
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message: '0/3 nodes are available: 3 Insufficient cpu.',
      },
    ],
  },
});
const rollingOut = () => deployment({ updatedReplicas: 1, replicas: 1 }, 2, 1);

describe('health as kubectl rollout status judges it', () => {
  it('follows a Deployment rollout step by step', () => {
    expect(assess(deployment({}, 3))).toMatchObject({
      state: 'Progressing',
      message: 'waiting for the deployment spec update to be observed',
    });
    expect(assess(deployment({ updatedReplicas: 1, replicas: 3 })).message).toBe(
      '1 out of 3 new replicas have been updated',
    );
    expect(assess(deployment({ updatedReplicas: 3, replicas: 4 })).message).toBe(
      '1 old replicas are pending termination',
    );
    expect(assess(deployment({ updatedReplicas: 3, replicas: 3, availableReplicas: 2 })).message).toBe(
      '2 of 3 updated replicas are available',
    );
    expect(assess(deployment({ updatedReplicas: 3, replicas: 3, availableReplicas: 3 }))).toEqual({
      state: 'Healthy',
      message: 'successfully rolled out (3/3)',
    });
    expect(
      assess(
        deployment({
          updatedReplicas: 1,
          conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }],
        }),
      ),
    ).toEqual({
      state: 'Degraded',
      reason: 'ProgressDeadlineExceeded',
      message: 'deployment "web" exceeded its progress deadline',
    });
  });

  it('says why a rollout is stuck, from its pods, and gives up on it once their grace has passed', () => {
    for (const reason of ['ImagePullBackOff', 'ErrImagePull', 'CreateContainerConfigError']) {
      const pods = [stuckPod(reason)];
      const within = assess(rollingOut(), { pods }, at(29_999));
      expect(within, reason).toMatchObject({ state: 'Progressing', reason });
      expect(within.message).toContain(`pod web-1: container main ${reason}`);
      expect(assess(rollingOut(), { pods }, at(30_000)), reason).toMatchObject({ state: 'Degraded', reason });
      // the grace is the caller's to set
      expect(assess(rollingOut(), { pods }, at(5_000, 5_000)), reason).toMatchObject({ state: 'Degraded', reason });
    }
  });

  it('fails a crash loop only after two restarts, and only once its grace has passed', () => {
    const once = [stuckPod('CrashLoopBackOff', 1)];
    expect(assess(rollingOut(), { pods: once }, at(60_000)).state).toBe('Progressing');
    const twice = [stuckPod('CrashLoopBackOff', 2)];
    expect(assess(rollingOut(), { pods: twice }, at(10_000))).toMatchObject({
      state: 'Progressing',
      reason: 'CrashLoopBackOff',
    });
    expect(assess(rollingOut(), { pods: twice }, at(30_000))).toMatchObject({
      state: 'Degraded',
      reason: 'CrashLoopBackOff',
    });
  });

  it("fails an unschedulable pod once its grace has passed, with the scheduler's reason", () => {
    const pods = [unschedulablePod()];
    expect(assess(rollingOut(), { pods }, at(1_000))).toMatchObject({ state: 'Progressing', reason: 'Unschedulable' });
    const h = assess(rollingOut(), { pods }, at(31_000));
    expect(h).toMatchObject({ state: 'Degraded', reason: 'Unschedulable' });
    expect(h.message).toBe('pod web-1 cannot be scheduled: 0/3 nodes are available: 3 Insufficient cpu.');
  });

  it('judges a pod on its own by the same rule', () => {
    expect(assess(stuckPod('ImagePullBackOff'), {}, at(1_000)).state).toBe('Progressing');
    expect(assess(stuckPod('ImagePullBackOff'), {}, at(30_000)).state).toBe('Degraded');
    expect(assess(stuckPod('ContainerCreating'), {}, at(60_000))).toMatchObject({
      state: 'Progressing',
      reason: 'ContainerCreating',
    });
  });

  it("ignores the trouble of a replaced revision's pods", () => {
    const old = {
      ...stuckPod('CrashLoopBackOff', 9, 'web-old'),
      metadata: {
        name: 'web-old',
        uid: 'uid-web-old',
        creationTimestamp: iso(T0 - 600_000),
        labels: { 'pod-template-hash': 'old' },
      },
    };
    const fresh: KubeObject = {
      kind: 'Pod',
      metadata: { name: 'web-2', uid: 'uid-web-2', creationTimestamp: iso(T0), labels: { 'pod-template-hash': 'new' } },
      status: { phase: 'Running', containerStatuses: [{ name: 'main', ready: false, state: { running: {} } }] },
    };
    expect(assess(rollingOut(), { pods: [old, fresh] }, at(60_000)).state).toBe('Progressing');
    expect(assess(rollingOut(), { pods: [old, fresh] }, at(60_000)).reason).toBeUndefined();
  });

  it('judges a Deployment by the pods of the ReplicaSet its Progressing condition names, once it has seen its spec', () => {
    // fixing a crash loop: the old ReplicaSet's pods keep crashing until the new one's replace them
    const crashing = {
      ...stuckPod('CrashLoopBackOff', 9, 'web-old-1'),
      metadata: {
        name: 'web-old-1',
        uid: 'uid-web-old-1',
        creationTimestamp: iso(T0),
        labels: { 'pod-template-hash': 'old' },
        ownerReferences: [{ kind: 'ReplicaSet', name: 'web-old', controller: true }],
      },
    };
    const fixing = (observedGeneration: number, rs: string) =>
      deployment(
        {
          observedGeneration,
          updatedReplicas: 0,
          replicas: 1,
          conditions: [{ type: 'Progressing', status: 'True', message: `ReplicaSet "${rs}" is progressing.` }],
        },
        2,
        1,
      );
    expect(assess(fixing(1, 'web-old'), { pods: [crashing] }, at(60_000)).state).toBe('Progressing');
    expect(assess(fixing(2, 'web-new'), { pods: [crashing] }, at(60_000))).toMatchObject({ state: 'Progressing' });
    expect(assess(fixing(2, 'web-new'), { pods: [crashing] }, at(60_000)).reason).toBeUndefined();
    // the new ReplicaSet's own pod crash-looping past its grace does fail it
    const alsoCrashing = {
      ...crashing,
      metadata: {
        ...crashing.metadata,
        name: 'web-new-1',
        uid: 'uid-web-new-1',
        ownerReferences: [{ kind: 'ReplicaSet', name: 'web-new' }],
      },
    };
    expect(assess(fixing(2, 'web-new'), { pods: [crashing, alsoCrashing] }, at(60_000))).toMatchObject({
      state: 'Degraded',
      reason: 'CrashLoopBackOff',
    });
  });

  it("counts a pod from when it was first seen when the cluster's clock runs ahead of ours", () => {
    const ahead = {
      ...stuckPod('ImagePullBackOff'),
      metadata: {
        name: 'web-1',
        uid: 'uid-web-1',
        creationTimestamp: iso(T0 + 3_600_000),
        labels: { 'pod-template-hash': 'new' },
      },
    };
    const firstSeen = new Map([['uid-web-1', T0]]);
    expect(assess(rollingOut(), { pods: [ahead] }, { ...at(29_000), firstSeen }).state).toBe('Progressing');
    expect(assess(rollingOut(), { pods: [ahead] }, { ...at(30_000), firstSeen }).state).toBe('Degraded');
  });

  it('judges StatefulSets by readiness and revisions, DaemonSets by scheduled pods', () => {
    const sts = (status: KubeObject): KubeObject => ({
      kind: 'StatefulSet',
      metadata: { generation: 1 },
      spec: { replicas: 2 },
      status: { observedGeneration: 1, ...status },
    });
    expect(assess(sts({ readyReplicas: 1 })).message).toBe('waiting for 1 pods to be ready');
    expect(assess(sts({ readyReplicas: 2, currentRevision: 'a', updateRevision: 'b' })).state).toBe('Progressing');
    expect(assess(sts({ readyReplicas: 2, currentRevision: 'b', updateRevision: 'b' })).state).toBe('Healthy');
    const ds: KubeObject = {
      kind: 'DaemonSet',
      metadata: { generation: 1 },
      status: { observedGeneration: 1, desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 2 },
    };
    expect(assess(ds).message).toBe('2 of 3 updated pods are available');
  });

  it('judges Jobs by their Complete and Failed conditions', () => {
    const job = (type: string, reason?: string): KubeObject => ({
      kind: 'Job',
      status: { succeeded: 1, conditions: [{ type, status: 'True', reason }] },
    });
    expect(assess(job('Complete')).state).toBe('Healthy');
    expect(assess(job('Failed', 'BackoffLimitExceeded'))).toMatchObject({
      state: 'Degraded',
      reason: 'BackoffLimitExceeded',
    });
    expect(assess(job('SuccessCriteriaMet')).state).toBe('Progressing');
  });

  it('never holds a Service back for its endpoints, but says how they stand', () => {
    const svc: KubeObject = { kind: 'Service', spec: { selector: { app: 'web' } } };
    expect(assess(svc, { endpoints: { subsets: [] } })).toEqual({
      state: 'Healthy',
      message: 'no ready endpoints yet',
    });
    expect(assess(svc, { endpoints: { subsets: [{ addresses: [{ ip: '10.0.0.1' }] }] } })).toEqual({
      state: 'Healthy',
      message: '1 ready endpoint',
    });
  });

  it('holds a LoadBalancer Service back until it has an address', () => {
    const lb = (status: KubeObject): KubeObject => ({
      kind: 'Service',
      spec: { type: 'LoadBalancer', selector: {} },
      status,
    });
    expect(assess(lb({}))).toEqual({ state: 'Progressing', message: 'waiting for the load balancer address' });
    expect(assess(lb({ loadBalancer: { ingress: [] } })).state).toBe('Progressing');
    expect(assess(lb({ loadBalancer: { ingress: [{ ip: '127.0.0.2' }] } }))).toEqual({
      state: 'Healthy',
      message: 'load balancer at 127.0.0.2',
    });
    expect(assess(lb({ loadBalancer: { ingress: [{ hostname: 'lb.example.com' }] } })).state).toBe('Healthy');
  });

  it('treats other kinds as healthy once they exist, or by their Ready condition', () => {
    expect(assess({ kind: 'ConfigMap' })).toEqual({ state: 'Healthy', message: 'exists' });
    expect(
      assess({
        kind: 'EtcdBackup',
        status: { conditions: [{ type: 'Ready', status: 'False', message: 'snapshotting' }] },
      }),
    ).toEqual({ state: 'Progressing', message: 'snapshotting' });
  });

  it('ignores a condition older than the spec, as kubectl wait does', () => {
    const pod: KubeObject = {
      kind: 'Pod',
      metadata: { generation: 2 },
      status: { conditions: [{ type: 'Ready', status: 'True', observedGeneration: 1 }] },
    };
    expect(conditionMet(pod, 'ready')).toBe(false);
  });
});
