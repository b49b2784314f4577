/**
 * Team mode end to end: the real CLI, several processes at once, states and locks in Secrets
 * and Leases of a sandbox cluster over HTTP (the workspace's .kdeck/config.yaml chooses the
 * kubernetes backend, with a short lease so a crashed holder's lock runs out within the test).
 * A first apply is held mid-run by a 60 s readiness delay on its cluster, so a second one
 * deterministically finds it running.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterSet } from '../src/cluster/cluster-set.js';
import { loadKubeconfig } from '../src/cluster/kubeconfig.js';
import { startSandbox, type Sandbox } from '../src/sandbox/launcher.js';
import { thisProcess } from '../src/state/holder.js';
import { stateObjectName } from '../src/state/kube-names.js';
import { KubernetesStateBackend } from '../src/state/kubernetes.js';
import { LocalStateBackend } from '../src/state/local.js';
import { kdeckIn, run, startKdeck, type Started } from './support/run.js';
import { copySample } from './support/sample.js';

const LEASE_SECONDS = 4;
let sandbox: Sandbox;

/** A fresh copy of konfig-sample; `config` becomes its .kdeck/config.yaml. */
function workspace(config?: string): string {
  const dir = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-team-'));
  copySample(dir);
  if (config) {
    fs.mkdirSync(path.join(dir, '.kdeck'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.kdeck', 'config.yaml'), config);
  }
  return dir;
}

const team = () =>
  workspace(`state:\n  backend: kubernetes\n  context: sandbox-a\n  leaseDurationSeconds: ${LEASE_SECONDS}\n`);

const kdeckAt = (cwd: string) => (args: string[]) => kdeckIn(cwd, ['--kubeconfig', sandbox.kubeconfigPath, ...args]);
const kubectl = (args: string[]) =>
  run(
    'kubectl',
    ['--kubeconfig', sandbox.kubeconfigPath, '--context', 'sandbox-a', '-n', 'kdeck-system', ...args],
    tmpdir(),
    60_000,
  );

interface Lease {
  spec?: { holderIdentity?: string; renewTime?: string; leaseDurationSeconds?: number };
}

async function lease(name: string): Promise<Lease | undefined> {
  const r = await kubectl(['get', 'lease', name, '-o', 'json']);
  return r.code === 0 ? (JSON.parse(r.stdout) as Lease) : undefined;
}

/** Waits (bounded) until `check` holds. */
async function until(what: string, check: () => Promise<boolean>, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Kills a started kdeck by its handle and waits for it to be gone. */
async function kill(p: Started): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await p.done;
}

beforeAll(async () => {
  sandbox = await startSandbox({ clusters: 2, timings: { podStartMs: 0, readinessDelayMs: 0, terminationMs: 0 } });
});
afterAll(async () => {
  await sandbox?.stop();
});

describe('kdeck with the kubernetes state backend', () => {
  it('two applies of one stack at once: one runs, the other is refused naming it; killed, its lease runs out and a new apply proceeds; another process then previews no diff', async () => {
    const dir = team();
    const kdeck = kdeckAt(dir);
    const stack = ['-w', 'appops/nginx-example/staging'];
    const name = stateObjectName({ project: 'nginx-example', stack: 'staging', cluster: 'sandbox-a' });
    sandbox.cluster('a').faults.set({ readinessDelayMs: 60_000 });
    const both = [
      startKdeck(dir, ['--kubeconfig', sandbox.kubeconfigPath, 'apply', '-y', '--confirm', 'sandbox-b', ...stack]),
      startKdeck(dir, ['--kubeconfig', sandbox.kubeconfigPath, 'apply', '-y', '--confirm', 'sandbox-b', ...stack]),
    ];
    try {
      // the one refused exits at once; the other waits on its pods' readiness
      const first = await Promise.race(both.map(async (p) => ({ p, r: await p.done })));
      const holder = both.find((p) => p !== first.p)!;
      expect(first.r.code, first.r.stdout + first.r.stderr).toBe(1);
      expect(first.r.stderr).toMatch(
        new RegExp(
          `^kdeck: the stack nginx-example/staging on sandbox-a is locked by \\S+@\\S+:${holder.child.pid} \\(apply since \\S+\\); wait for that operation to finish, or, if it is gone, its lock runs out at \\S+, or \`kdeck state unlock --force\` in the stack folder removes it now\\n$`,
        ),
      );
      expect(holder.child.exitCode).toBeNull();
      expect((await lease(name))?.spec?.holderIdentity).toMatch(new RegExp(`:${holder.child.pid}$`));
      // the holder has recorded the first resource that reached the cluster
      await until('the running apply to record a resource', async () =>
        (await kdeck(['state', 'show', ...stack])).stdout.includes('v1:Namespace:nginx-example'),
      );
      const preview = await kdeck(['preview', ...stack]);
      expect(preview.stdout).toMatch(
        new RegExp(
          `Note: sandbox-a is locked by \\S+:${holder.child.pid} \\(apply since \\S+, until \\S+ unless renewed\\); an apply now would be refused until it is released\\.`,
        ),
      );

      await kill(holder);
      // a crashed holder stops renewing: once renewTime + leaseDurationSeconds has passed, the lock is free to take
      await until('the dead holder’s lease to run out', async () => {
        const spec = (await lease(name))?.spec;
        return !spec?.renewTime || Date.parse(spec.renewTime) + (spec.leaseDurationSeconds ?? 0) * 1000 < Date.now();
      });
      sandbox.cluster('a').faults.clear();
      // the pods started under the delay are looked at again (a change wakes their kubelet) and turn ready
      expect(
        (
          await run(
            'kubectl',
            [
              '--kubeconfig',
              sandbox.kubeconfigPath,
              '--context',
              'sandbox-a',
              '-n',
              'nginx-example-staging',
              'annotate',
              'pods',
              '--all',
              'poked=1',
            ],
            dir,
            60_000,
          )
        ).code,
      ).toBe(0);
      // the next apply has a change to make: two replicas become three
      const main = path.join(dir, 'appops/nginx-example/staging/main.k');
      fs.writeFileSync(main, fs.readFileSync(main, 'utf8').replace('replicas = 2', 'replicas = 3'));
      const next = await kdeck(['apply', '-y', '--confirm', 'sandbox-b', ...stack]);
      expect(next.code, next.stdout + next.stderr).toBe(0);
      expect(next.stderr).toMatch(
        new RegExp(
          `^kdeck: took over the stale lock of \\S+:${holder.child.pid} \\(apply since \\S+\\): its holder stopped without releasing it\\n$`,
        ),
      );
      expect(next.stdout).toContain('Apply complete! Resources: 0 created, 1 updated, 0 deleted.');
      expect(await lease(name)).toBeUndefined();
    } finally {
      sandbox.cluster('a').faults.clear();
      for (const p of both) await kill(p);
    }
    // what one process wrote is what another reads: no spurious diff
    const again = await kdeck(['preview', ...stack]);
    expect(again.stdout).toContain('All resources are reconciled. No diff found.');
    const listed = await kdeck(['state', 'ls']);
    expect(listed.stdout).toMatch(/nginx-example +staging +sandbox-a +\d+ +\d+ +\S+\n$/);
  }, 240_000);

  it('names a live lock in preview, apply and destroy; unlock removes it only with --force, confirmed, and never in --read-only', async () => {
    const dir = team();
    const kdeck = kdeckAt(dir);
    const stack = ['-w', 'appops/guestbook/dev'];
    expect((await kdeck(['apply', '-y', '--confirm', 'sandbox-b', ...stack])).code).toBe(0);
    // a lock held by another live process: this test's
    const rest = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath)).client('sandbox-a').rest;
    const backend = new KubernetesStateBackend({ rest, namespace: 'kdeck-system', lockSeconds: 300 });
    const held = await backend.lock(
      { project: 'guestbook', stack: 'dev', cluster: 'sandbox-a' },
      thisProcess('apply', new Date().toISOString()),
    );
    try {
      const since = held.holder.since;
      for (const op of ['apply', 'destroy']) {
        const r = await kdeck([op, '-y', '--confirm', 'sandbox-b', ...stack]);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(
          `is locked by ${held.holder.id} (apply since ${since}); wait for that operation to finish`,
        );
      }
      expect((await kdeck(['preview', ...stack])).stdout).toContain(
        `Note: sandbox-a is locked by ${held.holder.id} (apply since ${since}, until`,
      );
      const show = await kdeck(['state', 'show', ...stack]);
      expect(show.stdout.split('\n')[0]).toBe(
        `# locked by ${held.holder.id} (apply since ${since}, until ${held.holder.expires} unless renewed)`,
      );
      const plain = await kdeck(['state', 'unlock', ...stack]);
      expect(plain).toMatchObject({ code: 1, stderr: expect.stringContaining('pass --force to remove the lock now') });
      expect((await kdeck(['--read-only', 'state', 'unlock', '--force', '--yes', ...stack])).stderr).toBe(
        'kdeck: state unlock is refused in --read-only mode\n',
      );
      expect((await kdeck(['state', 'unlock', '--force', ...stack])).stderr).toContain(
        'pass --yes with --force to remove it without a terminal',
      );
      expect(await backend.lockHolder({ project: 'guestbook', stack: 'dev', cluster: 'sandbox-a' })).toBeDefined();
      const forced = await kdeck(['state', 'unlock', '--force', '--yes', ...stack]);
      expect(forced.stdout).toBe(
        `unlocked guestbook/dev on sandbox-a (was held by ${held.holder.id} (apply since ${since}))\n`,
      );
      expect((await kdeck(['destroy', '-y', '--confirm', 'sandbox-b', ...stack])).code).toBe(0);
    } finally {
      await held.release();
    }
  }, 240_000);

  it('reports a damaged state Secret in one paragraph naming it, and neither preview nor apply changes it', async () => {
    const dir = team();
    const kdeck = kdeckAt(dir);
    const stack = ['-w', 'appops/http-echo/dev'];
    expect((await kdeck(['apply', '-y', '--confirm', 'sandbox-b', ...stack])).code).toBe(0);
    const name = stateObjectName({ project: 'http-echo', stack: 'dev', cluster: 'sandbox-a' });
    const patch = {
      metadata: { annotations: { 'kdeck.io/encoding': 'gzip+base64' } },
      data: { state: Buffer.from('H4sI%%%%').toString('base64') },
    };
    expect((await kubectl(['patch', 'secret', name, '--type', 'merge', '-p', JSON.stringify(patch)])).code).toBe(0);
    const version = async () =>
      (await kubectl(['get', 'secret', name, '-o', 'jsonpath={.metadata.resourceVersion}'])).stdout;
    const before = await version();
    for (const args of [
      ['preview', ...stack],
      ['apply', '-y', '--confirm', 'sandbox-b', ...stack],
      ['state', 'show', ...stack],
    ]) {
      const r = await kdeck(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `^kdeck: the state of http-echo/dev on sandbox-a in Secret kdeck-system/${name} \\(context sandbox-a\\) is damaged: its data is not valid base64 \\(an unexpected character at byte 4\\)\\. kdeck neither uses nor overwrites it\\. Restore it from a backup, or set it aside \\(kubectl --context sandbox-a -n kdeck-system get secret -l kdeck\\.io/state-id=[0-9a-f]{16} -o yaml > saved-state\\.yaml, then kubectl --context sandbox-a -n kdeck-system delete secret -l kdeck\\.io/state-id=[0-9a-f]{16}\\) so that the next apply records the stack afresh; [^\\n]*\\n$`,
        ),
      );
    }
    expect(await version()).toBe(before);
  }, 240_000);

  it('migrates every state local → kubernetes → local byte for byte, and refuses while a stack is locked', async () => {
    const dir = workspace();
    const kdeck = kdeckAt(dir);
    const stacks = ['appops/guestbook/prod', 'appops/nginx-example/dev', 'appops/batch-report/dev'];
    for (const s of stacks) expect((await kdeck(['apply', '-y', '--confirm', 'sandbox-b', '-w', s])).code).toBe(0);
    const stateDir = path.join(dir, '.kdeck', 'state');
    const files = (fs.readdirSync(stateDir, { recursive: true }) as string[]).filter((f) => f.endsWith('.json')).sort();
    expect(files).toHaveLength(3);
    const bytes = new Map(files.map((f) => [f, fs.readFileSync(path.join(stateDir, f))]));
    const k8s = ['--state-context', 'sandbox-b', '--state-namespace', 'team-states'];

    const local = new LocalStateBackend(dir);
    const held = await local.lock(
      { project: 'guestbook', stack: 'prod', cluster: 'sandbox-b' },
      thisProcess('apply', new Date().toISOString()),
    );
    const refused = await kdeck([...k8s, 'state', 'migrate', '--to', 'kubernetes']);
    await held.release();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `kdeck: the stack guestbook/prod on sandbox-b is locked by ${held.holder.id} (apply since ${held.holder.since}`,
    );
    expect((await kdeck([...k8s, '--state-backend', 'kubernetes', 'state', 'ls'])).stdout).toContain('no state yet');

    const there = await kdeck([...k8s, 'state', 'migrate', '--to', 'kubernetes']);
    expect(there.code, there.stderr).toBe(0);
    expect(there.stdout).toContain('Migrated 3 states');
    expect(there.stdout.match(/copied and verified/g)).toHaveLength(3);
    fs.rmSync(stateDir, { recursive: true });
    const back = await kdeck([...k8s, 'state', 'migrate', '--to', 'local']);
    expect(back.code, back.stderr).toBe(0);
    for (const [f, b] of bytes) expect(fs.readFileSync(path.join(stateDir, f)).equals(b), f).toBe(true);
    // run again, it finds the same states in place and writes nothing
    expect(
      (await kdeck([...k8s, 'state', 'migrate', '--to', 'local'])).stdout.match(/already there, the same/g),
    ).toHaveLength(3);
    expect((await kdeck(['--read-only', 'state', 'migrate', '--to', 'kubernetes'])).stderr).toBe(
      'kdeck: state migrate writes states and is refused in --read-only mode\n',
    );
  }, 300_000);
});
