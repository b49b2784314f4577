import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterSet } from '../../cluster/cluster-set.js';
import { loadKubeconfig } from '../../cluster/kubeconfig.js';
import type { ObjectClient } from '../../cluster/objects.js';
import { planRecovery, type RecoveryTarget } from '../../recovery/plan.js';
import { startSandbox, type Sandbox } from '../../sandbox/launcher.js';
import { freezeWith, listingKey, listTargets } from './run-plan.js';

let sandbox: Sandbox;
let client: ObjectClient;
beforeAll(async () => {
  sandbox = await startSandbox({ clusters: 1 });
  client = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath)).client('sandbox-a');
  await client.apply({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'web:1' }] } },
    },
  });
  const deadline = Date.now() + 20_000;
  while ((await client.list({ apiVersion: 'v1', kind: 'Pod', namespace: 'default' })).items.length < 2) {
    if (Date.now() > deadline) throw new Error('the Deployment never made its pods');
    await new Promise((r) => setTimeout(r, 20));
  }
});
afterAll(() => sandbox.stop());

const plan = (targets: RecoveryTarget[]) =>
  planRecovery({
    name: 'web-down',
    action: 'delete',
    strategy: { batchSize: 1, maxUnavailable: 1, clusterConcurrency: 1, healthTimeout: '1m', onFailure: 'abort' },
    targets,
    unresolved: [],
  });

describe('what a run lists before its approval', () => {
  it("lists the targets' pods and the workloads replacing them, once per namespace and kind", async () => {
    const pods = (await client.list({ apiVersion: 'v1', kind: 'Pod', namespace: 'default' })).items;
    const targets = pods.map((p) => ({
      cluster: 'sandbox-a',
      namespace: 'default',
      kind: 'Pod',
      name: String(p.metadata?.name),
      owner: { kind: 'Deployment', name: 'web' },
    }));
    const listed = await listTargets(plan(targets), () => client, { workloads: true });

    expect([...listed.keys()].sort()).toEqual([
      listingKey('sandbox-a', 'default', 'Deployment'),
      listingKey('sandbox-a', 'default', 'Pod'),
    ]);
    expect(listed.get(listingKey('sandbox-a', 'default', 'Deployment'))!.items.map((d) => d.metadata?.name)).toEqual([
      'web',
    ]);
    // the plan is frozen from the same list: every pod target carries the uid it has now
    const frozen = freezeWith(plan(targets), listed, new Date());
    expect(frozen.batches.flatMap((b) => b.targets.map((t) => t.uid)).sort()).toEqual(
      pods.map((p) => String(p.metadata?.uid)).sort(),
    );
  });

  it('lists no workload for a pod that nothing replaces', async () => {
    const [pod] = (await client.list({ apiVersion: 'v1', kind: 'Pod', namespace: 'default' })).items;
    const listed = await listTargets(
      plan([{ cluster: 'sandbox-a', namespace: 'default', kind: 'Pod', name: String(pod!.metadata?.name) }]),
      () => client,
      { workloads: true },
    );
    expect([...listed.keys()]).toEqual([listingKey('sandbox-a', 'default', 'Pod')]);
  });
});
