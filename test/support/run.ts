/**
 * Running a program from a test without blocking the test's process, which may be serving the
 * sandbox the program talks to: output collected, killed by its handle past a bound.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function run(command: string, args: string[], cwd: string, limitMs: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(command === 'kubectl' ? new Error(`kubectl is needed for this test (it is part of the machine image): ${e.message}`) : e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The built kdeck CLI, run in `cwd`. */
export const kdeckIn = (cwd: string, args: string[], limitMs = 120_000) => run(process.execPath, [CLI, ...args], cwd, limitMs);
