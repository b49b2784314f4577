/**
 * The engine end to end: the real CLI (preview, apply, destroy, state) against a two-cluster
 * sandbox over HTTP, on a copy of konfig-sample, with the faults an SRE meets.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/launcher.js';
import { LOCAL_CLUSTER_NICENESS } from '../src/app/policy/local-cluster.js';
import { CLI, kdeckIn, run } from './support/run.js';
import { copySample } from './support/sample.js';

const copy = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-engine-'));
let sandbox: Sandbox;

const kdeck = (args: string[], cwd = copy) => kdeckIn(cwd, ['--kubeconfig', sandbox.kubeconfigPath, ...args]);
const kubectl = (args: string[]) => run('kubectl', ['--kubeconfig', sandbox.kubeconfigPath, ...args], copy, 60_000);

const stacks = () =>
  fs
    .readdirSync(path.join(copy, 'appops'))
    .flatMap((p) =>
      fs
        .readdirSync(path.join(copy, 'appops', p))
        .filter((s) => fs.existsSync(path.join(copy, 'appops', p, s, 'stack.yaml')))
        .map((s) => `appops/${p}/${s}`),
    )
    .sort();

const stateFile = (project: string, stack: string, cluster: string) =>
  path.join(copy, '.kdeck', 'state', project, stack, `${cluster}.json`);
const readState = (project: string, stack: string, cluster: string) =>
  JSON.parse(fs.readFileSync(stateFile(project, stack, cluster), 'utf8')) as {
    serial: number;
    resources: { id: string }[];
  };

function edit(file: string, from: string, to: string) {
  const text = fs.readFileSync(file, 'utf8');
  expect(text).toContain(from);
  fs.writeFileSync(file, text.replace(from, to));
}

/** Waits (bounded) until `check` holds. */
async function until(check: () => boolean, what: string, limitMs = 30_000) {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts an apply of nginx-example staging, from nothing, whose pods on sandbox-a are not ready for a minute. */
async function applyStuckOnSandboxA() {
  await kdeck(['destroy', '-y', '--confirm', 'sandbox-b', '-w', 'appops/nginx-example/staging']);
  sandbox.cluster('a').faults.set({ readinessDelayMs: 60_000 });
  const args = ['--kubeconfig', sandbox.kubeconfigPath, 'apply', '-y', '--confirm', 'sandbox-b'];
  const child = spawn(process.execPath, [CLI, ...args, '-w', 'appops/nginx-example/staging'], {
    cwd: copy,
    stdio: 'ignore',
  });
  return { child, exited: new Promise((r) => child.once('exit', r)) };
}

beforeAll(async () => {
  copySample(copy);
  sandbox = await startSandbox({ clusters: 2, timings: { podStartMs: 0, readinessDelayMs: 0, terminationMs: 0 } });
});
afterAll(async () => {
  await sandbox?.stop();
});

describe('kdeck apply, preview and destroy on the sample', () => {
  it('applies every sample stack, all healthy, and an immediate preview shows nothing to do', async () => {
    // the stacks are independent (each its own namespace), so they go at once, as a team would
    const applies = await Promise.all(
      stacks().map(
        async (s) => [s, await kdeck(['apply', '-y', '--confirm', 'sandbox-b', '-w', s, '--timeout', '60s'])] as const,
      ),
    );
    for (const [s, r] of applies) {
      expect(r.stderr, s).toBe('');
      expect(r.code, `${s}\n${r.stdout}`).toBe(0);
      // stateful-app's stacks share the CRD of its crd/ folder: the second one adopts it
      expect(r.stdout).toMatch(/Apply complete! Resources: \d+ created, [01] updated, 0 deleted\./);
    }
    expect(
      (
        await kubectl([
          '--context',
          'sandbox-b',
          'get',
          'deploy',
          '-n',
          'guestbook',
          'frontend',
          '-o',
          'jsonpath={.status.availableReplicas}',
        ])
      ).stdout,
    ).toBe('3');
    const previews = await Promise.all(stacks().map(async (s) => [s, await kdeck(['preview', '-w', s])] as const));
    for (const [s, r] of previews) {
      expect(r.code).toBe(0);
      expect(r.stdout, s).toContain('All resources are reconciled. No diff found.');
    }
  }, 300_000);

  it('shows one image change as exactly one update, rolls it out, and follows its health to Healthy', async () => {
    const main = path.join(copy, 'appops/nginx-example/dev/main.k');
    const before = fs.readFileSync(main, 'utf8');
    fs.writeFileSync(
      main,
      `${before}\nappConfiguration: frontend.Server {\n    image = "docker.io/library/nginx:1.27.1"\n}\n`,
    );
    const json = JSON.parse((await kdeck(['preview', '-w', 'appops/nginx-example/dev', '-o', 'json'])).stdout) as {
      changeSteps: Record<string, { action: string }>;
    };
    const updates = Object.entries(json.changeSteps).filter(([, c]) => c.action !== 'UnChanged');
    expect(updates.map(([id, c]) => `${c.action} ${id}`)).toEqual([
      'Update apps/v1:Deployment:nginx-example-dev:nginx-example',
    ]);
    const detail = (await kdeck(['preview', '-d', '-w', 'appops/nginx-example/dev'])).stdout;
    const diff = detail
      .slice(detail.indexOf('Diff:\n') + 'Diff:\n'.length)
      .trim()
      .split('\n');
    expect(diff).toEqual([
      expect.stringMatching(
        /^~ spec\.template\.spec\.containers\[name=nginx\]\.image: "[^"]+" → "docker\.io\/library\/nginx:1\.27\.1"$/,
      ),
    ]);
    const replicaSets = async () =>
      (await kubectl(['get', 'rs', '-n', 'nginx-example-dev', '-o', 'name'])).stdout.trim().split('\n');
    const rsBefore = await replicaSets();
    const r = await kdeck(['apply', '-y', '--confirm', 'sandbox-b', '-w', 'appops/nginx-example/dev']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const health = r.stdout
      .split('\n')
      .filter((l) => l.includes('apps/v1:Deployment:nginx-example-dev:nginx-example: '));
    expect(health[0]).toContain('applied');
    expect(health.some((l) => l.includes(': Progressing'))).toBe(true);
    expect(health[health.length - 1]).toContain(': Healthy: successfully rolled out');
    expect((await replicaSets()).filter((x) => !rsBefore.includes(x))).toHaveLength(1);
    expect(r.stdout).toContain('Apply complete! Resources: 0 created, 1 updated, 0 deleted.');
  });

  it('shows the drift when someone scales behind its back', async () => {
    expect((await kubectl(['scale', 'deploy/nginx-example', '-n', 'nginx-example-dev', '--replicas=4'])).code).toBe(0);
    const r = await kdeck(['preview', '-d', '-w', 'appops/nginx-example/dev']);
    expect(r.stdout).toContain('apps/v1:Deployment:nginx-example-dev:nginx-example  sandbox-a  Update (drift)');
    expect(r.stdout).toContain('Drift (changed outside kdeck):\n  ~ spec.replicas: 1 → 4');
    // scripts read the same notes from the JSON, without the server's managedFields bookkeeping
    const json = JSON.parse((await kdeck(['preview', '-w', 'appops/nginx-example/dev', '-o', 'json'])).stdout) as {
      changeSteps: Record<string, { drift: boolean; driftFields?: unknown[]; conflict?: string; note?: string }>;
    };
    const step = json.changeSteps['apps/v1:Deployment:nginx-example-dev:nginx-example'];
    expect(step).toMatchObject({
      drift: true,
      driftFields: [{ kind: 'change', path: 'spec.replicas', from: 1, to: 4 }],
      conflict: expect.stringContaining('.spec.replicas'),
      note: expect.stringContaining('apply needs --force-conflicts'),
    });
    expect(JSON.stringify(json)).not.toContain('managedFields');
    expect(
      (await kdeck(['apply', '-y', '--confirm', 'sandbox-b', '--force-conflicts', '-w', 'appops/nginx-example/dev']))
        .code,
    ).toBe(0);
    expect((await kdeck(['preview', '-w', 'appops/nginx-example/dev'])).stdout).toContain('No diff found');
  });

  it('destroys a stack: the objects are gone, kubectl agrees, and the state is empty', async () => {
    const r = await kdeck(['destroy', '-y', '--confirm', 'sandbox-b', '-w', 'appops/guestbook/prod']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Destroy complete! Resources: \d+ deleted\./);
    expect(
      (
        await kubectl(['--context', 'sandbox-b', 'get', 'deploy,svc,pdb', '-n', 'guestbook', '-o', 'name'])
      ).stdout.trim(),
    ).toBe('');
    expect((await kubectl(['--context', 'sandbox-b', 'get', 'ns', 'guestbook'])).code).not.toBe(0);
    expect(readState('guestbook', 'prod', 'sandbox-b').resources).toEqual([]);
  });
});

describe('kdeck apply under faults', () => {
  it('succeeds while the cluster fails a fifth of its requests with 429 and 500', async () => {
    for (const c of sandbox.clusters)
      c.faults.set({
        apiErrors: [
          { status: 429, rate: 0.1, retryAfterSeconds: 0 },
          { status: 500, rate: 0.1 },
        ],
      });
    try {
      await kdeck(['destroy', '-y', '--confirm', 'sandbox-b', '-w', 'appops/guestbook/dev']);
      const r = await kdeck(['apply', '-y', '--confirm', 'sandbox-b', '-w', 'appops/guestbook/dev']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
    } finally {
      for (const c of sandbox.clusters) c.faults.clear();
    }
    expect((await kdeck(['preview', '-w', 'appops/guestbook/dev'])).stdout).toContain('No diff found');
  });

  it('marks an image that never pulls Degraded at its timeout, skips its dependents, applies the rest, and records what reached the cluster', async () => {
    await kdeck(['destroy', '-y', '--confirm', 'sandbox-b', '-w', 'appops/http-echo/prod']);
    edit(
      path.join(copy, 'appops/http-echo/base/base.k'),
      'docker.io/hashicorp/http-echo:1.0.0',
      'docker.io/hashicorp/http-echo:nopull',
    );
    try {
      const r = await kdeck([
        'apply',
        '-y',
        '--confirm',
        'sandbox-b',
        '-w',
        'appops/http-echo/prod',
        '--timeout',
        '3s',
      ]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/✗ apps\/v1:Deployment:http-echo:http-echo \(sandbox-a\) failed: ImagePullBackOff/);
      expect(r.stdout).toContain(
        '- autoscaling/v2:HorizontalPodAutoscaler:http-echo:http-echo (sandbox-a) skipped: it depends on apps/v1:Deployment:http-echo:http-echo',
      );
      expect(r.stderr).toMatch(/Apply failed: 1 failed, 1 skipped/);
      const recorded = readState('http-echo', 'prod', 'sandbox-a').resources.map((x) => x.id);
      expect(recorded).toContain('apps/v1:Deployment:http-echo:http-echo');
      expect(recorded).toContain('networking.k8s.io/v1:Ingress:http-echo:http-echo');
      expect(recorded).not.toContain('autoscaling/v2:HorizontalPodAutoscaler:http-echo:http-echo');
      expect((await kubectl(['get', 'hpa', '-n', 'http-echo', '-o', 'name'])).stdout.trim()).toBe('');
    } finally {
      edit(
        path.join(copy, 'appops/http-echo/base/base.k'),
        'docker.io/hashicorp/http-echo:nopull',
        'docker.io/hashicorp/http-echo:1.0.0',
      );
    }
  });

  it('says in one paragraph that the cluster is down, for preview and apply alike, and writes no state', async () => {
    // a port that nothing listens on any more
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const kubeconfig = path.join(fs.mkdtempSync(path.join(tmpdir(), 'kdeck-down-')), 'kubeconfig');
    fs.writeFileSync(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: gone\n  cluster: {server: "https://127.0.0.1:${port}", insecure-skip-tls-verify: true}\nusers:\n- name: u\n  user: {token: t}\ncontexts:\n- name: gone\n  context: {cluster: gone, user: u}\ncurrent-context: gone\n`,
    );
    for (const command of [['preview'], ['apply', '-y']]) {
      const r = await kdeckIn(copy, ['--kubeconfig', kubeconfig, ...command, '-w', 'appops/guestbook/dev']);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `kdeck: cluster gone (https://127.0.0.1:${port}) is unreachable: connect ECONNREFUSED 127.0.0.1:${port} (ECONNREFUSED); check that it is up and that the context is right (kubectl --context gone get ns)\n`,
      );
    }
    expect(fs.existsSync(stateFile('guestbook', 'dev', 'gone'))).toBe(false);
  });

  it('keeps the state intact when killed mid-apply, and a re-run converges; a second apply at once is refused naming the holder', async () => {
    const { child, exited } = await applyStuckOnSandboxA();
    try {
      const lock = stateFile('nginx-example', 'staging', 'sandbox-a').replace(/\.json$/, '.lock');
      await until(
        () =>
          fs.existsSync(lock) &&
          fs.existsSync(stateFile('nginx-example', 'staging', 'sandbox-a')) &&
          readState('nginx-example', 'staging', 'sandbox-a').resources.length > 0,
        'the first apply to record a resource',
      );
      const second = await kdeck(['apply', '-y', '--confirm', 'sandbox-b', '-w', 'appops/nginx-example/staging']);
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(new RegExp(`is locked by \\S+:${child.pid} \\(apply since `));
    } finally {
      child.kill('SIGKILL');
      await exited;
      sandbox.cluster('a').faults.clear();
    }
    const state = readState('nginx-example', 'staging', 'sandbox-a');
    expect(state.serial).toBeGreaterThan(0);
    const rerun = await kdeck(['apply', '-y', '--confirm', 'sandbox-b', '-w', 'appops/nginx-example/staging']);
    expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
    expect((await kdeck(['preview', '-w', 'appops/nginx-example/staging'])).stdout).toContain('No diff found');
  });

  it('yields the CPU to a cluster served from this machine once the change starts', async () => {
    const { child, exited } = await applyStuckOnSandboxA();
    try {
      await until(
        () =>
          fs.existsSync(stateFile('nginx-example', 'staging', 'sandbox-a')) &&
          readState('nginx-example', 'staging', 'sandbox-a').resources.length > 0,
        'the apply to record a resource',
      );
      // the sandbox answers on 127.0.0.1: the apply waits on its controllers, which go first
      await until(() => os.getPriority(child.pid) === LOCAL_CLUSTER_NICENESS, 'the apply to lower its priority');
    } finally {
      child.kill('SIGKILL');
      await exited;
      sandbox.cluster('a').faults.clear();
    }
  });
});
