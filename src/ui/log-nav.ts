/**
 * Where the user is in a log view: the feed it reads (owned by the view: closed when it
 * closes), wrapping, timestamps, the search, and how far back from the newest line it is
 * scrolled (0: at the end, where following shows new lines as they come).
 */
import type { LogFeed } from '../app/pods/log-feed.js';

export interface LogNav {
  feed: LogFeed;
  wrap: boolean;
  timestamps: boolean;
  search: string;
  /** Lines scrolled back from the newest. */
  back: number;
}

export type LogNavChange = Partial<Omit<LogNav, 'feed'>>;

export function openedLog(feed: LogFeed): LogNav {
  return { feed, wrap: false, timestamps: false, search: '', back: 0 };
}

export function changedLog(l: LogNav, change: LogNavChange): LogNav {
  return { ...l, ...change, back: Math.max(0, change.back ?? l.back) };
}
