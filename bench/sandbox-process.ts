/**
 * A sandbox in a process of its own, for the benches that time kdeck against it. A real cluster
 * runs apart from its clients; a sandbox in the bench's process shares one event loop with the
 * kdeck code under test, so each slows the other down and kdeck is charged for the cluster's
 * work. The child (sandbox-child.ts) starts the clusters with the options given, writes its
 * kubeconfig's path on stdout, and stops when its stdin closes (so it never outlives the bench).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SandboxOptions } from '../src/sandbox/launcher.js';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sandbox-child.js');
const START_LIMIT_MS = 60_000;
const STOP_LIMIT_MS = 10_000;

export interface SandboxProcess {
  readonly kubeconfigPath: string;
  /** Stops the clusters and waits for the process to exit (killed past a bound). */
  stop(): Promise<void>;
}

/** Options that travel as JSON: a clock or a snapshot of the caller's cannot. */
export type ProcessSandboxOptions = Omit<SandboxOptions, 'clock' | 'snapshot'>;

export async function startSandboxProcess(options: ProcessSandboxOptions): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [CHILD, JSON.stringify(options)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const kubeconfigPath = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the sandbox process did not start within ${START_LIMIT_MS / 1000} s:\n${out}`));
    }, START_LIMIT_MS);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /^kubeconfig (.+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox process exited (${code}) before it started:\n${out}`));
    });
  });
  return {
    kubeconfigPath,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_LIMIT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
