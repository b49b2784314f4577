/**
 * One policy per decision, on both faces, end to end against a two-cluster sandbox over HTTP:
 * production needs its context named on the command line exactly where the console asks for it
 * typed; fields another manager owns are refused by default on both faces; Ctrl-C at the apply
 * prompt and during an interactive recovery, on a real pseudo-terminal (tmux), ends cleanly with
 * exit 130 and says what was (not) changed.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmationFor } from '../src/app/console/confirmation.js';
import { ConsoleSession } from '../src/app/console/session.js';
import { InlineCompiler } from '../src/app/console/compiler.js';
import { LocalStateBackend } from '../src/state/local.js';
import { ClusterSet } from '../src/cluster/cluster-set.js';
import { loadKubeconfig } from '../src/cluster/kubeconfig.js';
import { startSandbox, type Sandbox } from '../src/sandbox/launcher.js';
import { CLI, kdeckIn, run } from './support/run.js';
import { copySample } from './support/sample.js';
import { requireTmux, terminal } from './support/terminal.js';

const dir = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-policies-'));
const workspace = path.join(dir, 'konfig-sample');
const socket = path.join(dir, 'tmux.sock');
let sandbox: Sandbox;

const kdeck = (args: string[]) => kdeckIn(workspace, ['--kubeconfig', sandbox.kubeconfigPath, ...args]);
const kubectl = (args: string[]) =>
  run('kubectl', ['--kubeconfig', sandbox.kubeconfigPath, ...args], workspace, 60_000);

const { tmux } = terminal(socket);

/** Runs a kdeck command in a fresh tmux window and returns helpers to read and drive it. */
function inTerminal(name: string, args: string[]) {
  const exitFile = path.join(dir, `${name}.exit`);
  const quoted = args.map((a) => `'${a}'`).join(' ');
  const command = `cd '${workspace}' && '${process.execPath}' '${CLI}' --kubeconfig '${sandbox.kubeconfigPath}' ${quoted}; echo $? > '${exitFile}'; sleep 30`;
  tmux('new-session', '-d', '-x', '120', '-y', '30', '-s', name, command);
  const t = terminal(socket, name);
  const until = (what: string | RegExp, limitMs = 60_000) => t.until(what, limitMs);
  const exitCode = (limitMs = 60_000) => t.exitCode(exitFile, limitMs);
  return { screen: t.screen, until, exitCode, ctrlC: () => t.keys('C-c') };
}

/** The console's confirmation for a stack's plan: the console session, headless, on the same clusters and workspace. */
async function consoleConfirmation(stack: string, action: 'apply' | 'destroy') {
  const clusterSet = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath));
  const session = new ConsoleSession({
    dir: workspace,
    clusterSet,
    backend: new LocalStateBackend(workspace),
    compiler: new InlineCompiler(),
    contexts: [],
    readOnly: false,
    watch: false,
  });
  try {
    await session.start();
    const deadline = Date.now() + 120_000;
    for (;;) {
      const entry = session.store.get().stacks.find((s) => s.key === stack);
      if (entry?.plan.state === 'ok' && entry.changeSet) return confirmationFor(action, entry, session.store.get());
      if (Date.now() > deadline) throw new Error(`${stack} was not planned by the console`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await session.close();
  }
}

beforeAll(async () => {
  requireTmux();
  copySample(workspace);
  sandbox = await startSandbox({ clusters: 2, timings: { podStartMs: 200, readinessDelayMs: 1_500 } });
}, 60_000);

afterAll(async () => {
  try {
    tmux('kill-server');
  } catch {
    // no terminal was left running
  }
  await sandbox?.stop();
}, 30_000);

describe('production, the same on both faces', () => {
  it('asks for sandbox-b by name before nginx-example/prod changes, on the command line and in the console alike', async () => {
    const refused = await kdeck(['apply', '-y', '-w', 'appops/nginx-example/prod']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('the apply touches production (sandbox-b)');
    expect(refused.stderr).toContain('--confirm sandbox-b');
    expect(refused.stderr).not.toContain('internal error');
    expect((await kubectl(['--context', 'sandbox-b', 'get', 'ns', 'nginx-example'])).code).not.toBe(0);

    const console = await consoleConfirmation('nginx-example/prod', 'apply');
    expect(console).toMatchObject({ typed: 'sandbox-b', approval: { production: ['sandbox-b'] } });

    const wrongName = await kdeck(['apply', '-y', '--confirm', 'sandbox-a', '-w', 'appops/nginx-example/prod']);
    expect(wrongName.code).toBe(2);
    const confirmed = await kdeck(['apply', '--confirm', 'sandbox-b', '-w', 'appops/nginx-example/prod']);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect((await kubectl(['--context', 'sandbox-b', 'get', 'ns', 'nginx-example'])).code).toBe(0);
  }, 240_000);

  it('a stack that is not on production takes a plain --yes, and the console asks for a y', async () => {
    const r = await kdeck(['apply', '-y', '-w', 'appops/nginx-example/dev']);
    expect(r.code, r.stderr).toBe(0);
    const console = await consoleConfirmation('nginx-example/dev', 'destroy');
    expect(console).toMatchObject({ approval: { production: [] } });
    expect(console).not.toHaveProperty('typed');
  }, 240_000);
});

describe('fields another manager owns', () => {
  it('are refused by default on both faces, each saying how to take them back', async () => {
    const scaled = await kubectl([
      '--context',
      'sandbox-a',
      'scale',
      'deploy/nginx-example',
      '-n',
      'nginx-example-dev',
      '--replicas=3',
    ]);
    expect(scaled.code, scaled.stderr).toBe(0);
    const refused = await kdeck(['apply', '-y', '-w', 'appops/nginx-example/dev']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/fields another manager owns now \(Deployment\/nginx-example-dev\/nginx-example/);
    expect(refused.stderr).toContain('run the apply again with --force-conflicts');
    expect(refused.stderr).toContain('Nothing was changed.');

    const console = await consoleConfirmation('nginx-example/dev', 'apply');
    expect(console).toHaveProperty('refused');
    expect((console as { refused: string }).refused).toContain(':apply --force-conflicts');

    const forced = await kdeck(['apply', '-y', '--force-conflicts', '-w', 'appops/nginx-example/dev']);
    expect(forced.code, forced.stderr).toBe(0);
    const replicas = await kubectl([
      '--context',
      'sandbox-a',
      'get',
      'deploy/nginx-example',
      '-n',
      'nginx-example-dev',
      '-o',
      'jsonpath={.spec.replicas}',
    ]);
    expect(replicas.stdout).not.toBe('3');
  }, 240_000);
});

describe('Ctrl-C on a real terminal', () => {
  it('at the apply prompt ends with exit 130 and nothing changed, never an internal error', async () => {
    const t = inTerminal('prompt', ['apply', '-w', 'appops/guestbook/dev']);
    await t.until('Do you want to apply these changes? [yes/details/no]');
    t.ctrlC();
    const screen = await t.until('Interrupted before the apply started: nothing was changed.');
    expect(screen).not.toContain('internal error');
    expect(await t.exitCode()).toBe('130');
    expect((await kubectl(['--context', 'sandbox-a', 'get', 'ns', 'guestbook-dev'])).code).not.toBe(0);
  }, 120_000);

  it('during an interactive recovery pauses it and prints the resume command', async () => {
    // enough pods on sandbox-a that the run takes many batches, each waiting for readiness
    expect((await kdeck(['apply', '-y', '-w', 'appops/guestbook/dev'])).code).toBe(0);
    const nodes = await kubectl(['--context', 'sandbox-a', 'get', 'nodes', '-o', 'name']);
    const hosts = nodes.stdout
      .trim()
      .split('\n')
      .map((n) => n.replace('node/', ''));
    const t = inTerminal('recover', ['recover', 'runbooks/AppRecovery.k', '-D', `hosts=${hosts.join(',')}`]);
    await t.until('Run this recovery? [yes/no]');
    tmux('send-keys', '-t', 'recover', 'yes', 'Enter');
    // the live view, which holds the terminal in raw mode: Ctrl-C reaches it as a key
    await t.until('p pause · a abort');
    t.ctrlC();
    const screen = await t.until(/Paused\. Resume with: kdeck recover --resume \S+/);
    expect(screen).not.toContain('Recovery complete');
    expect(screen).not.toMatch(/internal error|Error:|at .*\.js:\d+/);
    expect(await t.exitCode()).toBe('130');
  }, 180_000);
});
