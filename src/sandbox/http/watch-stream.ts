/**
 * One watch connection: HTTP 200 at once, then one JSON line per event — the current objects or
 * the events after the asked resourceVersion (or a 410 ERROR event when those are gone), then
 * live events, bookmarks when asked for — until the client leaves, its `timeoutSeconds` or the
 * server's own limit runs out, or a fault drops it.
 */
import type { ServerResponse } from 'node:http';
import { badRequest } from '../api/errors.js';
import type { Store } from '../api/store.js';
import { bookmarkLine, expiredLine, initialLines, watchLine, type WatchFilter } from '../api/watch.js';
import type { Faults } from '../faults.js';

export interface WatchLimits {
  /** How often a watch that allows bookmarks gets one. */
  bookmarkIntervalMs: number;
  /** The longest a watch stays open when the client sets no timeoutSeconds. */
  maxWatchSeconds: number;
  /** A client this far behind (bytes not yet sent) is cut off. */
  maxBufferedBytes: number;
}

export const DEFAULT_WATCH_LIMITS: WatchLimits = {
  bookmarkIntervalMs: 60_000,
  maxWatchSeconds: 1800,
  maxBufferedBytes: 16 * 1024 * 1024,
};

export interface WatchParams {
  resourceVersion?: string;
  allowBookmarks: boolean;
  sendInitialEvents: boolean;
  timeoutSeconds?: number;
}

export function watchParams(q: URLSearchParams): WatchParams {
  const p: WatchParams = {
    allowBookmarks: q.get('allowWatchBookmarks') === 'true',
    sendInitialEvents: q.get('sendInitialEvents') === 'true',
  };
  const rv = q.get('resourceVersion');
  if (rv !== null) p.resourceVersion = rv;
  const t = q.get('timeoutSeconds');
  if (t !== null) {
    const n = Number(t);
    if (!Number.isFinite(n) || n < 0) throw badRequest(`timeoutSeconds: Invalid value: "${t}"`);
    p.timeoutSeconds = n;
  }
  return p;
}

/** Opens the stream. `resume` is the parsed resourceVersion (undefined: start from the current objects). */
export function serveWatch(
  res: ServerResponse,
  store: Store,
  faults: Faults,
  filter: WatchFilter,
  params: WatchParams,
  resume: number | undefined,
  limits: WatchLimits,
  /** Rewrites each event line (as a Table, for kubectl get -w). */
  mapLine: (line: string) => string = (l) => l,
): void {
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Transfer-Encoding': 'chunked',
  });
  res.flushHeaders();
  let pending: string[] = [];
  let flushScheduled = false;
  let sent = 0;
  let closed = false;
  let paused = faults.current.unresponsive;

  const flush = () => {
    flushScheduled = false;
    if (closed || paused || pending.length === 0) return;
    res.write(pending.join(''));
    pending = [];
    if (res.writableLength > limits.maxBufferedBytes) close('reset');
  };
  const send = (line: string, isEvent = true) => {
    // a silenced watch drops its events: it ends when the cluster answers again, and the client
    // resumes from the last resourceVersion it saw
    if (closed || paused) return;
    if (!isEvent) {
      pending.push(line);
      return schedule();
    }
    pending.push(mapLine(line));
    sent++;
    schedule();
    const dropAfter = faults.current.watchDropAfterEvents;
    if (dropAfter !== undefined && sent >= dropAfter) {
      const mode = faults.current.watchDropMode;
      if (mode === 'expire') pending.push(expiredLine(store.resourceVersion, store.resourceVersion));
      flush();
      close(mode === 'reset' ? 'reset' : 'end');
    }
  };

  function schedule(): void {
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(flush);
  }

  const unsubscribe = store.subscribe((e) => {
    const line = watchLine(filter, e);
    if (line !== undefined) send(line);
  });
  let endTimer: NodeJS.Timeout | undefined;
  let bookmarkTimer: NodeJS.Timeout | undefined;
  const stopFaults = faults.onChange(() => {
    const now = faults.current.unresponsive;
    // a cluster that answers again ends its silenced watches cleanly; clients resume from their RV
    if (paused && !now) close('end');
    paused = now;
  });

  function close(how: 'end' | 'reset'): void {
    if (closed) return;
    closed = true;
    unsubscribe();
    stopFaults();
    clearTimeout(endTimer);
    clearTimeout(bookmarkTimer);
    if (how === 'reset') res.destroy();
    else res.end();
  }

  // the response closes when the client goes (the request's own 'close' only means its body was read)
  res.on('close', () => close('end'));
  res.on('error', () => close('reset'));

  if (resume !== undefined) {
    const replay = store.eventsAfter(resume);
    if (replay === 'expired') {
      pending.push(expiredLine(resume, store.oldestResumableRv));
      flush();
      close('end');
      return;
    }
    for (const e of replay) {
      const line = watchLine(filter, e);
      if (line !== undefined) send(line);
    }
  } else {
    for (const line of initialLines(store, filter)) send(line);
  }
  if (params.sendInitialEvents && params.allowBookmarks) send(bookmarkLine(filter, store.resourceVersion, true), false);
  if (closed) return;

  const seconds = Math.min(params.timeoutSeconds ?? limits.maxWatchSeconds, limits.maxWatchSeconds);
  endTimer = setTimeout(() => {
    flush();
    close('end');
  }, seconds * 1000);
  endTimer.unref();
  if (params.allowBookmarks) {
    const tick = () => {
      send(bookmarkLine(filter, store.resourceVersion), false);
      bookmarkTimer = setTimeout(tick, limits.bookmarkIntervalMs);
      bookmarkTimer.unref();
    };
    bookmarkTimer = setTimeout(tick, limits.bookmarkIntervalMs);
    bookmarkTimer.unref();
  }
}
