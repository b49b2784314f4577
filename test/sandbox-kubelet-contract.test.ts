/**
 * What kubectl reads from kubelets, nodes and the API server's small rules, as a real cluster
 * answers: pod logs (timestamps, tail, a `--previous` that does not exist, `-f` that follows),
 * EndpointSlice port names, node Leases and node info, the cordon taint, the 1 MiB ConfigMap
 * limit, change-cause on ReplicaSets, a terminating namespace's conditions, a lowercase bearer
 * scheme, pods whose ConfigMap comes late (CreateContainerConfigError, FailedMount, then
 * running), and a pod a readiness gate holds unready until another writes it True. Runs against
 * a real cluster too (see support/kube-target.ts).
 */
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PatchStrategy, setHeaderOptions, type V1Pod } from '@kubernetes/client-node';
import { contractTarget, eventually, failure, raw, statusOf, type Target } from './support/kube-target.js';

let t: Target;
beforeAll(async () => {
  t = await contractTarget();
});
afterAll(async () => {
  await t?.close();
});

const ns = () => t.namespace;
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** A pod that writes a line a second (a real kubelet runs it; the sandbox writes heartbeats). */
function ticker(name: string): V1Pod {
  return {
    metadata: { name, labels: { app: name } },
    spec: {
      containers: [
        {
          name: 'main',
          image: 'busybox:1.36',
          command: ['sh', '-c', 'echo started; while true; do echo tick; sleep 1; done'],
          ports: [{ containerPort: 8080 }],
        },
      ],
    },
  };
}

async function running(name: string): Promise<V1Pod> {
  return eventually(
    `pod ${name} to run`,
    async () => {
      const p = await t.core.readNamespacedPod({ name, namespace: ns() });
      return p.status?.containerStatuses?.[0]?.state?.running ? p : undefined;
    },
    60_000,
  );
}

describe('logs', () => {
  beforeAll(async () => {
    await t.core.createNamespacedPod({ namespace: ns(), body: ticker('logger') });
    await running('logger');
  }, 70_000);

  it('prefixes RFC3339 nanosecond timestamps and keeps only the tail asked for', async () => {
    const text = await eventually(
      'two lines of log',
      async () => {
        const l = await raw(t.kc, 'GET', `/api/v1/namespaces/${ns()}/pods/logger/log?timestamps=true`);
        return l.text.trim().split('\n').length >= 2 ? l.text : undefined;
      },
      30_000,
    );
    for (const line of text.trim().split('\n')) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z /);
    const tail = await raw(t.kc, 'GET', `/api/v1/namespaces/${ns()}/pods/logger/log?tailLines=1`);
    expect(tail.status).toBe(200);
    expect(tail.text.trim().split('\n')).toHaveLength(1);
    const limited = await raw(t.kc, 'GET', `/api/v1/namespaces/${ns()}/pods/logger/log?limitBytes=5`);
    expect(Buffer.byteLength(limited.text)).toBeLessThanOrEqual(5);
  }, 40_000);

  it('answers 400 for --previous of a container that never restarted', async () => {
    const r = await raw(t.kc, 'GET', `/api/v1/namespaces/${ns()}/pods/logger/log?previous=true`);
    expect(r.status).toBe(400);
    expect(r.json().message).toBe('previous terminated container "main" in pod "logger" not found');
  });

  it('follows a log: new lines keep coming on the open stream', async () => {
    const server = new URL(t.kc.getCurrentCluster()!.server);
    const opts: https.RequestOptions = {
      hostname: server.hostname,
      port: server.port,
      path: `/api/v1/namespaces/${ns()}/pods/logger/log?follow=true&tailLines=0`,
    };
    await t.kc.applyToHTTPSOptions(opts);
    let received = '';
    let ended = false;
    const req = https.request(opts, (res) => {
      res.setEncoding('utf8');
      res.on('data', (c: string) => (received += c));
      res.on('end', () => (ended = true));
    });
    req.end();
    try {
      // with tailLines=0 nothing old is sent: whatever arrives was written after the request
      await eventually('a line written after the stream opened', () => received.includes('\n'), 20_000);
      expect(ended).toBe(false);
    } finally {
      req.destroy();
    }
  }, 30_000);
});

describe('services and nodes', () => {
  it('names every EndpointSlice port, "" for an unnamed one', async () => {
    await t.core.createNamespacedService({
      namespace: ns(),
      body: {
        metadata: { name: 'logger' },
        spec: { selector: { app: 'logger' }, ports: [{ port: 80, targetPort: 8080 }] },
      },
    });
    const slice = await eventually(
      'an EndpointSlice with ports',
      async () => {
        const r = await raw(
          t.kc,
          'GET',
          `/apis/discovery.k8s.io/v1/namespaces/${ns()}/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Dlogger`,
        );
        const items = r.json().items as { ports?: { name?: string; port: number }[] }[];
        return items.find((s) => (s.ports ?? []).length > 0);
      },
      30_000,
    );
    expect(slice.ports![0]!.name).toBe('');
  }, 40_000);

  it('keeps a Lease per node in kube-node-lease, and reports node info', async () => {
    const nodes = await t.core.listNode();
    const node = nodes.items[0]!;
    const lease = await raw(
      t.kc,
      'GET',
      `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${node.metadata!.name!}`,
    );
    expect(lease.status).toBe(200);
    expect((lease.json().spec as { holderIdentity?: string }).holderIdentity).toBe(node.metadata!.name);
    const info = node.status!.nodeInfo!;
    for (const v of [info.osImage, info.kernelVersion, info.containerRuntimeVersion]) expect(v).not.toBe('');
  });

  it('taints a cordoned node unschedulable:NoSchedule, and removes the taint on uncordon', async () => {
    const name = (await t.core.listNode()).items.at(-1)!.metadata!.name!;
    const taint = (n: { spec?: { taints?: { key: string; effect: string }[] } }) =>
      n.spec?.taints?.find((x) => x.key === 'node.kubernetes.io/unschedulable');
    try {
      await t.core.patchNode({ name, body: { spec: { unschedulable: true } } }, merge);
      const tainted = await eventually('the unschedulable taint', async () => taint(await t.core.readNode({ name })));
      expect(tainted.effect).toBe('NoSchedule');
    } finally {
      await t.core.patchNode({ name, body: { spec: { unschedulable: null } } }, merge);
    }
    await eventually('the taint to go', async () => (taint(await t.core.readNode({ name })) ? undefined : true));
  });
});

describe('small semantics', () => {
  it('refuses a ConfigMap over 1 MiB as Invalid', async () => {
    const s = statusOf(
      await failure(
        t.core.createNamespacedConfigMap({
          namespace: ns(),
          body: { metadata: { name: 'too-big' }, data: { blob: 'x'.repeat(1_100_000) } },
        }),
      ),
    );
    expect(s.code).toBe(422);
    expect(s.message).toBe('ConfigMap "too-big" is invalid: []: Too long: must have at most 1048576 bytes');
  });

  it("copies the Deployment's change-cause to its ReplicaSet", async () => {
    await t.apps.createNamespacedDeployment({
      namespace: ns(),
      body: {
        metadata: { name: 'caused', annotations: { 'kubernetes.io/change-cause': 'first release' } },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'caused' } },
          template: {
            metadata: { labels: { app: 'caused' } },
            spec: { containers: [{ name: 'c', image: 'busybox:1.36', command: ['sleep', '3600'] }] },
          },
        },
      },
    });
    const rs = await eventually('its ReplicaSet', async () => {
      const l = await t.apps.listNamespacedReplicaSet({ namespace: ns(), labelSelector: 'app=caused' });
      return l.items[0];
    });
    expect(rs.metadata?.annotations?.['kubernetes.io/change-cause']).toBe('first release');
  });

  it('reports what holds a terminating namespace in its conditions', async () => {
    const held = `${ns()}-held`;
    await t.core.createNamespace({ body: { metadata: { name: held } } });
    await t.core.createNamespacedConfigMap({
      namespace: held,
      body: { metadata: { name: 'held', finalizers: ['example.com/hold'] } },
    });
    await t.core.deleteNamespace({ name: held });
    try {
      const cond = await eventually(
        'the finalizers condition',
        async () => {
          const n = await t.core.readNamespace({ name: held });
          return n.status?.conditions?.find((c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True');
        },
        30_000,
      );
      expect(cond.reason).toBe('SomeFinalizersRemain');
      expect(cond.message).toContain('example.com/hold in 1 resource instances');
    } finally {
      await t.core.patchNamespacedConfigMap(
        { name: 'held', namespace: held, body: { metadata: { finalizers: null } } },
        merge,
      );
    }
    await eventually(
      'the namespace to go',
      async () => {
        try {
          await t.core.readNamespace({ name: held });
          return undefined;
        } catch {
          return true;
        }
      },
      60_000,
    );
  }, 90_000);

  it('accepts the bearer scheme in lower case', async () => {
    const opts: https.RequestOptions = {};
    await t.kc.applyToHTTPSOptions(opts);
    const auth = (opts.headers as Record<string, string> | undefined)?.Authorization;
    if (!auth?.startsWith('Bearer ')) return; // the target authenticates otherwise (certificates)
    const r = await raw(
      t.kc,
      'GET',
      '/api/v1/namespaces',
      undefined,
      { Authorization: `bearer ${auth.slice(7)}` },
      false,
    );
    expect(r.status).toBe(200);
  });
});

describe('readiness gates', () => {
  it('keeps a running pod unready until another writes its gate True, then its kubelet turns it Ready', async () => {
    const gate = 'example.com/load-balancer-ready';
    const body = ticker('gated');
    body.spec!.readinessGates = [{ conditionType: gate }];
    await t.core.createNamespacedPod({ namespace: ns(), body });
    await running('gated');
    const status = async () => (await t.core.readNamespacedPod({ name: 'gated', namespace: ns() })).status;
    const ready = async () => (await status())?.conditions?.find((c) => c.type === 'Ready');
    // the container is ready long before this: the gate alone holds the pod back
    await eventually(
      'the container ready',
      async () => (await status())?.containerStatuses?.[0]?.ready || undefined,
      30_000,
    );
    expect((await ready())?.status).toBe('False');

    const patch = JSON.stringify({ status: { conditions: [{ type: gate, status: 'True' }] } });
    const r = await raw(t.kc, 'PATCH', `/api/v1/namespaces/${ns()}/pods/gated/status`, patch, {
      'Content-Type': 'application/strategic-merge-patch+json',
    });
    expect(r.status).toBe(200);
    await eventually('the pod Ready', async () => ((await ready())?.status === 'True' ? true : undefined), 30_000);
  }, 70_000);
});

describe('what a pod refers to', () => {
  /** A pod that needs the ConfigMap `config`: in its environment, or as a volume. */
  function needing(name: string, config: string, as: 'env' | 'volume'): V1Pod {
    const container = { name: 'main', image: 'busybox:1.36', command: ['sleep', '3600'] };
    return {
      metadata: { name },
      spec:
        as === 'env'
          ? { containers: [{ ...container, envFrom: [{ configMapRef: { name: config } }] }] }
          : {
              containers: [{ ...container, volumeMounts: [{ name: 'config', mountPath: '/config' }] }],
              volumes: [{ name: 'config', configMap: { name: config } }],
            },
    };
  }

  const warning = (pod: string, reason: string) =>
    eventually(
      `a ${reason} event for ${pod}`,
      async () => {
        const events = await t.core.listNamespacedEvent({
          namespace: ns(),
          fieldSelector: `involvedObject.name=${pod}`,
        });
        return events.items.find((e) => e.reason === reason && e.type === 'Warning');
      },
      30_000,
    );

  it('creates no container whose ConfigMap is missing, says why, and runs it once the ConfigMap exists', async () => {
    await t.core.createNamespacedPod({ namespace: ns(), body: needing('env-late', 'late-env', 'env') });
    await t.core.createNamespacedPod({ namespace: ns(), body: needing('volume-late', 'late-volume', 'volume') });

    const waiting = await eventually(
      'CreateContainerConfigError',
      async () => {
        const p = await t.core.readNamespacedPod({ name: 'env-late', namespace: ns() });
        return p.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CreateContainerConfigError'
          ? p.status.containerStatuses[0].state.waiting
          : undefined;
      },
      30_000,
    );
    expect(waiting.message).toBe('configmap "late-env" not found');
    expect((await warning('env-late', 'Failed')).message).toBe('Error: configmap "late-env" not found');

    expect((await warning('volume-late', 'FailedMount')).message).toBe(
      'MountVolume.SetUp failed for volume "config" : configmap "late-volume" not found',
    );
    const mounting = await t.core.readNamespacedPod({ name: 'volume-late', namespace: ns() });
    expect(mounting.status?.phase).toBe('Pending');
    expect(mounting.status?.containerStatuses?.[0]?.state?.waiting?.reason).toBe('ContainerCreating');

    for (const name of ['late-env', 'late-volume'])
      await t.core.createNamespacedConfigMap({ namespace: ns(), body: { metadata: { name }, data: { mode: 'on' } } });
    // the kubelet tries again on its own back-off: the volume within seconds, the environment at
    // the pod worker's next sync (10 to 15 s)
    for (const name of ['volume-late', 'env-late']) await running(name);
  }, 90_000);
});
