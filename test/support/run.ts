/**
 * Running a program from a test without blocking the test's process, which may be serving the
 * sandbox the program talks to: output collected, killed by its handle past a bound.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The command line as it ships: the bundle (package.json `bin`). */
export const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'bin', 'kdeck.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Started {
  child: ChildProcess;
  /** Resolves when the program has exited and its output is complete. */
  done: Promise<Run>;
}

/** A program started and left running: the test can wait for it, or kill it by its handle. */
export function start(command: string, args: string[], cwd: string, limitMs: number): Started {
  const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1' } });
  const done = new Promise<Run>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(
        command === 'kubectl'
          ? new Error(`kubectl is needed for this test (it is part of the machine image): ${e.message}`)
          : e,
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
  return { child, done };
}

export const run = (command: string, args: string[], cwd: string, limitMs: number): Promise<Run> =>
  start(command, args, cwd, limitMs).done;

/** The built kdeck CLI, run in `cwd`. */
export const kdeckIn = (cwd: string, args: string[], limitMs = 120_000) =>
  run(process.execPath, [CLI, ...args], cwd, limitMs);

/** The built kdeck CLI, started in `cwd` and left running. */
export const startKdeck = (cwd: string, args: string[], limitMs = 120_000) =>
  start(process.execPath, [CLI, ...args], cwd, limitMs);
