/**
 * Pod logs, as a kubelet serves them: the simulated container's lines (see
 * api/container-log.ts) selected by `previous`, `sinceSeconds`/`sinceTime`, `tailLines`,
 * `timestamps` and `limitBytes`; with `follow`, the stream stays open and carries each new line
 * until the container's run ends, the pod goes, or the client hangs up.
 */
import type { ServerResponse } from 'node:http';
import type { ApiContext } from '../api/context.js';
import {
  HEARTBEAT_MS,
  formatLine,
  logContainer,
  logOptions,
  runForLog,
  runLines,
  selectLines,
  type ContainerRunView,
  type LogOptions,
} from '../api/container-log.js';
import type { KubeObject } from '../api/object.js';

/** Cuts text to at most `limit` bytes (a kubelet counts bytes, not characters). */
function limited(text: string, limit: number | undefined): string {
  if (limit === undefined) return text;
  const b = Buffer.from(text, 'utf8');
  return b.length <= limit ? text : b.subarray(0, limit).toString('utf8');
}

export function podLog(pod: KubeObject, query: URLSearchParams, now: number): string {
  const c = logContainer(pod, query.get('container'));
  const opts = logOptions(query, now);
  const run = runForLog(pod, c, query.get('previous') === 'true');
  return limited(selectLines(runLines(run, now), opts).join(''), opts.limitBytes);
}

export function wantsFollow(query: URLSearchParams): boolean {
  return query.get('follow') === 'true' && query.get('previous') !== 'true';
}

/** The same run as `run`, read again from the pod's current status (undefined: it is gone). */
function sameRun(pod: KubeObject | undefined, c: Record<string, unknown>, run: ContainerRunView) {
  if (!pod) return undefined;
  try {
    const now = runForLog(pod, c, false);
    if (now.startedAt === run.startedAt) return now;
    const prev = runForLog(pod, c, true);
    return prev.startedAt === run.startedAt ? prev : undefined;
  } catch {
    return undefined;
  }
}

/** A client this far behind on a followed log is cut off, as a slow watcher is. */
const MAX_PENDING_BYTES = 1024 * 1024;

/**
 * Streams a followed log. Throws (before any byte is sent) the errors a plain read would: an
 * unknown container, one still waiting to start.
 */
export function followLog(
  res: ServerResponse,
  ctx: ApiContext,
  podKey: { resource: string; namespace: string; name: string },
  pod: KubeObject,
  query: URLSearchParams,
): void {
  const c = logContainer(pod, query.get('container'));
  const opts: LogOptions = logOptions(query, ctx.clock.now());
  let run = runForLog(pod, c, false);
  res.writeHead(200, {
    'Content-Type': 'text/plain',
    'Cache-Control': 'no-cache, private',
  });
  res.flushHeaders();
  let budget = opts.limitBytes ?? Infinity;
  let closed = false;
  let cancelTimer: (() => void) | undefined;
  let lastSent = -Infinity;

  const write = (text: string): void => {
    const out = limited(text, Number.isFinite(budget) ? budget : undefined);
    budget -= Buffer.byteLength(out);
    if (out !== '') res.write(out);
    if (budget <= 0 || res.writableLength > MAX_PENDING_BYTES) finish();
  };
  const first = runLines(run, ctx.clock.now());
  const initial = selectLines(first, opts);
  if (first.length > 0) lastSent = first[first.length - 1]!.at;
  write(initial.join(''));

  const unsubscribe = ctx.store.subscribe((e) => {
    if (e.resource !== podKey.resource) return;
    const m = e.object.metadata;
    if ((m.namespace ?? '') === podKey.namespace && m.name === podKey.name) tick();
  });

  function finish(): void {
    if (closed) return;
    closed = true;
    unsubscribe();
    cancelTimer?.();
    res.end();
  }

  function tick(): void {
    if (closed) return;
    const now = ctx.clock.now();
    const current = sameRun(ctx.store.get(podKey.resource, podKey.namespace, podKey.name), c, run);
    if (!current) return finish();
    run = current;
    const fresh = runLines(run, now).filter((l) => l.at > lastSent);
    if (fresh.length > 0) {
      lastSent = fresh[fresh.length - 1]!.at;
      write(fresh.map((l) => formatLine(l, opts.timestamps)).join(''));
    }
    if (run.ended) return finish();
    cancelTimer?.();
    const next = run.startedAt + (Math.floor((now - run.startedAt) / HEARTBEAT_MS) + 1) * HEARTBEAT_MS;
    cancelTimer = ctx.clock.after(Math.max(1, next - now), tick);
  }

  res.on('close', finish);
  res.on('error', finish);
  if (closed) return;
  tick();
}
