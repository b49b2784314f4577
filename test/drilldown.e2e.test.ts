/**
 * Drilling down in the console end to end, as a person meets it: the real `kdeck ui` in a
 * pseudo-terminal (tmux on a private socket, 100×30) against a sandbox over HTTP, on a copy of
 * konfig-sample whose nginx-example/dev Deployment runs a `:crashloop` image. From the stack's
 * Deployment: its pods crash-loop with restarts counted; `d` describes it with the BackOff
 * Warning of its pod; `y` shows it live without managedFields. Every wait is bounded; the tmux
 * server is killed by its socket and the sandbox stopped by its handle at the end.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/launcher.js';
import { CLI, kdeckIn } from './support/run.js';
import { copySample } from './support/sample.js';
import { requireTmux, terminal } from './support/terminal.js';

const dir = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-drilldown-'));
const workspace = path.join(dir, 'konfig-sample');
const socket = path.join(dir, 'tmux.sock');
const exitFile = path.join(dir, 'exit-code');
let sandbox: Sandbox;

const { tmux, keys, type, until, exitCode } = terminal(socket);

beforeAll(async () => {
  requireTmux();
  copySample(workspace);
  const main = path.join(workspace, 'appops/nginx-example/dev/main.k');
  const text = fs.readFileSync(main, 'utf8');
  const crashing = text.replace(/nginx-unprivileged:[^"]+/, 'nginx-unprivileged:crashloop');
  expect(crashing).not.toBe(text);
  fs.writeFileSync(main, crashing);
  // cluster time runs ten times faster, so a crash loop's back-off takes a second, not ten
  sandbox = await startSandbox({
    clusters: 2,
    timeScale: 0.1,
    timings: { podStartMs: 0, readinessDelayMs: 0, terminationMs: 0 },
  });
  const applied = await kdeckIn(dir, [
    '--kubeconfig',
    sandbox.kubeconfigPath,
    'apply',
    '-y',
    '--no-watch',
    '-w',
    path.join(workspace, 'appops/nginx-example/dev'),
  ]);
  expect(applied.code, applied.stdout + applied.stderr).toBe(0);
  const command = `'${process.execPath}' '${CLI}' ui '${workspace}' --kubeconfig '${sandbox.kubeconfigPath}'; echo $? > '${exitFile}'`;
  tmux('new-session', '-d', '-x', '100', '-y', '30', '-s', 'console', command);
}, 120_000);

afterAll(async () => {
  try {
    tmux('kill-server');
  } catch {
    // the server ends by itself once its session's command has ended
  }
  await sandbox?.stop();
}, 30_000);

describe('drilling down from a stack in kdeck ui', () => {
  it("lists a crash-looping Deployment's pods, describes it with the BackOff warning, and shows it live without managedFields", async () => {
    await until(/nginx-example\s/, 60_000);
    keys(':');
    type('stack nginx-example/dev');
    keys('Enter');
    await until('nginx-example/dev → sandbox-a');
    await until(/▸? ?Deployment\s+\S*nginx-example/, 60_000);

    keys('/');
    type('Deployment');
    keys('Enter');
    keys('Enter');
    await until('Pods of deployment/nginx-example in nginx-example-dev on sandbox-a');
    const pods = await until(/CrashLoopBackOff +[1-9]\d* \(\d+s ago\)/, 60_000);
    expect(pods).toMatch(/NAME +READY +STATUS +RESTARTS +AGE/);
    expect(pods).toMatch(/▸ nginx-example-\S+ +0\/1 +CrashLoopBackOff/);
    expect(pods.replace(/[│\s]+/g, ' ')).toContain(`--context sandbox-a -n nginx-example-dev get pods -o wide -l`);

    keys('Escape');
    await until(/▸ Deployment\s+\S*nginx-example/);
    keys('d');
    const top = await until(/Replicas: +\d+ desired/);
    expect(top).toContain('Describe deployment/nginx-example in nginx-example-dev on sandbox-a');
    // the events are below the fold: a search brings the first Warning into view
    keys('/');
    type('Warning');
    keys('Enter');
    await until(/Warning +BackOff +.*pod\/nginx-example-/, 60_000);

    keys('y');
    const yaml = await until('kind: Deployment');
    expect(yaml).toContain('YAML of deployment/nginx-example (managedFields hidden: m) in nginx-examp');
    expect(yaml).toContain('│metadata:');
    expect(yaml).not.toContain('managedFields:');
    keys('G');
    const bottom = await until(/lines \d+-\d+ of \d+/);
    expect(bottom).not.toContain('managedFields:');
    expect(bottom).not.toContain('manager:');

    keys('q');
    expect(await exitCode(exitFile)).toBe('0');
  }, 300_000);
});
