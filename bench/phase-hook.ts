/**
 * Preloaded (`node --import`) by apply-phases.ts into `kdeck apply`: notes, in ms from the
 * process's start (performance.timeOrigin), when each phase of the run began, and writes them
 * as JSON to the file KDECK_PHASES_FILE names when the process exits. It watches the process
 * from outside (file reads, HTTP requests, lines on stdout), so kdeck itself carries no timing code:
 * - modules: the first read of a file of the workspace (everything before it is loading code);
 * - compiled: the first HTTP request (the stack compiled, its lock taken, the plan starting);
 * - planned: the first line on stdout (the change table);
 * - firstApply / lastApply: the first and last server-side apply sent (a PATCH that is no dry run);
 * - lastHealthy: the last resource reported done (a ✓ line);
 * - exit: the process exiting.
 * It also counts the requests by what they are, to show where the API calls go.
 */
import fs from 'node:fs';
import path from 'node:path';
import { onRequest } from './request-hook.js';

const target = process.env.KDECK_PHASES_FILE;
if (target) {
  const marks: Record<string, number> = { boot: performance.now() };
  const requests: Record<string, number> = {};
  const first = (name: string) => (marks[name] ??= performance.now());
  const root = process.cwd() + path.sep;

  // the workspace's first file read ends the loading of code (node_modules and dist are not in it)
  for (const name of ['readFileSync', 'existsSync', 'statSync'] as const) {
    const original = fs[name] as (...args: unknown[]) => unknown;
    (fs as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      if (marks.modules === undefined && typeof args[0] === 'string' && path.resolve(args[0]).startsWith(root))
        first('modules');
      return original.apply(fs, args);
    };
  }

  onRequest((method, requestPath) => {
    first('compiled');
    const url = new URL(requestPath, 'http://x');
    const kind =
      method === 'PATCH'
        ? url.searchParams.get('dryRun')
          ? 'dry-run apply'
          : 'apply'
        : method === 'GET' && url.searchParams.get('watch')
          ? 'watch'
          : method;
    requests[kind] = (requests[kind] ?? 0) + 1;
    if (kind === 'apply') {
      first('firstApply');
      marks.lastApply = performance.now();
    }
  });

  const write = process.stdout.write.bind(process.stdout) as (...args: unknown[]) => boolean;
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    first('planned');
    if (String(chunk).includes('✓')) marks.lastHealthy = performance.now();
    return write(chunk, ...rest);
  }) as typeof process.stdout.write;

  process.on('exit', () => {
    marks.exit = performance.now();
    fs.writeFileSync(target, JSON.stringify({ marks, requests }));
  });
}
