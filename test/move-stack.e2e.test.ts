/**
 * Moving a stack from one cluster to another with `--context`: the real CLI against a two-cluster
 * sandbox over HTTP. Changes are keyed by (cluster, id), so the move is a create on the new
 * cluster and a delete on the old one, never a delete on both.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/launcher.js';
import { kdeckIn, run } from './support/run.js';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'move-stack');
const STACK = 'apps/tiny/one';
const copy = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-move-'));
let sandbox: Sandbox;

const kdeck = (args: string[]) => kdeckIn(copy, ['--kubeconfig', sandbox.kubeconfigPath, ...args]);
const namespaceOn = async (context: string) =>
  run(
    'kubectl',
    ['--kubeconfig', sandbox.kubeconfigPath, '--context', context, 'get', 'namespace', 'tiny', '-o', 'name'],
    copy,
    60_000,
  );

beforeAll(async () => {
  fs.cpSync(FIXTURE, copy, { recursive: true });
  sandbox = await startSandbox({ clusters: 2, timings: { podStartMs: 0, readinessDelayMs: 0, terminationMs: 0 } });
});
afterAll(async () => {
  await sandbox?.stop();
  fs.rmSync(copy, { recursive: true, force: true });
});

describe('kdeck apply --context moves a stack between clusters', () => {
  it('creates it on the new cluster and deletes it from the old one', async () => {
    const first = await kdeck(['--context', 'sandbox-a', 'apply', '-y', '-w', STACK, '--timeout', '60s']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toContain('Apply complete! Resources: 3 created, 0 updated, 0 deleted.');

    const moved = await kdeck(['--context', 'sandbox-b', 'apply', '-y', '-w', STACK, '--timeout', '60s']);
    expect(moved.code, moved.stdout + moved.stderr).toBe(0);
    expect(moved.stdout).toContain('Apply complete! Resources: 3 created, 0 updated, 3 deleted.');
    // the creates on sandbox-b are reported before any delete on sandbox-a
    const lines = moved.stdout.split('\n');
    const lastCreate = Math.max(...lines.flatMap((l, i) => (/^✓ .* \(sandbox-b\)$/.test(l) ? [i] : [])));
    const firstDelete = lines.findIndex((l) => /^✓ .* \(sandbox-a\)$/.test(l));
    expect(firstDelete).toBeGreaterThan(lastCreate);

    expect((await namespaceOn('sandbox-b')).stdout.trim()).toBe('namespace/tiny');
    const gone = await namespaceOn('sandbox-a');
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain('NotFound');
  }, 180_000);
});
