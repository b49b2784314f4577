/**
 * A pod's log as the API server serves it (`GET …/pods/NAME/log`), streamed line by line with
 * the options of kubectl logs: `follow`, `previous`, `container`, `tailLines`, `sinceSeconds` or
 * `sinceTime`, `timestamps`. Credentials and TLS come from the context through RestClient; each
 * stream has a connection of its own (a followed log holds it for as long as it is read, which
 * must not starve the pool other calls share) and closing the stream destroys it.
 */
import http from 'node:http';
import https from 'node:https';
import type { RestClient } from './rest.js';

export interface PodLogOptions {
  container?: string;
  follow?: boolean;
  previous?: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  /** RFC3339: lines older than this are left out. */
  sinceTime?: string;
  timestamps?: boolean;
}

/** How a stream ended: the server closed it, or refused it (with its message), or the reader closed it. */
export type PodLogEnd = { kind: 'ended' } | { kind: 'refused'; status: number; message: string } | { kind: 'closed' };

export interface PodLogStream {
  /** Stops reading and drops the connection; `done` then resolves to `closed`. */
  close(): void;
  readonly done: Promise<PodLogEnd>;
}

/** How many log streams are open now, across the process: the console's views must leave none behind. */
let openStreams = 0;
export const openPodLogStreams = (): number => openStreams;

export function podLogQuery(opts: PodLogOptions): Record<string, string | number | boolean | undefined> {
  return {
    container: opts.container,
    follow: opts.follow || undefined,
    previous: opts.previous || undefined,
    tailLines: opts.tailLines,
    sinceSeconds: opts.sinceSeconds,
    sinceTime: opts.sinceTime,
    timestamps: opts.timestamps || undefined,
  };
}

/** Opens the log of pod `namespace/name`; `onLines` gets whole lines (without their newline) as they come. */
export function streamPodLog(
  rest: RestClient,
  namespace: string,
  name: string,
  opts: PodLogOptions,
  onLines: (lines: string[]) => void,
): PodLogStream {
  const url = rest.url(
    `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/log`,
    podLogQuery(opts),
  );
  let request: http.ClientRequest | undefined;
  let closed = false;
  let settle: (end: PodLogEnd) => void = () => {};
  const done = new Promise<PodLogEnd>((resolve) => {
    let settled = false;
    settle = (end) => {
      if (settled) return;
      settled = true;
      openStreams--;
      resolve(end);
    };
  });
  openStreams++;
  rest.requestOptions(url, 'GET', { Accept: 'text/plain, */*', 'User-Agent': 'kdeck' }).then(
    (options) => {
      if (closed) return settle({ kind: 'closed' });
      const send = url.protocol === 'https:' ? https.request : http.request;
      request = send(url, { ...options, agent: false }, (res) => {
        const status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        if (status < 200 || status >= 300) {
          let text = '';
          res.on('data', (c: string) => (text += c));
          res.on('end', () => settle({ kind: 'refused', status, message: statusMessage(text) }));
          res.on('error', () => settle({ kind: 'refused', status, message: statusMessage(text) }));
          return;
        }
        let partial = '';
        res.on('data', (chunk: string) => {
          const parts = (partial + chunk).split('\n');
          partial = parts.pop() ?? '';
          if (parts.length > 0 && !closed) onLines(parts);
        });
        res.on('end', () => {
          if (partial !== '' && !closed) onLines([partial]);
          settle(closed ? { kind: 'closed' } : { kind: 'ended' });
        });
        res.on('error', () => settle(closed ? { kind: 'closed' } : { kind: 'ended' }));
        res.on('close', () => settle(closed ? { kind: 'closed' } : { kind: 'ended' }));
      });
      request.on('error', (e) =>
        settle(closed ? { kind: 'closed' } : { kind: 'refused', status: 0, message: `${rest.cluster}: ${e.message}` }),
      );
      request.end();
    },
    (e: unknown) =>
      settle({ kind: 'refused', status: 0, message: `${rest.cluster}: ${e instanceof Error ? e.message : String(e)}` }),
  );
  return {
    close() {
      if (closed) return;
      closed = true;
      if (request) request.destroy();
      else settle({ kind: 'closed' });
    },
    done,
  };
}

function statusMessage(text: string): string {
  try {
    const s = JSON.parse(text) as { message?: unknown };
    if (typeof s.message === 'string') return s.message;
  } catch {
    // not a Status: the text itself says it
  }
  return text.trim().slice(0, 300);
}

/**
 * Whether the cluster serves a pod subresource (`exec`, `portforward`), from its discovery of
 * the core API: the embedded sandbox serves `log` but runs no process, so it lists neither.
 */
export async function servesPodSubresource(rest: RestClient, sub: 'exec' | 'portforward'): Promise<boolean> {
  const body = (await rest.request({ method: 'GET', path: '/api/v1' })).body as
    { resources?: { name?: string }[] } | undefined;
  return (body?.resources ?? []).some((r) => r.name === `pods/${sub}`);
}
