/**
 * The entry point of a workspace's sandbox daemon, which kdeck spawns detached (its output goes
 * to `.kdeck/sandbox/daemon.log`):
 *   node dist/bin/daemon-main.js --dir WORKSPACE/.kdeck/sandbox [--idle-timeout-ms N] [--started-by ID]
 * It runs until it has been idle for the timeout, is asked to stop, or gets SIGTERM/SIGINT.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { serveWorkspaceSandbox } from './daemon.js';

const line = (text: string) => process.stdout.write(`${new Date().toISOString()} [${process.pid}] ${text}\n`);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string' },
      'idle-timeout-ms': { type: 'string' },
      'started-by': { type: 'string' },
    },
  });
  if (!values.dir) throw new Error('--dir (the workspace sandbox folder) is required');
  const idle = values['idle-timeout-ms'] === undefined ? undefined : Number(values['idle-timeout-ms']);
  if (idle !== undefined && !(Number.isFinite(idle) && idle >= 0))
    throw new Error(`--idle-timeout-ms must be a number of milliseconds, not ${values['idle-timeout-ms']}`);
  const daemon = await serveWorkspaceSandbox({
    dir: path.resolve(values.dir),
    ...(idle !== undefined ? { idleTimeoutMs: idle } : {}),
    ...(values['started-by'] ? { startedBy: values['started-by'] } : {}),
    log: line,
  });
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, () => void daemon.stop(sig));
  await daemon.stopped;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      line(`could not serve the workspace sandbox: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    },
  );
}
