/**
 * The kubernetes state backend against a sandbox cluster over HTTP: conditional writes, listing,
 * a chunked state of 5,000 resources, a reader racing a generation switch, damaged Secrets, and
 * the Lease lock with a simulated clock.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterSet } from '../cluster/cluster-set.js';
import { loadKubeconfig } from '../cluster/kubeconfig.js';
import { RestClient, type RestRequest, type RestResponse } from '../cluster/rest.js';
import { startSandbox, type Sandbox } from '../sandbox/launcher.js';
import { LockedError, LockLostError, StateConflictError } from './backend.js';
import { thisProcess } from './holder.js';
import { NamespacedApi, type LeaseObject, type SecretObject } from './kube-api.js';
import { stateObjectName } from './kube-names.js';
import { KubernetesStateBackend } from './kubernetes.js';
import { emptyState, withOperation, withResource, type State, type StateKey } from './model.js';
import { generatedState } from './testing.js';

let sandbox: Sandbox;
let rest: RestClient;
let namespaceSeq = 0;

beforeAll(async () => {
  sandbox = await startSandbox({ clusters: 1 });
  rest = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath)).client('sandbox-a').rest;
});
afterAll(async () => {
  await sandbox?.stop();
});

const NOW = '2026-11-22T03:00:00.000Z';
const key: StateKey = { project: 'guestbook', stack: 'prod', cluster: 'sandbox-b' };
const ns = {
  id: 'v1:Namespace:guestbook',
  type: 'Kubernetes',
  attributes: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'guestbook' } },
};

/** A backend in a namespace of its own, so tests do not see each other's states. */
function fresh(options: { now?: () => Date; client?: RestClient; namespace?: string } = {}) {
  const namespace = options.namespace ?? `kdeck-test-${++namespaceSeq}`;
  const backend = new KubernetesStateBackend({
    rest: options.client ?? rest,
    namespace,
    lockSeconds: 30,
    ...(options.now ? { now: options.now } : {}),
  });
  return { backend, namespace, api: new NamespacedApi(options.client ?? rest, namespace) };
}

const secretsOf = async (api: NamespacedApi) =>
  (await api.list<SecretObject>('secrets', 'app.kubernetes.io/managed-by=kdeck')).map((s) => s.metadata.name).sort();

describe('kubernetes state backend', () => {
  it('keeps each state in a labelled Secret of its namespace, created on first use, and bumps the serial on every write', async () => {
    const { backend, namespace, api } = fresh();
    expect(await backend.read(key)).toBeUndefined();
    expect(await backend.list()).toEqual([]);
    let state = await backend.write(
      withResource(emptyState(key, 'sre@host', NOW), { ...ns, live: { uid: 'u1', resourceVersion: '7' } }),
      0,
    );
    expect(state.serial).toBe(1);
    state = await backend.write({ ...state, resources: [] }, 1);
    await backend.write(emptyState({ ...key, cluster: 'Sandbox_A@eu' }, 'sre@host', NOW), 0);
    expect(await backend.list()).toEqual([{ ...key, cluster: 'Sandbox_A@eu' }, key]);
    const head = await api.get<SecretObject>('secrets', 'kdeck-state-guestbook-prod-sandbox-b');
    expect(head?.metadata.labels).toMatchObject({
      'app.kubernetes.io/managed-by': 'kdeck',
      'kdeck.io/project': 'guestbook',
      'kdeck.io/stack': 'prod',
      'kdeck.io/cluster': 'sandbox-b',
    });
    expect(head?.metadata.annotations).toMatchObject({
      'kdeck.io/serial': '2',
      'kdeck.io/encoding': 'json',
      'kdeck.io/chunks': '0',
    });
    // a name sanitising changed gets a hash of the exact key, which the annotations keep
    expect(stateObjectName({ ...key, cluster: 'Sandbox_A@eu' })).toMatch(
      /^kdeck-state-guestbook-prod-sandbox-a-eu-[0-9a-f]{8}$/,
    );
    expect((await rest.request({ method: 'GET', path: `/api/v1/namespaces/${namespace}` })).status).toBe(200);
    const other = new KubernetesStateBackend({ rest, namespace, lockSeconds: 30 });
    expect(await other.read(key)).toEqual(state);
  });

  it('refuses a write based on an old serial, and one that lost a race for the same serial', async () => {
    const { backend, namespace } = fresh();
    const first = await backend.write(emptyState(key, 'a@h', NOW), 0);
    // two processes read serial 1; the first to write wins, the other gets a conflict
    const a = new KubernetesStateBackend({ rest, namespace, lockSeconds: 30 });
    const b = new KubernetesStateBackend({ rest, namespace, lockSeconds: 30 });
    const seen = (await a.read(key))!;
    await b.read(key);
    await a.write(
      withOperation(seen, {
        kind: 'apply',
        operator: 'a@h',
        startTime: NOW,
        result: 'running',
        created: 0,
        updated: 0,
        deleted: 0,
      }),
      1,
    );
    const lost = await b.write(seen, 1).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(StateConflictError);
    expect((lost as Error).message).toContain('serial 2, expected 1');
    await expect(backend.write(first, 0)).rejects.toThrow(StateConflictError);
    expect((await backend.read(key))?.history).toHaveLength(1);
    // the operation a@h began runs while its process holds the stack's lock
    await backend.lock(key, { id: 'a@h:1', user: 'a', host: 'h', pid: 1, operation: 'apply', since: NOW });
    expect(await backend.history(key, 10)).toEqual([expect.objectContaining({ operator: 'a@h', result: 'running' })]);
  });

  it('writes and reads a state of 5,000 resources chunked across Secrets, and removes the old chunks on the next write', async () => {
    const { backend, api } = fresh();
    const big = generatedState(key, 5000);
    const written = await backend.write(big, 0);
    const head = (await api.get<SecretObject>('secrets', stateObjectName(key)))!;
    const chunks = Number(head.metadata.annotations?.['kdeck.io/chunks']);
    expect(chunks).toBeGreaterThan(1);
    expect(head.metadata.annotations?.['kdeck.io/encoding']).toBe('gzip+base64');
    expect(await new KubernetesStateBackend({ rest, namespace: api.namespace, lockSeconds: 30 }).read(key)).toEqual(
      written,
    );

    const changed = { ...generatedState(key, 5000, 2), serial: written.serial };
    const again = await backend.write(changed, written.serial);
    const generation = (await api.get<SecretObject>('secrets', stateObjectName(key)))!.metadata.annotations?.[
      'kdeck.io/generation'
    ];
    const names = await secretsOf(api);
    expect(names.filter((n) => n !== stateObjectName(key)).every((n) => n.includes(`-${generation}-`))).toBe(true);
    expect(await new KubernetesStateBackend({ rest, namespace: api.namespace, lockSeconds: 30 }).read(key)).toEqual(
      again,
    );

    // and back below the chunking size: the chunks go
    await backend.write(emptyState(key, 'a@h', NOW), again.serial);
    expect(await secretsOf(api)).toEqual([stateObjectName(key)]);
  });

  it('gives a reader that read the head just before a writer switched generations the new state, whole', async () => {
    let gate: Promise<void> | undefined;
    let paused: () => void = () => undefined;
    let arrived: () => void = () => undefined;
    const atHead = new Promise<void>((r) => (arrived = r));
    // a client that holds back the answer to its next GET of the head until the test lets it go
    class PausingClient extends RestClient {
      override async request(req: RestRequest): Promise<RestResponse> {
        const res = await super.request(req);
        if (gate && req.method === 'GET' && req.path.endsWith(`/secrets/${stateObjectName(key)}`)) {
          const g = gate;
          gate = undefined;
          arrived();
          await g;
        }
        return res;
      }
    }
    const { backend: writer, namespace } = fresh();
    const first = await writer.write(generatedState(key, 5000, 3), 0);
    const reader = fresh({
      namespace,
      client: new PausingClient('sandbox-a', loadKubeconfig(sandbox.kubeconfigPath).configFor('sandbox-a')),
    }).backend;
    gate = new Promise<void>((r) => (paused = r));
    const reading = reader.read(key);
    await atHead;
    const second = await writer.write({ ...generatedState(key, 5000, 4), serial: first.serial }, first.serial);
    paused();
    expect(await reading).toEqual(second);
  });
});

describe('a damaged state Secret', () => {
  async function damaged(
    change: (head: SecretObject) => void,
  ): Promise<{ backend: KubernetesStateBackend; api: NamespacedApi; state: State; rv: string }> {
    const { backend, api } = fresh();
    const state = await backend.write(generatedState(key, 200), 0);
    const head = (await api.get<SecretObject>('secrets', stateObjectName(key)))!;
    change(head);
    const replaced = await api.replace('secrets', head);
    return {
      backend: new KubernetesStateBackend({ rest, namespace: api.namespace, lockSeconds: 30 }),
      api,
      state,
      rv: replaced.metadata.resourceVersion!,
    };
  }

  const cases: [string, (head: SecretObject) => void, RegExp][] = [
    [
      'bad base64',
      (h) => (h.data = { state: Buffer.from('H4sI!!not*base64').toString('base64') }),
      /is damaged: its data is not valid base64 \(an unexpected character at byte 4\)\./,
    ],
    [
      'bad gzip',
      (h) => (h.data = { state: Buffer.from(Buffer.from('not gzip at all').toString('base64')).toString('base64') }),
      /is damaged: its data is base64 but not gzip/,
    ],
    [
      'a newer schema version',
      (h) => {
        const json = JSON.stringify({ ...emptyState(key, 'x@y', NOW), version: 2, serial: 1 });
        h.data = { state: Buffer.from(gzipSync(json).toString('base64')).toString('base64') };
        delete h.metadata.annotations!['kdeck.io/sha256'];
      },
      /cannot be read: it is in state schema version 2, and this kdeck reads version 1\. It was written by a newer kdeck: upgrade kdeck/,
    ],
  ];

  for (const [what, change, message] of cases) {
    it(`with ${what} is reported with its name and a way out, and never overwritten`, async () => {
      const { backend, api, state, rv } = await damaged(change);
      const read = await backend.read(key).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(read).toBeInstanceOf(Error);
      expect(read?.message).toMatch(message);
      expect(read?.message).toContain(
        `the state of guestbook/prod on sandbox-b in Secret ${api.namespace}/kdeck-state-guestbook-prod-sandbox-b (context sandbox-a)`,
      );
      if (what !== 'a newer schema version')
        expect(read?.message).toMatch(
          /kubectl --context sandbox-a -n kdeck-test-\d+ delete secret -l kdeck\.io\/state-id=[0-9a-f]{16}\)/,
        );
      expect(read?.message).not.toContain('\n');
      await expect(backend.write(state, state.serial)).rejects.toThrow(message);
      await expect(backend.importState(state)).rejects.toThrow(message);
      expect((await api.get<SecretObject>('secrets', stateObjectName(key)))?.metadata.resourceVersion).toBe(rv);
    });
  }

  it('with a chunk gone is reported, naming the chunks', async () => {
    const { backend, api } = fresh();
    await backend.write(generatedState(key, 5000), 0);
    const chunk = (await secretsOf(api)).find((n) => n !== stateObjectName(key))!;
    await api.delete('secrets', chunk);
    await expect(
      new KubernetesStateBackend({ rest, namespace: api.namespace, lockSeconds: 30 }).read(key),
    ).rejects.toThrow(
      /is damaged: one of its \d+ chunk Secrets \(kdeck-state-guestbook-prod-sandbox-b-[0-9a-f]{8}-<n>\) is missing/,
    );
  });
});

describe('the Lease lock', () => {
  it('refuses a second holder naming the first and since when; renewals push the expiry on; release deletes the Lease', async () => {
    let clock = Date.parse(NOW);
    const { backend, api } = fresh({ now: () => new Date(clock) });
    const lock = await backend.lock(key, thisProcess('apply', NOW));
    expect(lock.holder).toMatchObject({
      id: expect.stringMatching(/@.+:\d+$/),
      operation: 'apply',
      since: NOW,
      expires: '2026-11-22T03:00:30.000Z',
    });
    const lease = (await api.get<LeaseObject>('leases', stateObjectName(key)))!;
    expect(lease.spec).toMatchObject({
      holderIdentity: lock.holder.id,
      leaseDurationSeconds: 30,
      acquireTime: '2026-11-22T03:00:00.000000Z',
    });
    const other = { id: 'ci@runner-7:42', user: 'ci', host: 'runner-7', pid: 42, operation: 'destroy', since: NOW };
    const refused = await backend.lock(key, other).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LockedError);
    expect((refused as Error).message).toContain(
      `is locked by ${lock.holder.id} (apply since ${NOW}); wait for that operation to finish, or, if it is gone, its lock runs out at 2026-11-22T03:00:30.000Z`,
    );
    clock += 20_000;
    await lock.renew();
    expect((await backend.lockHolder(key))?.expires).toBe('2026-11-22T03:00:50.000Z');
    clock += 20_000;
    await expect(backend.lock(key, other)).rejects.toThrow(LockedError);
    await lock.release();
    expect(await api.get('leases', stateObjectName(key))).toBeUndefined();
    await (await backend.lock(key, other)).release();
  });

  it('lets a new holder take over a lock that ran out, and tells the old holder it lost it', async () => {
    let clock = Date.parse(NOW);
    const { backend } = fresh({ now: () => new Date(clock) });
    const crashed = await backend.lock(key, thisProcess('apply', NOW));
    clock += 31_000;
    const next = {
      id: 'ci@runner-7:42',
      user: 'ci',
      host: 'runner-7',
      pid: 42,
      operation: 'apply',
      since: new Date(clock).toISOString(),
    };
    const taken = await backend.lock(key, next);
    expect(taken.tookOverFrom?.id).toBe(crashed.holder.id);
    expect((await backend.lockHolder(key))?.id).toBe('ci@runner-7:42');
    await expect(crashed.renew()).rejects.toThrow(LockLostError);
    // the old holder's release leaves the new holder's lock alone
    await crashed.release();
    expect((await backend.lockHolder(key))?.id).toBe('ci@runner-7:42');
    await taken.release();
  });

  it('force-unlocks only the holder that was shown', async () => {
    const { backend } = fresh();
    const held = await backend.lock(key, thisProcess('apply', NOW));
    const someoneElse = { ...held.holder, id: 'x@y:1' };
    expect(await backend.forceUnlock(key, someoneElse)).toBeUndefined();
    expect((await backend.forceUnlock(key, held.holder))?.id).toBe(held.holder.id);
    expect(await backend.lockHolder(key)).toBeUndefined();
    await expect(held.renew()).rejects.toThrow(
      /the lock of guestbook\/prod on sandbox-b was lost while this operation ran \(it was removed\)/,
    );
  });
});
