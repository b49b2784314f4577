/**
 * The daemon's side in one process: the registry it writes, holds counted as open connections,
 * a wrong token refused, the idle stop with its state saved, and a private sandbox (what tests,
 * benches and rehearsals start for themselves) never written down as the workspace's.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { health, hold, requestStop } from './control.js';
import { serveWorkspaceSandbox, type Daemon } from './daemon.js';
import { startSandbox, type Sandbox } from './launcher.js';
import { readRegistry, sandboxPaths } from './registry.js';

const FAST = { podStartMs: 0, readinessDelayMs: 0, terminationMs: 0, jobRunMs: 0 };
const running: (Daemon | Sandbox)[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => ('registry' in r ? r.stop('test over') : r.stop())));
});

const folder = () => path.join(fs.mkdtempSync(path.join(tmpdir(), 'kdeck-daemon-')), '.kdeck', 'sandbox');

describe('the workspace sandbox daemon', () => {
  it('registers itself, counts holds, refuses a wrong token and stops once idle, state saved', async () => {
    const dir = folder();
    const lines: string[] = [];
    const daemon = await serveWorkspaceSandbox({
      dir,
      idleTimeoutMs: 300,
      startedBy: 'me',
      sandbox: { timings: FAST },
      log: (l) => lines.push(l),
    });
    running.push(daemon);
    const registry = readRegistry(sandboxPaths(dir).registry);
    expect(registry).toMatchObject({ pid: process.pid, startedBy: 'me', kubeconfig: sandboxPaths(dir).kubeconfig });
    expect(registry!.clusters.map((c) => c.name)).toEqual(['a', 'b']);
    expect(fs.statSync(sandboxPaths(dir).registry).mode & 0o777).toBe(0o600);

    expect(await hold(registry!.control, 'wrong')).toBeUndefined();
    expect(await requestStop(registry!.control, 'wrong')).toBeUndefined();
    const held = await hold(registry!.control, registry!.token);
    expect(held).toBeDefined();
    expect((await health(registry!.control))?.holders).toBe(1);
    // held past its idle timeout: still serving
    await new Promise((r) => setTimeout(r, 600));
    expect((await health(registry!.control))?.instance).toBe(registry!.instance);

    await held!.release();
    await Promise.race([
      daemon.stopped,
      new Promise((_, reject) => setTimeout(() => reject(new Error('the daemon did not stop in 10 s')), 10_000)),
    ]);
    expect(lines.some((l) => l.startsWith('stopping: no kdeck has held'))).toBe(true);
    expect(fs.existsSync(sandboxPaths(dir).registry)).toBe(false);
    expect(fs.existsSync(sandboxPaths(dir).state)).toBe(true);
    expect(await health(registry!.control, 500)).toBeUndefined();
  });

  it('ends its holds when it stops, so holders learn it is gone', async () => {
    const daemon = await serveWorkspaceSandbox({ dir: folder(), sandbox: { timings: FAST } });
    running.push(daemon);
    const held = await hold(daemon.registry.control, daemon.registry.token);
    expect(held).toBeDefined();
    await daemon.stop('test');
    await held!.ended;
  });

  it('a private sandbox, even on the workspace folder, is never registered', async () => {
    const dir = folder();
    const paths = sandboxPaths(dir);
    const sb = await startSandbox({ clusters: 1, statePath: paths.state, kubeconfig: paths.kubeconfig });
    running.push(sb);
    expect(fs.existsSync(paths.kubeconfig)).toBe(true);
    expect(fs.existsSync(paths.registry)).toBe(false);
  });
});
