/**
 * The real kubectl of this machine against a two-cluster sandbox, the same scenario on both
 * clusters (contexts sandbox-a and sandbox-b): apply, get -o yaml, get -w, rollout status and
 * restart, scale, wait, dry-run=server, apply --server-side with its conflict, drain (evicting
 * through a PodDisruptionBudget), delete. Every kubectl run has a time limit; the one
 * long-running `get -w` is ended by its process id.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { startSandbox, type Sandbox } from '../src/sandbox/launcher.js';
import { eventually, FAST } from './support/kube-target.js';

const KUBECTL_MISSING =
  'kubectl is not on PATH: this end-to-end test drives the kubectl installed on the machine (it is part of the machine image); install kubectl to run it';

let sb: Sandbox;
let dir: string;

function kubectlPath(): string | undefined {
  // before any sandbox runs, so a blocking look-up is harmless here
  const r = spawnSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

const env = () => ({ ...process.env, KUBECONFIG: sb.kubeconfigPath, KUBECACHEDIR: path.join(dir, 'cache'), HOME: dir });

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  all: string;
}

/**
 * Runs kubectl without blocking: the sandbox answers from this same process, so a synchronous
 * child would wait on a server that cannot run. Killed (by its pid) after 60 s.
 */
function kubectl(context: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn('kubectl', ['--context', context, ...args], { env: env(), cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const limit = setTimeout(() => child.kill(), 60_000);
    child.on('close', (code) => {
      clearTimeout(limit);
      resolve({ code, stdout, stderr, all: `${stdout}${stderr}` });
    });
  });
}

async function ok(context: string, ...args: string[]): Promise<string> {
  const r = await kubectl(context, ...args);
  if (r.code !== 0)
    throw new Error(`kubectl ${args.join(' ')} (context ${context}) failed with ${String(r.code)}:\n${r.all}`);
  return r.stdout;
}

const APP = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 4
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxSurge: 1, maxUnavailable: 0}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports:
        - {containerPort: 80, name: http}
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
  - {port: 80, targetPort: http}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web
spec:
  minAvailable: 2
  selector:
    matchLabels: {app: web}
`;

beforeAll(async () => {
  if (!kubectlPath()) throw new Error(KUBECTL_MISSING);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-kubectl-'));
  fs.writeFileSync(path.join(dir, 'app.yaml'), APP);
  fs.writeFileSync(path.join(dir, 'app-v2.yaml'), APP.replace('nginx:1.27', 'nginx:1.28'));
  sb = await startSandbox({ clusters: 2, kubeconfig: path.join(dir, 'kubeconfig'), timings: FAST });
});

afterAll(async () => {
  await sb?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function webPods(context: string): Promise<{ name: string; node: string; ready: boolean }[]> {
  const list = JSON.parse(await ok(context, 'get', 'pods', '-l', 'app=web', '-o', 'json')) as {
    items: {
      metadata: { name: string; deletionTimestamp?: string };
      spec: { nodeName: string };
      status: { conditions?: { type: string; status: string }[] };
    }[];
  };
  return list.items
    .filter((p) => !p.metadata.deletionTimestamp)
    .map((p) => ({
      name: p.metadata.name,
      node: p.spec.nodeName,
      ready: p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
    }));
}

describe.each(['sandbox-a', 'sandbox-b'])('kubectl against %s', (ctx) => {
  it('applies a Deployment, Service and budget, and waits for the rollout', async () => {
    expect(await ok(ctx, 'apply', '-f', 'app.yaml')).toBe(
      'deployment.apps/web created\nservice/web created\npoddisruptionbudget.policy/web created\n',
    );
    expect(await ok(ctx, 'rollout', 'status', 'deployment/web', '--timeout=60s')).toContain(
      'deployment "web" successfully rolled out',
    );
  });

  it('shows the live object with get -o yaml', async () => {
    const d = YAML.parse(await ok(ctx, 'get', 'deployment', 'web', '-o', 'yaml')) as {
      metadata: { generation: number; annotations: Record<string, string> };
      spec: { replicas: number };
      status: Record<string, unknown>;
    };
    expect(d.metadata.generation).toBe(1);
    expect(d.metadata.annotations['deployment.kubernetes.io/revision']).toBe('1');
    expect(d.status).toMatchObject({
      observedGeneration: 1,
      replicas: 4,
      updatedReplicas: 4,
      readyReplicas: 4,
      availableReplicas: 4,
    });
    const nodes = await ok(ctx, 'get', 'nodes', '-o', 'name');
    expect(nodes).toContain(`node/${ctx.slice(-1)}-node-1`);
    expect(await ok(ctx, 'get', 'endpoints', 'web', '-o', 'jsonpath={.subsets[0].ports[0].port}')).toBe('80');
  });

  it('streams pod changes with get -w while the Deployment is scaled', async () => {
    const before = new Set((await webPods(ctx)).map((p) => p.name));
    const child = spawn(
      'kubectl',
      ['--context', ctx, 'get', 'pods', '-l', 'app=web', '-w', '--output-watch-events', '--no-headers'],
      { env: env(), cwd: dir },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    try {
      await eventually('get -w to list the pods', () =>
        before.size > 0 && [...before].every((n) => out.includes(n)) ? true : undefined,
      );
      expect(await ok(ctx, 'scale', 'deployment/web', '--replicas=5')).toBe('deployment.apps/web scaled\n');
      const added = await eventually('get -w to show the new pod', () =>
        out.split('\n').find((l) => l.startsWith('ADDED') && ![...before].some((n) => l.includes(n))),
      );
      expect(added).toMatch(/^ADDED\s+web-[a-z0-9]+-[a-z0-9]{5}\s/);
    } finally {
      child.kill();
    }
  });

  it('waits for pods to be Ready', async () => {
    const out = await ok(ctx, 'wait', '--for=condition=Ready', 'pod', '-l', 'app=web', '--timeout=60s');
    expect(out.trim().split('\n')).toHaveLength(5);
    expect(out).toMatch(/condition met/);
  });

  it('restarts the rollout and sees it through', async () => {
    expect(await ok(ctx, 'rollout', 'restart', 'deployment/web')).toBe('deployment.apps/web restarted\n');
    expect(await ok(ctx, 'rollout', 'status', 'deployment/web', '--timeout=60s')).toContain('successfully rolled out');
    const rs = await ok(
      ctx,
      'get',
      'rs',
      '-l',
      'app=web',
      '-o',
      'jsonpath={range .items[*]}{.spec.replicas}{" "}{end}',
    );
    expect(rs.trim().split(' ').sort()).toEqual(['0', '5']);
  });

  it('validates without storing on --dry-run=server', async () => {
    expect(await ok(ctx, 'apply', '-f', 'app-v2.yaml', '--dry-run=server')).toContain(
      'deployment.apps/web configured (server dry run)',
    );
    expect(await ok(ctx, 'get', 'deployment', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}')).toBe(
      'nginx:1.27',
    );
  });

  it('applies server-side: a conflict over replicas, then --force-conflicts', async () => {
    const conflict = await kubectl(ctx, 'apply', '--server-side', '-f', 'app-v2.yaml');
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toMatch(/Apply failed with 1 conflict: conflict with "kubectl[^"]*".*: \.spec\.replicas/);
    expect(await ok(ctx, 'apply', '--server-side', '--force-conflicts', '-f', 'app-v2.yaml')).toContain(
      'deployment.apps/web serverside-applied',
    );
    expect(await ok(ctx, 'rollout', 'status', 'deployment/web', '--timeout=60s')).toContain('successfully rolled out');
    expect(
      await ok(
        ctx,
        'get',
        'deployment',
        'web',
        '-o',
        'jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image}',
      ),
    ).toBe('4 nginx:1.28');
  });

  it('undoes the last rollout by reusing the previous ReplicaSet', async () => {
    const before = (await ok(ctx, 'get', 'rs', '-l', 'app=web', '-o', 'name')).trim().split('\n');
    expect(await ok(ctx, 'rollout', 'undo', 'deployment/web')).toBe('deployment.apps/web rolled back\n');
    expect(await ok(ctx, 'rollout', 'status', 'deployment/web', '--timeout=60s')).toContain('successfully rolled out');
    expect(await ok(ctx, 'get', 'deployment', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}')).toBe(
      'nginx:1.27',
    );
    expect((await ok(ctx, 'get', 'rs', '-l', 'app=web', '-o', 'name')).trim().split('\n')).toEqual(before);
  });

  it('drains a node, evicting its pods through the budget', async () => {
    const node = (await webPods(ctx))[0]!.node;
    const out = await ok(ctx, 'drain', node, '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=60s');
    expect(out).toContain(`node/${node} cordoned`);
    expect(out).toContain(`node/${node} drained`);
    await eventually('the pods to come back on other nodes', async () => {
      const pods = await webPods(ctx);
      return pods.length === 4 && pods.every((p) => p.node !== node && p.ready) ? true : undefined;
    });
    expect(await ok(ctx, 'uncordon', node)).toBe(`node/${node} uncordoned\n`);
  });

  it('deletes what it applied', async () => {
    expect(await ok(ctx, 'delete', '-f', 'app.yaml')).toBe(
      'deployment.apps "web" deleted\nservice "web" deleted\npoddisruptionbudget.policy "web" deleted\n',
    );
    expect((await kubectl(ctx, 'get', 'pods', '-l', 'app=web', '-o', 'name')).stdout).toBe('');
  });
});

describe('two contexts', () => {
  it('reach two separate clusters with their own tokens', async () => {
    fs.writeFileSync(path.join(dir, 'ns.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: only-in-a\n');
    expect(await ok('sandbox-a', 'apply', '-f', 'ns.yaml')).toBe('namespace/only-in-a created\n');
    const inB = await kubectl('sandbox-b', 'get', 'namespace', 'only-in-a');
    expect(inB.code).toBe(1);
    expect(inB.stderr).toContain('namespaces "only-in-a" not found');
    expect(await ok('sandbox-b', 'get', 'nodes', '-o', 'name')).toBe('node/b-node-1\nnode/b-node-2\nnode/b-node-3\n');
    const cfg = YAML.parse(fs.readFileSync(sb.kubeconfigPath, 'utf8')) as {
      users: { name: string; user: { token: string } }[];
    };
    expect(new Set(cfg.users.map((u) => u.user.token)).size).toBe(2);
  });
});

describe('kubectl create, which sends protobuf', () => {
  it('creates namespaces, config, secrets, workloads and services', async () => {
    const ctx = 'sandbox-b';
    expect(await ok(ctx, 'create', 'namespace', 'made')).toBe('namespace/made created\n');
    await ok(ctx, '-n', 'made', 'create', 'configmap', 'settings', '--from-literal=mode=demo');
    await ok(ctx, '-n', 'made', 'create', 'secret', 'generic', 'creds', '--from-literal=user=admin');
    await ok(ctx, '-n', 'made', 'create', 'deployment', 'api', '--image=nginx:1.27', '--replicas=2', '--port=8080');
    await ok(ctx, '-n', 'made', 'expose', 'deployment', 'api', '--port=80', '--target-port=8080');
    await ok(ctx, '-n', 'made', 'create', 'job', 'once', '--image=busybox:1');
    expect(await ok(ctx, '-n', 'made', 'get', 'configmap', 'settings', '-o', 'jsonpath={.data.mode}')).toBe('demo');
    expect(await ok(ctx, '-n', 'made', 'get', 'secret', 'creds', '-o', 'jsonpath={.data.user}')).toBe(
      Buffer.from('admin').toString('base64'),
    );
    expect(await ok(ctx, '-n', 'made', 'rollout', 'status', 'deployment/api', '--timeout=60s')).toContain(
      'successfully rolled out',
    );
    expect(await ok(ctx, '-n', 'made', 'wait', '--for=condition=Complete', 'job/once', '--timeout=60s')).toBe(
      'job.batch/once condition met\n',
    );
    await eventually('the Service to have two endpoints', async () =>
      (await ok(ctx, '-n', 'made', 'get', 'endpoints', 'api', '-o', 'jsonpath={.subsets[0].addresses[*].ip}')).split(
        ' ',
      ).length === 2
        ? true
        : undefined,
    );
  });
  it('sends its protobuf bodies (RBAC, reviews, tokens, autoscale, a Job from a CronJob) and they are read', async () => {
    const ctx = 'sandbox-b';
    const n = ['-n', 'made'];
    expect(await ok(ctx, ...n, 'create', 'role', 'reader', '--verb=get,list', '--resource=pods')).toContain('created');
    expect(await ok(ctx, ...n, 'create', 'rolebinding', 'reader', '--role=reader', '--user=bob')).toContain('created');
    expect(await ok(ctx, ...n, 'auth', 'can-i', 'delete', 'pods')).toBe('yes\n');
    expect(await ok(ctx, 'auth', 'whoami')).toContain('Username');
    await ok(ctx, ...n, 'create', 'serviceaccount', 'bot');
    expect((await ok(ctx, ...n, 'create', 'token', 'bot')).split('.')).toHaveLength(3);
    expect(await ok(ctx, ...n, 'autoscale', 'deployment', 'api', '--min=2', '--max=4', '--cpu-percent=60')).toContain(
      'autoscaled',
    );
    await ok(ctx, ...n, 'create', 'cronjob', 'nightly', '--image=busybox:1', '--schedule=0 3 * * *');
    expect(await ok(ctx, ...n, 'create', 'job', 'manual', '--from=cronjob/nightly')).toBe('job.batch/manual created\n');
  });
});
