/**
 * Where the user is in a log view: the feed it reads (owned by the view: closed when it
 * closes), wrapping, timestamps, the search, and how far back from the newest line it is
 * scrolled (0: at the end, where following shows new lines as they come). Scrolled back, the
 * view stays on the lines it shows while new ones arrive below, as a pager does.
 */
import type { LogBuffer } from '../app/pods/log-buffer.js';
import type { LogFeed } from '../app/pods/log-feed.js';

export interface LogNav {
  feed: LogFeed;
  wrap: boolean;
  timestamps: boolean;
  search: string;
  /** Lines scrolled back from the newest, when the scroll was made. */
  back: number;
  /** How many lines the feed had taken in (dropped ones too) when `back` was set. */
  seen: number;
}

export type LogNavChange = Partial<Omit<LogNav, 'feed'>>;

export function openedLog(feed: LogFeed): LogNav {
  return { feed, wrap: false, timestamps: false, search: '', back: 0, seen: 0 };
}

export function changedLog(l: LogNav, change: LogNavChange): LogNav {
  return { ...l, ...change, back: Math.max(0, change.back ?? l.back) };
}

const taken = (b: LogBuffer) => b.dropped + b.lines.length;

/** Lines back from the newest now: what was scrolled back, plus every line that came in since. */
export function backNow(l: LogNav, buffer: LogBuffer): number {
  if (l.back === 0) return 0;
  return Math.min(Math.max(0, buffer.lines.length - 1), l.back + taken(buffer) - l.seen);
}

/** Scrolled `by` lines (positive: back, to older lines) from where the view is now. */
export function scrolledLog(l: LogNav, buffer: LogBuffer, by: number): LogNavChange {
  const back = Math.min(Math.max(0, buffer.lines.length - 1), Math.max(0, backNow(l, buffer) + by));
  return { back, seen: taken(buffer) };
}
