/**
 * `--sandbox`: the workspace's embedded clusters, served by one daemon per workspace that each
 * command attaches to (stopped by its pid at the end), their objects kept in .kdeck/sandbox, so
 * apply, preview and destroy see the same clusters.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kdeckIn } from './support/run.js';
import { copySample } from './support/sample.js';
import { daemonPid, stopDaemons } from './support/workspace-sandbox.js';

const kdeck = (args: string[], cwd: string) => kdeckIn(cwd, args);
const copies: string[] = [];

afterAll(() => stopDaemons(copies.map(daemonPid)), 30_000);

describe('kdeck --sandbox', () => {
  it('applies to the embedded clusters, which keep the objects for the next command', async () => {
    const copy = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-embedded-'));
    copySample(copy);
    copies.push(copy);
    const stack = ['-w', 'appops/nginx-example/prod'];
    const apply = await kdeck(['--sandbox', 'apply', '-y', ...stack], copy);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout).toMatch(/v1:Namespace:nginx-example +sandbox-b +Create/);
    expect(fs.existsSync(path.join(copy, '.kdeck', 'sandbox', 'state.json'))).toBe(true);
    expect((await kdeck(['--sandbox', 'preview', ...stack], copy)).stdout).toContain(
      'All resources are reconciled. No diff found.',
    );
    const destroy = await kdeck(['--sandbox', 'destroy', '-y', ...stack], copy);
    expect(destroy.stdout).toMatch(/Destroy complete! Resources: \d+ deleted\./);
    expect((await kdeck(['--sandbox', 'preview', ...stack], copy)).stdout).toMatch(
      /Plan: \d+ to create, 0 to update, 0 to delete, 0 unchanged\./,
    );
    const both = await kdeck(['--sandbox', '--kubeconfig', 'x', 'preview', ...stack], copy);
    expect(both).toMatchObject({
      code: 2,
      stderr: 'kdeck: --sandbox and --kubeconfig both say which clusters to use; give one of them\n',
    });
  }, 300_000);
});
