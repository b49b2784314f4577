/**
 * Where the time of `kdeck apply` goes, on the sandbox of the pace bench (pods start in 300 ms,
 * readiness 1 s, 12 nodes) and its generated stack (N Deployments × 2 replicas, each with a
 * ConfigMap and a Service it depends on): the moment each phase begins, in seconds from the
 * process's start (phase-hook.ts notes them from outside kdeck), and the API requests by kind,
 * median of the runs. With several `--cli` builds (this one and, say, main's) the runs alternate
 * between them, so a busy machine slows them alike.
 *
 * Usage: node dist/bench/apply-phases.js [--sizes 20,100] [--runs 3] [--cli dist/bin/kdeck.js,/work/main/dist/bin/kdeck.js]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClusterSet } from '../src/cluster/cluster-set.js';
import { loadKubeconfig } from '../src/cluster/kubeconfig.js';
import { startSandbox } from '../src/sandbox/launcher.js';
import { median, runBench } from './report.js';
import { generatedWorkspace } from './workspace.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const HOOK = path.join(HERE, 'phase-hook.js');
const STACK = 'apps/load/pace';
const RUN_LIMIT_MS = 600_000;
const PHASES = ['boot', 'modules', 'compiled', 'planned', 'firstApply', 'lastApply', 'lastHealthy', 'exit'] as const;

interface Phases {
  marks: Partial<Record<(typeof PHASES)[number], number>>;
  requests: Record<string, number>;
}

function argument(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}

/** One `kdeck apply --yes` with the hook preloaded; its phases. */
function applyOnce(cli: string, kubeconfig: string, root: string): Promise<Phases> {
  const file = path.join(os.tmpdir(), `kdeck-phases-${process.pid}-${Date.now()}.json`);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', HOOK, cli, '--kubeconfig', kubeconfig, '--context', 'sandbox-a', 'apply', '--yes', '-w', STACK],
      { cwd: root, env: { ...process.env, NO_COLOR: '1', KDECK_PHASES_FILE: file } },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0 || !out.includes('Apply complete!')) {
        reject(new Error(`kdeck apply exited ${code}:\n${out.slice(-2000)}`));
        return;
      }
      const phases = JSON.parse(fs.readFileSync(file, 'utf8')) as Phases;
      fs.rmSync(file, { force: true });
      resolve(phases);
    });
  });
}

async function main(): Promise<void> {
  const sizes = argument('sizes', '20,100').split(',').map(Number);
  const runs = Number(argument('runs', '3'));
  const clis = argument('cli', path.join(HERE, '..', 'bin', 'kdeck.js'))
    .split(',')
    .map((c) => path.resolve(c));
  const sandbox = await startSandbox({
    clusters: 1,
    nodes: 12,
    timings: { podStartMs: 300, readinessDelayMs: 1000, terminationMs: 0 },
  });
  const client = new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath)).client('sandbox-a');
  const s = (ms: number | undefined) => (ms === undefined ? '   -  ' : (ms / 1000).toFixed(2).padStart(6));
  try {
    console.log(`kdeck apply, phase starts in s from process start (readiness 1 s; median of ${runs})`);
    console.log(`  ${'build'.padEnd(34)} N     ${PHASES.map((p) => p.padStart(12)).join('')}`);
    for (const apps of sizes) {
      const seen = new Map<string, Phases[]>(clis.map((c) => [c, []]));
      for (let run = 0; run < runs; run++)
        for (const cli of clis) {
          const ns = `phases-${apps}-${run}-${clis.indexOf(cli)}`;
          const root = generatedWorkspace(apps, { stack: STACK, namespace: ns, replicas: 2 });
          try {
            seen.get(cli)!.push(await applyOnce(cli, sandbox.kubeconfigPath, root));
          } finally {
            fs.rmSync(root, { recursive: true, force: true });
          }
          const ref = { apiVersion: 'v1', kind: 'Namespace', name: ns };
          await client.delete(ref, 'Background');
          await client.waitGone(ref, 120_000);
        }
      for (const [cli, all] of seen) {
        const at = (p: (typeof PHASES)[number]) => {
          const xs = all.map((x) => x.marks[p]).filter((x): x is number => x !== undefined);
          return xs.length ? median(xs) : undefined;
        };
        const kinds = [...new Set(all.flatMap((x) => Object.keys(x.requests)))].sort();
        const requests = kinds.map((k) => `${k} ${median(all.map((x) => x.requests[k] ?? 0))}`).join(', ');
        const name = path.relative(process.cwd(), cli) || cli;
        console.log(
          `  ${name.slice(-34).padEnd(34)} ${String(apps).padEnd(5)} ${PHASES.map((p) => s(at(p)).padStart(12)).join('')}`,
        );
        console.log(`  ${''.padEnd(34)}       requests: ${requests}`);
      }
    }
  } finally {
    await sandbox.stop();
  }
}

runBench(main);
