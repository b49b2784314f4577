/**
 * The console end to end, as a person meets it: the real `kdeck ui --sandbox` in a
 * pseudo-terminal (tmux on a private socket, 100×30), on a copy of konfig-sample. Start, open the
 * context picker, go to a stack, read a resource's diff, apply the stack, see it Healthy, quit.
 * Every wait is bounded; the tmux server is killed by its socket at the end.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, kdeckIn } from './support/run.js';
import { copySample } from './support/sample.js';
import { requireTmux, terminal } from './support/terminal.js';
import { daemonPid, stopDaemons } from './support/workspace-sandbox.js';

const dir = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-console-'));
const workspace = path.join(dir, 'konfig-sample');
const socket = path.join(dir, 'tmux.sock');
const exitFile = path.join(dir, 'exit-code');

const { tmux, screen, keys, type, until, exitCode } = terminal(socket);

beforeAll(() => {
  requireTmux();
  copySample(workspace);
  // from a shell that exports DEV=true for other tools, which to Ink means React DevTools
  const command = `DEV=true '${process.execPath}' '${CLI}' ui '${workspace}' --sandbox; echo $? > '${exitFile}'`;
  tmux('new-session', '-d', '-x', '100', '-y', '30', '-s', 'console', command);
});

afterAll(async () => {
  try {
    tmux('kill-server');
  } catch {
    // the server ends by itself once its session's command has ended
  }
  // the workspace's sandbox daemon outlives the console by its idle timeout
  await stopDaemons([daemonPid(workspace)]);
}, 30_000);

describe('kdeck ui in a terminal', () => {
  it('opens a stack, shows a diff, applies it, follows it to Healthy and quits', async () => {
    await until(/nginx-example\s/);
    await until(/dev\s+4 changes/, 60_000);

    // the context picker draws with ink-select-input, loaded apart from Ink's other views
    keys(':');
    type('ctx');
    keys('Enter');
    await until('The context for stacks that name no cluster:');
    expect(screen()).toMatch(/❯ sandbox-a\s+← now/);
    keys('Escape');
    // a key sent on the escape's heels would reach the console as alt+key
    await until(/KIND\s+NAME \(in batch-report-dev\)/);

    keys(':');
    type('stack nginx-example/dev');
    keys('Enter');
    await until('nginx-example/dev → sandbox-a');
    await until('4 create, 0 update, 0 delete, 0 unchanged');

    keys('/');
    type('Deployment');
    keys('Enter');
    // enter on a Deployment lists its pods; 3 is its diff
    keys('3');
    const diff = await until('Create apps/v1:Deployment:nginx-example-dev:nginx-example on sandbox-a');
    expect(diff).toContain('Diff (live → plan):');
    expect(diff).toMatch(/\+ spec:/);

    keys('a');
    await until('Apply nginx-example/dev?');
    keys('y');
    await until('apply nginx-example/dev done', 120_000);
    const applied = screen();
    expect(applied).toMatch(/4 done, 0 running, 0 failed/);
    // the health stream cuts a long id in its middle: the kind and the name stay
    expect(applied).toMatch(/Deployment\/\S*nginx-example\s+Healthy/);

    keys('1');
    // every resource is on sandbox-a, which the header names: the rows leave the cluster out
    await until(/▸ Deployment\s+\S*nginx-example\s+UnChanged\s+Healthy/, 30_000);
    expect(screen()).toContain('apps/v1:Deployment:nginx-example-dev:nginx-example');
    await until(/dev\s+unchanged/);
    expect(fs.existsSync(path.join(workspace, '.kdeck', 'state', 'nginx-example', 'dev', 'sandbox-a.json'))).toBe(true);

    keys('q');
    expect(await exitCode(exitFile)).toBe('0');
  }, 300_000);
});

describe('kdeck ui without a terminal', () => {
  it('exits 2 and names the commands that work without one; a bare kdeck shows the help', async () => {
    const ui = await kdeckIn(dir, ['ui', workspace]);
    expect(ui.code).toBe(2);
    expect(ui.stderr).toBe(
      'kdeck: kdeck ui is an interactive console and needs a terminal (stdin and stdout are not both a TTY here); without one, use the commands: kdeck ls (stacks), kdeck preview -d (the plan and its diff), kdeck apply --yes, kdeck destroy --yes, kdeck recover RUNBOOK.k --plan\n',
    );
    const bare = await kdeckIn(dir, []);
    expect(bare.code).toBe(0);
    expect(bare.stdout).toContain('Usage: kdeck');
    expect(bare.stdout).toMatch(/ui \[options\] \[workspace\] +the console/);
  });
});
