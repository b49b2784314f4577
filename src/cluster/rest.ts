/**
 * Raw JSON over the Kubernetes REST API for one context, with what client-node leaves out: a
 * deadline on every call, retries with backoff and jitter on 429 and 5xx (honouring Retry-After)
 * and on dropped connections, errors that name the cluster, and watch streams. The kubeconfig's
 * ContextAccess supplies the credentials and TLS settings; responses stay plain JSON, exactly as
 * the server sent them, which the diff needs (client-node's typed models drop unknown fields and
 * turn times into Dates).
 */
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { Readable } from 'node:stream';
import tls from 'node:tls';
import { UserError } from '../diagnostics/user-error.js';
import {
  H2Connection,
  NetworkError,
  networkError,
  timedOut,
  type Attempt,
  type H2Session,
  type TlsOptions,
} from './h2-connection.js';
import type { ContextAccess } from './kubeconfig.js';

export interface RestRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  /** Per attempt; default 30 s. */
  timeoutMs?: number;
  /**
   * Statuses that are the server's answer rather than a reason to try again: an eviction's 429
   * is a PodDisruptionBudget's refusal, and its caller decides when to ask again.
   */
  answers?: readonly number[];
}

export interface RestResponse {
  status: number;
  body: unknown;
}

/** A Status error from the server: code, reason and message as Kubernetes wrote them. */
export class ApiError extends UserError {
  constructor(
    readonly cluster: string,
    readonly status: number,
    readonly reason: string,
    readonly detail: string,
    readonly request: string,
  ) {
    super(`cluster ${cluster}: ${request} failed: ${detail || reason} (${status}${reason ? ` ${reason}` : ''})`, 1);
  }
}

export class ClusterUnreachableError extends UserError {
  constructor(
    readonly cluster: string,
    server: string,
    cause: string,
  ) {
    super(
      `cluster ${cluster} (${server}) is unreachable: ${cause}; check that it is up and that the context is right (kubectl --context ${cluster} get ns)`,
      1,
    );
  }
}

export interface RetryPolicy {
  /** Tries of a request the server answers with 429 or 5xx: it is up and asks to be tried again. */
  attempts: number;
  /** Tries of a request that gets no answer: a cluster that is down is reported without a long wait. */
  unreachableAttempts: number;
  baseMs: number;
  maxMs: number;
  /** Waits; tests pass a simulated clock. */
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

/** client-go tries a request the server asks to retry up to 10 times (rest.Request maxRetries). */
export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 10,
  unreachableAttempts: 5,
  baseMs: 200,
  maxMs: 5_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

const RETRIED_STATUS = new Set([429, 500, 502, 503, 504]);
const RETRIED_NETWORK = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'TIMEOUT']);
const MAX_RETRY_AFTER_MS = 30_000;
/** How long a call waits for its answer unless it says otherwise. */
const CALL_TIMEOUT_MS = 30_000;
/** How long a watch waits for its connection (its stream then lasts as long as the server keeps it). */
const WATCH_CONNECT_MS = 30_000;
/**
 * How long `preconnect` waits for the connection's first bytes to leave: on loopback or a LAN
 * the TCP handshake is over well within it; a server further away goes on connecting meanwhile.
 */
const PRECONNECT_WAIT_MS = 5;

/** Full jitter backoff, or the server's Retry-After when it gave one. */
export function retryDelay(attempt: number, retryAfter: string | undefined, policy: RetryPolicy): number {
  const seconds = retryAfter !== undefined ? Number(retryAfter) : NaN;
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
  return Math.round(policy.random() * Math.min(policy.maxMs, policy.baseMs * 2 ** attempt));
}

/** How a watch stream ended: normally (resume it), with 410 Gone (list again), or broken (back off). */
export type StreamEnd = 'ended' | 'gone' | 'failed';

/** One event of a watch stream, as the server wrote it. */
export interface StreamEvent {
  type: string;
  object: unknown;
}

export class RestClient {
  readonly server: string;
  private agent?: http.Agent;
  /** HTTP/1.1 watches hold their connection for minutes: they get their own, so they never queue the calls. */
  private watchAgent?: http.Agent;
  /** The TLS context of the credentials last seen, and what it was made from. */
  private secure?: { from: readonly unknown[]; context: tls.SecureContext };
  /** Calls and watches over TLS go as streams of one HTTP/2 connection when the server offers it. */
  private readonly h2: H2Connection | undefined;

  constructor(
    readonly cluster: string,
    private readonly access: ContextAccess,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
  ) {
    this.server = access.server;
    const url = new URL(this.server);
    this.h2 = url.protocol === 'https:' ? new H2Connection(url) : undefined;
  }

  url(path: string, query: RestRequest['query'] = {}): URL {
    const url = new URL(this.server.replace(/\/$/, '') + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  /** Options for a raw request to this cluster: credentials and TLS from the kubeconfig. */
  async requestOptions(
    url: URL,
    method: string,
    headers: Record<string, string>,
  ): Promise<https.RequestOptions & TlsOptions> {
    // tls.connect takes the context https.request passes on, though RequestOptions does not name it
    const opts: https.RequestOptions & TlsOptions = {
      method,
      headers: { ...headers },
    };
    await this.access.authorize(opts);
    // one pool of kept-alive connections per cluster: a TLS handshake per call costs more than the call
    this.agent ??=
      url.protocol === 'https:'
        ? new https.Agent({ keepAlive: true, maxSockets: 32 })
        : new http.Agent({ keepAlive: true, maxSockets: 32 });
    opts.agent = this.agent;
    if (url.protocol === 'https:') opts.secureContext = this.secureContext(opts);
    return opts;
  }

  /**
   * One TLS context for every connection of the pool: without it each new connection builds its
   * own from the same CA and key, a fifth of what the client spends opening it. A plugin that
   * hands out new credentials gets a new context.
   */
  private secureContext(opts: https.RequestOptions): tls.SecureContext {
    const from = [opts.ca, opts.cert, opts.key, opts.pfx, opts.passphrase];
    if (this.secure?.from.every((x, i) => x === from[i])) return this.secure.context;
    const context = tls.createSecureContext(opts);
    this.secure = { from, context };
    return context;
  }

  /**
   * A watch: GET `path` with `watch=true`, each event of the stream handed to `onEvent` as it
   * arrives, until the server ends it, it breaks, or `signal` aborts (which ends it as 'ended').
   * An ERROR event with code 410 (the resourceVersion is too old) ends it as 'gone'.
   */
  async watch(
    path: string,
    query: RestRequest['query'],
    onEvent: (e: StreamEvent) => void,
    signal: AbortSignal,
  ): Promise<StreamEnd> {
    const url = this.url(path, { ...query, watch: true });
    const headers = { Accept: 'application/json', 'User-Agent': 'kdeck' };
    let opts: https.RequestOptions & TlsOptions;
    let h2: H2Session | undefined;
    try {
      opts = await this.requestOptions(url, 'GET', headers);
      h2 = await this.h2?.open(opts, WATCH_CONNECT_MS);
    } catch {
      return 'failed';
    }
    if (signal.aborted) return 'ended';
    return new Promise<StreamEnd>((resolve) => {
      let gone = false;
      let settled = false;
      const done = (how: StreamEnd) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', stop);
        resolve(signal.aborted ? 'ended' : gone ? 'gone' : how);
      };
      const follow = (status: number, body: Readable) => {
        if (status !== 200) {
          body.resume();
          gone = status === 410;
          done('failed');
          return;
        }
        // each line is found in the bytes and decoded alone: decoding the stream and splitting the
        // text copied every event twice more (an apply of 300 resources is sent 5 MB of events)
        let partial: Buffer[] = [];
        const line = (bytes: Buffer) => {
          const text = bytes.toString('utf8');
          const e = text.trim() ? (parseJson(text) as StreamEvent | undefined) : undefined;
          if (!e?.type) return;
          if (e.type === 'ERROR') gone ||= (e.object as { code?: number } | undefined)?.code === 410;
          else onEvent(e);
        };
        body.on('data', (chunk: Buffer) => {
          let start = 0;
          for (let end = chunk.indexOf(NEWLINE); end >= 0; end = chunk.indexOf(NEWLINE, start)) {
            const piece = chunk.subarray(start, end);
            line(partial.length ? Buffer.concat([...partial, piece]) : piece);
            partial = [];
            start = end + 1;
          }
          if (start < chunk.length) partial.push(chunk.subarray(start));
        });
        body.on('end', () => done('ended'));
        body.on('error', () => done('failed'));
        body.on('close', () => done('failed'));
      };
      let stop: () => void;
      if (h2) {
        let stream: ReturnType<H2Session['stream']>;
        try {
          stream = h2.stream('GET', url, opts, true);
        } catch {
          return done('failed');
        }
        stream.on('response', (h) => follow(Number(h[':status']), stream));
        stream.on('error', () => done('failed'));
        stream.on('close', () => done('failed'));
        stop = () => stream.close(http2.constants.NGHTTP2_CANCEL);
      } else {
        this.watchAgent ??= url.protocol === 'https:' ? new https.Agent() : new http.Agent();
        opts.agent = this.watchAgent;
        const send = url.protocol === 'https:' ? https.request : http.request;
        const r = send(url, opts, (res) => follow(res.statusCode ?? 0, res));
        r.on('error', () => done('failed'));
        r.end();
        stop = () => r.destroy();
      }
      signal.addEventListener('abort', stop, { once: true });
    });
  }

  /**
   * Opens the HTTP/2 connection that the first call will take, so that its handshakes' round trips
   * pass while the caller works (compiles a stack): resolves once the client's TLS hello is sent,
   * or after PRECONNECT_WAIT_MS, and never rejects (a failure is the first call's to report). A
   * plugin's credentials are left for that first call, which runs the plugin once.
   */
  async preconnect(): Promise<void> {
    if (!this.h2 || this.access.usesPlugin) return;
    const h2 = this.h2;
    const dialled = this.requestOptions(this.url('/'), 'GET', {}).then(
      (opts) => h2.dial(opts, CALL_TIMEOUT_MS),
      () => undefined,
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([dialled, new Promise((r) => (timer = setTimeout(r, PRECONNECT_WAIT_MS)))]);
    clearTimeout(timer);
  }

  private async once(req: RestRequest): Promise<Attempt> {
    const url = this.url(req.path, req.query);
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': 'kdeck' };
    if (payload !== undefined) {
      headers['Content-Type'] = req.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    const opts = await this.requestOptions(url, req.method, headers);
    const timeoutMs = req.timeoutMs ?? CALL_TIMEOUT_MS;
    const h2 = await this.h2?.open(opts, timeoutMs);
    if (h2) return h2.request(req.method, url, opts, payload, timeoutMs);
    return new Promise<Attempt>((resolve, reject) => {
      const send = url.protocol === 'https:' ? https.request : http.request;
      const r = send(url, opts, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', (e: NodeJS.ErrnoException) => reject(new NetworkError(e.code ?? 'ECONNRESET', e.message)));
      });
      r.setTimeout(timeoutMs, () => r.destroy(timedOut(timeoutMs)));
      r.on('error', (e) => reject(networkError(e)));
      if (payload !== undefined) r.write(payload);
      r.end();
    });
  }

  async request(req: RestRequest): Promise<RestResponse> {
    const what = `${req.method} ${req.path}`;
    for (let attempt = 0; ; attempt++) {
      const last = attempt === this.retry.attempts - 1;
      let result: Attempt;
      try {
        result = await this.once(req);
      } catch (e) {
        const code = e instanceof NetworkError ? e.code : 'ERROR';
        if (attempt < this.retry.unreachableAttempts - 1 && RETRIED_NETWORK.has(code)) {
          await this.retry.sleep(retryDelay(attempt, undefined, this.retry));
          continue;
        }
        throw new ClusterUnreachableError(
          this.cluster,
          this.server,
          e instanceof Error ? `${e.message}${code !== 'ERROR' ? ` (${code})` : ''}` : String(e),
        );
      }
      if (result.status >= 200 && result.status < 300) {
        return { status: result.status, body: result.text ? parseJson(result.text) : undefined };
      }
      if (!last && RETRIED_STATUS.has(result.status) && !req.answers?.includes(result.status)) {
        const retryAfter = result.headers['retry-after'];
        await this.retry.sleep(retryDelay(attempt, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, this.retry));
        continue;
      }
      const status = parseJson(result.text) as { reason?: string; message?: string } | undefined;
      throw new ApiError(
        this.cluster,
        result.status,
        status?.reason ?? '',
        status?.message ?? result.text.slice(0, 200),
        what,
      );
    }
  }
}

/** The byte that ends each event of a watch's stream ('\n': never part of a UTF-8 sequence). */
const NEWLINE = 0x0a;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
