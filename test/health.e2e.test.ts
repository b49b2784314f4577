/**
 * Truthful outcomes end to end: the real CLI against a sandbox over HTTP, on a copy of
 * konfig-sample. A crash-looping image fails its apply with the reason long before its timeout;
 * a CRD another stack applied is kept on destroy and reported so, never as deleted; an apply
 * killed mid-run shows as interrupted in `kdeck state history`, not as running forever.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/launcher.js';
import { kdeckIn, run, startKdeck } from './support/run.js';
import { copySample } from './support/sample.js';

const copy = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-health-'));
let sandbox: Sandbox;

const kdeck = (args: string[]) => kdeckIn(copy, ['--kubeconfig', sandbox.kubeconfigPath, ...args]);
const kubectl = (args: string[]) => run('kubectl', ['--kubeconfig', sandbox.kubeconfigPath, ...args], copy, 60_000);
const HTTP_ECHO = path.join(copy, 'appops/http-echo/base/base.k');

function setImage(tag: string) {
  const text = fs.readFileSync(HTTP_ECHO, 'utf8');
  const next = text.replace(/docker\.io\/hashicorp\/http-echo:[^"]+/, `docker.io/hashicorp/http-echo:${tag}`);
  expect(next).not.toBe(text);
  fs.writeFileSync(HTTP_ECHO, next);
}

beforeAll(async () => {
  copySample(copy);
  // cluster time runs ten times faster, so a crash loop's back-off takes a second, not ten
  sandbox = await startSandbox({
    clusters: 2,
    timeScale: 0.1,
    timings: { podStartMs: 0, readinessDelayMs: 0, terminationMs: 0 },
  });
});
afterAll(async () => {
  await sandbox?.stop();
  fs.rmSync(copy, { recursive: true, force: true });
});

describe('truthful outcomes', () => {
  it('fails an apply whose pods crash-loop with reason CrashLoopBackOff once the grace has passed, long before its timeout, and skips its dependents', async () => {
    setImage('crashloop');
    // a 5-minute timeout: only the health rule can end this apply within the run's bound
    const r = await kdeck(['apply', '-y', '-w', 'appops/http-echo/prod', '--timeout', '5m', '--health-grace', '2s']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/✗ apps\/v1:Deployment:http-echo:http-echo \(sandbox-a\) failed: CrashLoopBackOff: pod /);
    expect(r.stdout).toContain(
      '- autoscaling/v2:HorizontalPodAutoscaler:http-echo:http-echo (sandbox-a) skipped: it depends on apps/v1:Deployment:http-echo:http-echo',
    );
    expect(r.stdout).not.toMatch(/✓ apps\/v1:Deployment:http-echo:http-echo/);
    expect(r.stderr).toMatch(/Apply failed: 1 failed, 1 skipped/);
    expect(r.stderr).toContain(
      'The stack is unhealthy: apps/v1:Deployment:http-echo:http-echo did not become healthy.',
    );
  }, 150_000);

  it('shows an apply killed mid-run as interrupted in state history, not running', async () => {
    // an image that never becomes ready keeps the apply waiting on its health, with nothing stuck
    setImage('neverready');
    const started = startKdeck(copy, [
      '--kubeconfig',
      sandbox.kubeconfigPath,
      'apply',
      '-y',
      '-w',
      'appops/http-echo/prod',
      '--timeout',
      '5m',
    ]);
    let out = '';
    started.child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    const deadline = Date.now() + 60_000;
    while (!out.includes('apps/v1:Deployment:http-echo:http-echo: applied') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(out).toContain('apps/v1:Deployment:http-echo:http-echo: applied');
    started.child.kill('SIGKILL');
    await started.done;

    const history = await kdeck(['state', 'history', '-w', 'appops/http-echo/prod']);
    expect(history.code, history.stderr).toBe(0);
    const rows = history.stdout.trim().split('\n').slice(1);
    expect(rows.at(-1)).toMatch(/^sandbox-a\s+apply\s.*\sinterrupted\s/);
    expect(history.stdout).not.toMatch(/\srunning\s/);
  }, 150_000);

  it('keeps a CRD another stack applied when destroying a stack: reported as kept and forgotten, never deleted', async () => {
    for (const s of ['appops/stateful-app/prod', 'appops/stateful-app/dev']) {
      const r = await kdeck(['apply', '-y', '-w', s, '--timeout', '60s']);
      expect(r.code, `${s}\n${r.stdout}${r.stderr}`).toBe(0);
    }
    const crd = 'apiextensions.k8s.io/v1:CustomResourceDefinition:etcdbackups.storage.kdeck.dev';
    const r = await kdeck(['destroy', '-y', '-w', 'appops/stateful-app/dev']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toContain(`✓ ${crd}`);
    expect(r.stdout).toContain(
      `○ ${crd} (sandbox-a) kept in the cluster: also applied by stateful-app/prod; only forgotten by this stack`,
    );
    expect(r.stdout).toMatch(/Destroy complete! Resources: \d+ deleted, 1 forgotten \(kept for another stack\)\./);
    expect((await kubectl(['get', 'crd', 'etcdbackups.storage.kdeck.dev', '-o', 'name'])).stdout.trim()).toBe(
      'customresourcedefinition.apiextensions.k8s.io/etcdbackups.storage.kdeck.dev',
    );
  }, 300_000);
});
