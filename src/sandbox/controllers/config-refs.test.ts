import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/object.js';
import { containerConfigProblem, mountRetryMs, volumeProblem, type ConfigLookup } from './config-refs.js';
import type { Container, Pod, Volume } from './kinds.js';

const objects: Record<string, KubeObject> = {
  'ConfigMap/app': { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app' }, data: { mode: 'prod' } },
  'Secret/creds': { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds' }, data: { password: 'cA==' } },
};
const lookup: ConfigLookup = (kind, name) => objects[`${kind}/${name}`];

function pod(container: Partial<Container>, volumes: Volume[] = []): [Pod, Container] {
  const c: Container = { name: 'main', image: 'app:1', ...container };
  const p = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'shop' },
    spec: { containers: [c], volumes },
  };
  return [p as Pod, c];
}

describe("a pod's ConfigMap and Secret references, as the kubelet reads them", () => {
  it("names a missing ConfigMap or Secret of the environment in the kubelet's words", () => {
    expect(containerConfigProblem(...pod({ envFrom: [{ configMapRef: { name: 'app' } }] }), lookup)).toBeUndefined();
    expect(containerConfigProblem(...pod({ envFrom: [{ configMapRef: { name: 'web' } }] }), lookup)).toBe(
      'configmap "web" not found',
    );
    expect(
      containerConfigProblem(
        ...pod({ env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }] }),
        lookup,
      ),
    ).toBe('secret "db" not found');
  });

  it('names a missing key with the namespace, and skips what is optional', () => {
    const key = (k: string, optional?: boolean) =>
      pod({ env: [{ name: 'M', valueFrom: { configMapKeyRef: { name: 'app', key: k, optional } } }] });
    expect(containerConfigProblem(...key('mode'), lookup)).toBeUndefined();
    expect(containerConfigProblem(...key('region'), lookup)).toBe("couldn't find key region in ConfigMap shop/app");
    expect(containerConfigProblem(...key('region', true), lookup)).toBeUndefined();
    expect(
      containerConfigProblem(...pod({ envFrom: [{ secretRef: { name: 'gone', optional: true } }] }), lookup),
    ).toBeUndefined();
  });

  it('reads envFrom before env, and reports the first problem', () => {
    const [p, c] = pod({
      env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'db', key: 'x' } } }],
      envFrom: [{ configMapRef: { name: 'web' } }],
    });
    expect(containerConfigProblem(p, c, lookup)).toBe('configmap "web" not found');
  });

  it('finds a volume that cannot be mounted: a missing ConfigMap or Secret, or a key it projects', () => {
    expect(volumeProblem(pod({}, [{ name: 'config', configMap: { name: 'app' } }])[0], lookup)).toBeUndefined();
    expect(volumeProblem(pod({}, [{ name: 'tls', secret: { secretName: 'cert' } }])[0], lookup)).toBe(
      'MountVolume.SetUp failed for volume "tls" : secret "cert" not found',
    );
    expect(
      volumeProblem(pod({}, [{ name: 'config', configMap: { name: 'app', items: [{ key: 'nope' }] } }])[0], lookup),
    ).toBe('MountVolume.SetUp failed for volume "config" : configmap references non-existent config key: nope');
    expect(
      volumeProblem(pod({}, [{ name: 'all', projected: { sources: [{ configMap: { name: 'web' } }] } }])[0], lookup),
    ).toBe('MountVolume.SetUp failed for volume "all" : configmap "web" not found');
    expect(
      volumeProblem(pod({}, [{ name: 'opt', secret: { secretName: 'x', optional: true } }])[0], lookup),
    ).toBeUndefined();
  });

  it("retries a mount after the volume manager's back-off: 0.5 s doubling, at most 2m2s", () => {
    expect([1, 2, 3, 8, 9, 20].map(mountRetryMs)).toEqual([500, 1000, 2000, 64_000, 122_000, 122_000]);
  });
});
