/**
 * One embedded sandbox per workspace, with real processes: the console (`kdeck ui --sandbox` in
 * tmux) and a CLI `kdeck --sandbox apply` share the clusters of one detached daemon, which
 * kubectl still reaches after the CLI has gone; kdeck processes starting at once share one
 * daemon; a stale registry is replaced; `kdeck sandbox stop` and idleness stop it. Every daemon
 * is stopped by its pid at the end, every wait is bounded, everything listens on loopback.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, kdeckIn, run } from './support/run.js';
import { copySample } from './support/sample.js';
import { terminal } from './support/terminal.js';
import { alive, daemonPid, ended, registryFile, stopDaemons } from './support/workspace-sandbox.js';

const dir = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-shared-sandbox-'));
const socket = path.join(dir, 'tmux.sock');
const workspaces: string[] = [];
const daemons = new Set<number>();
const children: ChildProcess[] = [];

function workspace(name: string): string {
  const ws = path.join(dir, name);
  copySample(ws);
  workspaces.push(ws);
  return ws;
}

/** The pid of the workspace's daemon, remembered so that it is stopped at the end. */
function daemonOf(ws: string): number {
  const pid = daemonPid(ws);
  if (pid === undefined) throw new Error(`no sandbox registry in ${ws}`);
  daemons.add(pid);
  return pid;
}

const logOf = (ws: string) => fs.readFileSync(path.join(ws, '.kdeck', 'sandbox', 'daemon.log'), 'utf8');
const servingLines = (ws: string) => logOf(ws).match(/\] serving /g)?.length ?? 0;
const preview = (ws: string) => kdeckIn(ws, ['--sandbox', 'preview', '-w', 'appops/nginx-example/dev']);

afterAll(async () => {
  try {
    execFileSync('tmux', ['-S', socket, 'kill-server'], { timeout: 10_000, stdio: 'ignore' });
  } catch {
    // no server, or it ended with its session
  }
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await stopDaemons([...daemons, ...workspaces.map(daemonPid)]);
  fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('the console and the command line share the workspace sandbox', () => {
  const { tmux, until } = terminal(socket);

  it('a CLI apply shows in the open console, and kubectl reaches the clusters after the CLI has gone', async () => {
    const ws = workspace('console');
    tmux(
      'new-session',
      '-d',
      '-x',
      '100',
      '-y',
      '30',
      '-s',
      'console',
      `'${process.execPath}' '${CLI}' ui '${ws}' --sandbox`,
    );
    await until(/dev\s+4 changes/, 90_000);
    const pid = daemonOf(ws);
    tmux('send-keys', '-t', 'console', ':');
    tmux('send-keys', '-t', 'console', '-l', 'stack nginx-example/dev');
    tmux('send-keys', '-t', 'console', 'Enter');
    await until(/Deployment\s+nginx-example\s+Create\s+—/, 30_000);
    // one cluster: the screen names it once, in the stack's heading
    await until(/nginx-example\/dev → sandbox-a/, 2_000);

    const apply = await kdeckIn(ws, ['--sandbox', 'apply', '-y', '-w', 'appops/nginx-example/dev']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout).toContain('Apply complete! Resources: 4 created, 0 updated, 0 deleted.');
    // the console watches the same clusters: the objects the CLI made show up live
    await until(/Deployment\s+nginx-example\s+\S+\s+Healthy/, 2_000);

    expect(daemonPid(ws)).toBe(pid);
    expect(servingLines(ws)).toBe(1);
    const kubectl = await run(
      'kubectl',
      ['--kubeconfig', path.join(ws, '.kdeck', 'sandbox', 'kubeconfig'), 'get', 'ns'],
      ws,
      30_000,
    );
    expect(kubectl.code, kubectl.stderr).toBe(0);
    expect(kubectl.stdout).toMatch(/^nginx-example-dev\s+Active/m);

    tmux('send-keys', '-t', 'console', 'q');
    // the console has let go; the sandbox waits for the next kdeck (its idle timeout is minutes)
    await new Promise((r) => setTimeout(r, 500));
    expect(alive(pid)).toBe(true);
    const again = await run(
      'kubectl',
      ['--kubeconfig', path.join(ws, '.kdeck', 'sandbox', 'kubeconfig'), 'get', 'deploy', '-n', 'nginx-example-dev'],
      ws,
      30_000,
    );
    expect(again.code, again.stderr).toBe(0);
  }, 240_000);
});

describe('one daemon per workspace', () => {
  it('three kdeck processes starting at once end with one sandbox', async () => {
    const ws = workspace('race');
    const runs = await Promise.all([preview(ws), preview(ws), preview(ws)]);
    for (const r of runs) expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(alive(daemonOf(ws))).toBe(true);
    expect(servingLines(ws)).toBe(1);
    expect(logOf(ws)).not.toContain('could not serve');
    expect(fs.existsSync(path.join(ws, '.kdeck', 'sandbox', 'daemon.lock'))).toBe(false);
  }, 120_000);

  it('replaces a stale registry (its pid gone, or its control port not answering) and a stale start lock', async () => {
    const ws = workspace('stale');
    const stale = (pid: number, control: string) => {
      fs.mkdirSync(path.dirname(registryFile(ws)), { recursive: true });
      fs.writeFileSync(
        registryFile(ws),
        JSON.stringify({
          kind: 'KdeckSandboxDaemon',
          version: 1,
          pid,
          instance: 'stale',
          control,
          token: 'stale',
          clusters: [],
          kubeconfig: path.join(ws, '.kdeck', 'sandbox', 'kubeconfig'),
          state: path.join(ws, '.kdeck', 'sandbox', 'state.json'),
          started: new Date().toISOString(),
          idleTimeoutMs: 600_000,
        }),
      );
    };
    // a port nothing listens on: taken, then let go
    const closedPort = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });

    const goneChild = spawn(process.execPath, ['-e', '0']);
    const gonePid = goneChild.pid!;
    await new Promise((r) => goneChild.on('close', r));
    stale(gonePid, `http://127.0.0.1:${closedPort}`);
    // and the start lock of a kdeck killed while it started one
    fs.writeFileSync(
      path.join(ws, '.kdeck', 'sandbox', 'daemon.lock'),
      JSON.stringify({ id: 'stale', pid: gonePid, at: Date.now() }),
    );
    const first = await preview(ws);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const replaced = daemonOf(ws);
    expect(replaced).not.toBe(gonePid);
    expect(alive(replaced)).toBe(true);

    // a live process under the registry's pid that is not a daemon: replaced, and left alone
    await stopDaemons([replaced]);
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
    children.push(other);
    stale(other.pid!, `http://127.0.0.1:${closedPort}`);
    const second = await preview(ws);
    expect(second.code, second.stdout + second.stderr).toBe(0);
    const next = daemonOf(ws);
    expect(next).not.toBe(other.pid);
    expect(alive(next)).toBe(true);
    expect(alive(other.pid!)).toBe(true);
  }, 120_000);

  it('replaces a daemon that runs but no longer answers, after a grace, and ends the hung one', async () => {
    const ws = workspace('hung');
    const first = await preview(ws);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const hung = daemonOf(ws);
    process.kill(hung, 'SIGSTOP');
    try {
      const second = await preview(ws);
      expect(second.code, second.stdout + second.stderr).toBe(0);
      const next = daemonOf(ws);
      expect(next).not.toBe(hung);
      expect(alive(next)).toBe(true);
      expect(await ended(hung, 20_000)).toBe(true);
      expect(servingLines(ws)).toBe(2);
    } finally {
      if (alive(hung)) process.kill(hung, 'SIGCONT');
    }
  }, 120_000);

  it('kdeck sandbox stop stops it with its state saved; the next kdeck starts it again with the objects', async () => {
    const ws = workspace('stop');
    const apply = await kdeckIn(ws, ['--sandbox', 'apply', '-y', '-w', 'appops/nginx-example/dev']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const pid = daemonOf(ws);
    expect((await kdeckIn(ws, ['sandbox', 'status'])).stdout).toContain(`The workspace sandbox runs (pid ${pid}`);

    const stop = await kdeckIn(ws, ['sandbox', 'stop']);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stdout).toContain(`Stopped the workspace sandbox (pid ${pid})`);
    expect(await ended(pid, 10_000)).toBe(true);
    expect(fs.existsSync(registryFile(ws))).toBe(false);
    expect(logOf(ws)).toContain('stopping: asked to stop');
    expect((await kdeckIn(ws, ['sandbox', 'stop'])).stdout).toContain('No workspace sandbox is running');

    const after = await preview(ws);
    expect(after.stdout, after.stderr).toContain('All resources are reconciled. No diff found.');
    expect(daemonOf(ws)).not.toBe(pid);
  }, 120_000);

  it('stops by itself once no kdeck holds it; a holder killed with SIGKILL holds no more', async () => {
    const ws = workspace('idle');
    // a holder through the module's API, from tsc's output (the bundle exports nothing), with the
    // daemon that ships beside the bundled CLI
    const attach = pathToFileURL(path.join(path.dirname(CLI), '..', 'src', 'app', 'workspace-sandbox.js')).href;
    const daemonScript = path.join(path.dirname(CLI), 'daemon-main.mjs');
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { attachWorkspaceSandbox } = await import(${JSON.stringify(attach)});
         const s = await attachWorkspaceSandbox(${JSON.stringify(ws)}, { daemonScript: ${JSON.stringify(daemonScript)} });
         process.stdout.write('attached ' + s.pid + '\\n');
         setInterval(() => {}, 1000);`,
      ],
      { env: { ...process.env, KDECK_SANDBOX_IDLE_TIMEOUT: '1s' }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(holder);
    const attached = await new Promise<number>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`the holder did not attach in 60 s: ${out}`)), 60_000);
      holder.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /attached (\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
    });
    expect(daemonOf(ws)).toBe(attached);
    // held: past its idle timeout, it still runs
    await new Promise((r) => setTimeout(r, 2_000));
    expect(alive(attached)).toBe(true);

    holder.kill('SIGKILL');
    expect(await ended(attached, 20_000)).toBe(true);
    expect(logOf(ws)).toMatch(/stopping: no kdeck has held the sandbox for 1 s/);
    expect(fs.existsSync(registryFile(ws))).toBe(false);
    expect(fs.existsSync(path.join(ws, '.kdeck', 'sandbox', 'state.json'))).toBe(true);
  }, 120_000);
});
