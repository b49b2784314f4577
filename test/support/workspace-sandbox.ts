/**
 * The sandbox daemons a test makes kdeck start (one per workspace copy, detached, outliving the
 * command that started it): found through the workspace's registry and stopped by pid at the
 * end, bounded, so no test leaves one running for its idle timeout.
 */
import fs from 'node:fs';
import path from 'node:path';

export const registryFile = (workspace: string) => path.join(workspace, '.kdeck', 'sandbox', 'daemon.json');

/** The pid of the daemon the workspace's registry names, if there is one. */
export function daemonPid(workspace: string): number | undefined {
  try {
    const pid = (JSON.parse(fs.readFileSync(registryFile(workspace), 'utf8')) as { pid?: unknown }).pid;
    return typeof pid === 'number' ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the process runs (a zombie does not: nothing may reap an orphan here). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

/** Waits (at most `limitMs`) until the process has ended; whether it has. */
export async function ended(pid: number, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** Stops these daemons by pid: SIGTERM (they save their state), then SIGKILL past 10 s. */
export async function stopDaemons(pids: Iterable<number | undefined>): Promise<void> {
  await Promise.all(
    [...new Set(pids)].map(async (pid) => {
      if (pid === undefined || !alive(pid)) return;
      process.kill(pid, 'SIGTERM');
      if (!(await ended(pid, 10_000))) process.kill(pid, 'SIGKILL');
    }),
  );
}
