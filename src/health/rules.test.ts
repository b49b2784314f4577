import { describe, expect, it } from 'vitest';
import { assess, conditionMet } from './rules.js';
import { type KubeObject } from '../model/kube-object.js';

const deployment = (status: KubeObject, generation = 2, replicas = 3): KubeObject => ({
  kind: 'Deployment',
  metadata: { name: 'web', generation },
  spec: { replicas },
  status: { observedGeneration: 2, ...status },
});

const stuckPod = (reason: string): KubeObject => ({
  kind: 'Pod',
  metadata: { name: 'web-1' },
  status: {
    phase: 'Pending',
    containerStatuses: [
      { name: 'main', ready: false, state: { waiting: { reason, message: 'Back-off pulling image "nginx:nope"' } } },
    ],
  },
});

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

  it('says why a rollout is stuck, from its pods, without giving up on it', () => {
    const h = assess(deployment({ updatedReplicas: 1, replicas: 1 }), { pods: [stuckPod('ImagePullBackOff')] });
    expect(h).toMatchObject({ state: 'Progressing', reason: 'ImagePullBackOff' });
    expect(h.message).toContain('pod web-1: container main ImagePullBackOff');
    expect(assess(stuckPod('CrashLoopBackOff'))).toMatchObject({ state: 'Degraded', reason: 'CrashLoopBackOff' });
    expect(assess(stuckPod('ContainerCreating'))).toMatchObject({ state: 'Progressing', reason: 'ContainerCreating' });
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

  it('never holds a Service back for endpoints or a load balancer, but says how it stands', () => {
    const svc: KubeObject = { kind: 'Service', spec: { selector: { app: 'web' } } };
    expect(assess(svc, { endpoints: { subsets: [] } })).toEqual({
      state: 'Healthy',
      message: 'no ready endpoints yet',
    });
    expect(assess(svc, { endpoints: { subsets: [{ addresses: [{ ip: '10.0.0.1' }] }] } })).toEqual({
      state: 'Healthy',
      message: '1 ready endpoint',
    });
    expect(assess({ kind: 'Service', spec: { type: 'LoadBalancer', selector: {} }, status: {} }).message).toBe(
      'load balancer address pending',
    );
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
