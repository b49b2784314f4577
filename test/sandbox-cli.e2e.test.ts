/**
 * `kdeck sandbox` as a user runs it: the built CLI in a child process, told to stop with Ctrl-C
 * (SIGINT, sent to its own process id).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { eventually } from './support/kube-target.js';

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bin', 'kdeck.js');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-sandbox-cli-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Running {
  output: () => string;
  exited: Promise<number | null>;
  interrupt: () => void;
}

function start(args: string[]): Running {
  const child = spawn(process.execPath, [CLI, 'sandbox', ...args], { cwd: dir });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const limit = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(limit);
      resolve(code);
    }),
  );
  return { output: () => out, exited, interrupt: () => child.kill('SIGINT') };
}

const SEED = `apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: team}
data: {mode: demo}
---
apiVersion: v1
kind: Namespace
metadata: {name: team}
`;

describe('kdeck sandbox', () => {
  it('starts seeded clusters, writes the kubeconfig, stops on Ctrl-C and keeps its state', async () => {
    fs.writeFileSync(path.join(dir, 'seed.yaml'), SEED);
    const run = start([
      '--clusters',
      '2',
      '--kubeconfig',
      'kubeconfig',
      '--seed',
      'seed.yaml',
      '--state',
      'state.json',
      '--readiness-delay',
      '0',
    ]);
    await eventually(
      'the sandbox to start',
      () => (run.output().includes('Press Ctrl-C to stop.') ? true : undefined),
      30_000,
    );
    const out = run.output();
    expect(out).toContain('kdeck sandbox: 2 clusters running, 3 nodes each');
    expect(out).toContain(`export KUBECONFIG=${path.join(dir, 'kubeconfig')}`);
    const kc = new KubeConfig();
    kc.loadFromFile(path.join(dir, 'kubeconfig'));
    expect(kc.getContexts().map((c) => c.name)).toEqual(['sandbox-a', 'sandbox-b']);
    for (const user of kc.getUsers()) expect(out).not.toContain(user.token!);
    for (const ctx of ['sandbox-a', 'sandbox-b']) {
      kc.setCurrentContext(ctx);
      const cm = await kc.makeApiClient(CoreV1Api).readNamespacedConfigMap({ name: 'settings', namespace: 'team' });
      expect(cm.data).toEqual({ mode: 'demo' });
    }
    run.interrupt();
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('Ctrl-C: stopping the sandbox and saving its state to state.json');
    const state = JSON.parse(fs.readFileSync(path.join(dir, 'state.json'), 'utf8')) as { clusters: { name: string }[] };
    expect(state.clusters.map((c) => c.name)).toEqual(['a', 'b']);
  });

  it('says what is wrong with a seed file, and exits 2', async () => {
    fs.writeFileSync(path.join(dir, 'bad-seed.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: Bad_Name}\n');
    const bad = start(['--clusters', '1', '--seed', 'bad-seed.yaml']);
    expect(await bad.exited).toBe(2);
    expect(bad.output()).toContain(
      'kdeck: bad-seed.yaml: an object was refused: ConfigMap "Bad_Name" is invalid: metadata.name',
    );
    const missing = start(['--seed', 'nowhere.yaml']);
    expect(await missing.exited).toBe(2);
    expect(missing.output()).toContain('kdeck: cannot read the seed file nowhere.yaml; check the path');
  });
});
