/**
 * The sandbox's simulated cloud load balancer: a LoadBalancer Service gets a loopback address a
 * configurable moment after it appears, each its own; a Service that stops being a LoadBalancer
 * loses it; other Services never get one.
 */
import { CoreV1Api, type V1Service } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/sandbox/clock.js';
import { SandboxCluster } from '../src/sandbox/cluster.js';
import { kubeConfigFor } from './support/kube-target.js';

const service = (name: string, type: string): V1Service => ({
  metadata: { name },
  spec: { type, selector: { app: name }, ports: [{ port: 80 }] },
});

describe('the simulated cloud load balancer', () => {
  const clock = new ManualClock();
  let cluster: SandboxCluster;
  let core: CoreV1Api;
  beforeAll(async () => {
    cluster = await SandboxCluster.start({ name: 'lb', clock, timings: { loadBalancerMs: 2000 } });
    core = kubeConfigFor(cluster).makeApiClient(CoreV1Api);
  });
  afterAll(() => cluster.stop());

  const ingress = async (name: string) =>
    (await core.readNamespacedService({ name, namespace: 'default' })).status?.loadBalancer?.ingress;

  it('gives each LoadBalancer Service a loopback address once its delay has passed, and none to others', async () => {
    await core.createNamespacedService({ namespace: 'default', body: service('web', 'LoadBalancer') });
    await core.createNamespacedService({ namespace: 'default', body: service('api', 'LoadBalancer') });
    await core.createNamespacedService({ namespace: 'default', body: service('db', 'ClusterIP') });
    await cluster.settle();
    expect(await ingress('web')).toBeUndefined();
    await cluster.advance(1999);
    expect(await ingress('web')).toBeUndefined();
    await cluster.advance(1);
    const web = (await ingress('web'))?.[0]?.ip;
    const api = (await ingress('api'))?.[0]?.ip;
    expect(web).toMatch(/^127\.0\.0\.\d+$/);
    expect(api).toMatch(/^127\.0\.0\.\d+$/);
    expect(web).not.toBe(api);
    expect(await ingress('db')).toBeUndefined();
  });

  it('takes the address back when the Service stops being a LoadBalancer', async () => {
    await core.patchNamespacedService({
      name: 'web',
      namespace: 'default',
      body: [{ op: 'replace', path: '/spec/type', value: 'ClusterIP' }],
    });
    await cluster.settle();
    expect(await ingress('web')).toBeUndefined();
  });
});
