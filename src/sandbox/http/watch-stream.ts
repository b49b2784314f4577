/**
 * One watch connection: HTTP 200 at once, then one JSON line per event — the current objects or
 * the events after the asked resourceVersion (or a 410 ERROR event when those are gone), then
 * live events, bookmarks when asked for — until the client leaves, its `timeoutSeconds` or the
 * server's own limit runs out, or a fault drops it.
 */
import type { ServerResponse } from 'node:http';
import { badRequest } from '../api/errors.js';
import type { Store } from '../api/store.js';
import {
  bookmarkLine,
  eventLine,
  expectLine,
  expiredLine,
  forgetLine,
  initialLines,
  watchEvent,
  type WatchEvent,
  type WatchFilter,
} from '../api/watch.js';
import type { Faults } from '../faults.js';
import { cut } from './cut.js';

export interface WatchLimits {
  /** How often a watch that allows bookmarks gets one. */
  bookmarkIntervalMs: number;
  /** The longest a watch stays open when the client sets no timeoutSeconds. */
  maxWatchSeconds: number;
  /** A client this far behind (bytes of live events its socket has not taken) is dropped. */
  maxBufferedBytes: number;
}

/** Lines are written in batches of about this size, so many small events cost few writes. */
const BATCH_BYTES = 256 * 1024;
/** How long a dropped watcher's last bytes may take to leave before its connection is cut. */
const OVERFLOW_GRACE_MS = 5_000;

export const DEFAULT_WATCH_LIMITS: WatchLimits = {
  bookmarkIntervalMs: 60_000,
  maxWatchSeconds: 1800,
  maxBufferedBytes: 8 * 1024 * 1024,
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
  });
  res.flushHeaders();
  // Lines wait here until the socket takes them: the socket holds at most about one batch, and
  // the strings queued are mostly shared with the store's history and the other watchers, so a
  // client that stops reading costs little until its queue passes the limit and it is dropped.
  const queue: string[] = [];
  let queuedBytes = 0;
  /**
   * Live events not made into lines yet, all after `queue`: a write's JSON is made when the
   * stream is next flushed, not inside the write, so a burst of writes (a controller's
   * reconciles) is not held up by serialising each one for every watcher as it happens.
   */
  const unwritten: WatchEvent[] = [];
  /** Bytes of the initial ADDED events still queued: a big first list is not falling behind. */
  let initialBytes = 0;
  let waitingDrain = false;
  let flushScheduled = false;
  let sent = 0;
  let closed = false;
  let paused = faults.current.unresponsive;

  const flush = () => {
    flushScheduled = false;
    if (closed || paused) return;
    writeOut();
    while (queue.length > 0 && !waitingDrain) {
      // take lines from the front by count, then drop them at once: shifting one by one is slow on a long queue
      let size = 0;
      let n = 0;
      while (n < queue.length && (n === 0 || size + queue[n]!.length <= BATCH_BYTES)) size += queue[n++]!.length;
      const batch = queue.splice(0, n);
      queuedBytes -= size;
      initialBytes = Math.max(0, initialBytes - size);
      if (!res.write(batch.join(''))) {
        waitingDrain = true;
        res.once('drain', () => {
          waitingDrain = false;
          flush();
        });
      }
    }
  };
  /** Makes the unwritten events into lines, at the end of the queue. */
  const writeOut = () => {
    for (const w of unwritten) {
      const line = mapLine(eventLine(filter, w));
      queue.push(line);
      queuedBytes += line.length;
    }
    unwritten.length = 0;
  };
  /** Lets go of the events that will not be made into lines (the watch is dropped). */
  const dropUnwritten = () => {
    for (const w of unwritten) forgetLine(w);
    unwritten.length = 0;
  };
  const enqueue = (line: string, initial = false) => {
    writeOut();
    queue.push(line);
    queuedBytes += line.length;
    if (initial) initialBytes += line.length;
  };
  // a silenced watch drops its events (both senders below): it ends when the cluster answers
  // again, and the client resumes from the last resourceVersion it saw
  const send = (line: string, isEvent = true, initial = false) => {
    if (closed || paused) return;
    if (!isEvent) {
      enqueue(line);
      return schedule();
    }
    enqueue(mapLine(line), initial);
    sentOne();
  };
  /** A live event: made into its line at the next flush, or at once for a client that is behind. */
  const sendLive = (event: WatchEvent) => {
    if (closed || paused) return;
    expectLine(event);
    if (waitingDrain) enqueue(mapLine(eventLine(filter, event)));
    else unwritten.push(event);
    sentOne();
  };
  const sentOne = () => {
    sent++;
    // a watcher that falls this far behind is closed, as the API server closes one whose buffer
    // is full; the client resumes or lists again, and nobody else waits for it
    if (queuedBytes - initialBytes > limits.maxBufferedBytes) return overflow();
    schedule();
    const dropAfter = faults.current.watchDropAfterEvents;
    if (dropAfter !== undefined && sent >= dropAfter) {
      const mode = faults.current.watchDropMode;
      if (mode === 'expire') enqueue(expiredLine(store.resourceVersion, store.resourceVersion));
      flush();
      close(mode === 'reset' ? 'reset' : 'end');
    }
  };

  function schedule(): void {
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(flush);
  }

  /** Ends the stream after what the socket already holds; a client that never reads it is cut. */
  function overflow(): void {
    queue.length = 0;
    dropUnwritten();
    queuedBytes = 0;
    initialBytes = 0;
    close('end');
    const timer = setTimeout(() => cut(res), OVERFLOW_GRACE_MS);
    timer.unref();
    res.once('finish', () => clearTimeout(timer));
    res.once('close', () => clearTimeout(timer));
  }

  const unsubscribe = store.subscribe((e) => {
    const event = watchEvent(filter, e);
    if (event !== undefined) sendLive(event);
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
    if (how === 'reset') {
      dropUnwritten();
      cut(res);
    } else {
      // what was queued goes out before the end (an overflow has emptied the queue first)
      writeOut();
      if (queue.length > 0 && !paused && !res.destroyed) res.write(queue.join(''));
      queue.length = 0;
      res.end();
    }
  }

  // the response closes when the client goes (the request's own 'close' only means its body was read)
  res.on('close', () => close('end'));
  res.on('error', () => close('reset'));

  if (resume !== undefined) {
    const replay = store.eventsAfter(resume);
    if (replay === 'expired') {
      enqueue(expiredLine(resume, store.oldestResumableRv));
      flush();
      close('end');
      return;
    }
    // a replay is a known, finite backlog, like the initial list
    for (const e of replay) {
      const event = watchEvent(filter, e);
      if (event === undefined) continue;
      expectLine(event);
      send(eventLine(filter, event), true, true);
    }
  } else {
    for (const line of initialLines(store, filter)) send(line, true, true);
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
