/**
 * The HTTP/2 connection to one cluster, as client-go keeps one: every call and watch is a stream
 * of it, so a burst of calls opens no new connections (a TLS handshake each) and none waits for
 * another's answer. It is opened on first use, or just before (`dial`, while a stack compiles),
 * when the server offers HTTP/2 (ALPN), as an API server does; a server that offers only HTTP/1.1
 * is asked once, and the client keeps its pool of HTTP/1.1 connections for it. A connection the
 * server closed, or that failed, is opened again by the next call.
 */
import type { IncomingHttpHeaders } from 'node:http';
import http2 from 'node:http2';
import type https from 'node:https';
import tls from 'node:tls';

/** A request that got no answer: the socket's error code (or TIMEOUT), for the caller's retries. */
export class NetworkError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** One answer of the server. */
export interface Attempt {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** What the TLS connection takes from the kubeconfig's request options. */
export type TlsOptions = Pick<tls.ConnectionOptions, 'secureContext' | 'rejectUnauthorized' | 'servername'>;

/** A call's options as the kubeconfig filled them: TLS settings, headers, basic auth. */
type CallOptions = TlsOptions & Pick<https.RequestOptions, 'headers' | 'auth'>;

/** Receive windows: 4 MB per stream, 64 MB for the connection. */
const STREAM_WINDOW = 4 << 20;
const CONNECTION_WINDOW = 64 << 20;

/** How long a connection has to answer a ping, as client-go's PingTimeout. */
const PING_TIMEOUT_MS = 15_000;

/** A stream that ended without an answer: the connection went, so the call may be tried again. */
const RESET = 'ECONNRESET';

/** A call's failure to get an answer, as the caller's retries read it. */
export function networkError(e: unknown): NetworkError {
  if (e instanceof NetworkError) return e;
  const err = e as NodeJS.ErrnoException;
  // HTTP/2's own failures (a reset stream, a closed session) are a dropped connection to the caller
  const code = err.code?.startsWith('ERR_HTTP2') ? RESET : (err.code ?? 'ERROR');
  return new NetworkError(code, err.message ?? String(e));
}

export class H2Connection {
  private current?: Promise<H2Session | 'http1'>;
  /** Settles once the connection being opened is up and has sent its TLS hello, or has failed. */
  private helloSent?: Promise<void>;

  constructor(private readonly url: URL) {}

  /**
   * The open session, or undefined once the server has shown it speaks only HTTP/1.1. Rejects
   * with a NetworkError when the server cannot be reached within `timeoutMs`.
   */
  async open(options: CallOptions, timeoutMs: number): Promise<H2Session | undefined> {
    const pending = (this.current ??= this.connect(options, timeoutMs));
    let s: H2Session | 'http1';
    try {
      s = await pending;
    } catch (e) {
      if (this.current === pending) this.current = undefined;
      throw e;
    }
    if (s === 'http1') return undefined;
    if (s.open && s.context === options.secureContext) return s;
    if (this.current === pending) {
      this.current = undefined;
      s.close();
    }
    return this.open(options, timeoutMs);
  }

  /**
   * Starts opening the connection the next call will use; resolves once the TCP connection is up
   * and the TLS hello sent (or the attempt failed), so that the round trips pass while the caller
   * works, and never rejects: a connection that fails is the next call's to report, as it would
   * have been without this.
   */
  dial(options: CallOptions, timeoutMs: number): Promise<void> {
    // a connection this starts sets helloSent before open() returns; an open one has sent it long ago
    const opened = this.open(options, timeoutMs).then(
      () => undefined,
      () => undefined,
    );
    return this.helloSent ?? opened;
  }

  private connect(options: CallOptions, timeoutMs: number): Promise<H2Session | 'http1'> {
    return new Promise((resolve, reject) => {
      const socket = tls.connect({
        host: this.url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: Number(this.url.port || 443),
        secureContext: options.secureContext,
        rejectUnauthorized: options.rejectUnauthorized !== false,
        ...(options.servername ? { servername: options.servername } : {}),
        ALPNProtocols: ['h2', 'http/1.1'],
      });
      // a call's frames go out at once, not held back to be joined with the next write (Nagle)
      socket.setNoDelay(true);
      // TLS writes its hello as the socket connects, before this listener runs
      this.helloSent = new Promise((sent) => {
        socket.once('connect', sent);
        socket.once('close', sent);
      });
      const fail = (e: unknown) => {
        socket.destroy();
        reject(networkError(e));
      };
      socket.setTimeout(timeoutMs, () => fail(timedOut(timeoutMs)));
      socket.once('error', fail);
      socket.once('secureConnect', () => {
        socket.setTimeout(0);
        socket.off('error', fail);
        if (socket.alpnProtocol !== 'h2') {
          socket.destroy();
          resolve('http1');
          return;
        }
        // windows as large as client-go's: a burst of watch events or a large answer is not held up
        // waiting for the window to open again
        const session = http2.connect(this.url.origin, {
          createConnection: () => socket,
          settings: { initialWindowSize: STREAM_WINDOW },
        });
        session.setLocalWindowSize(CONNECTION_WINDOW);
        // a failed session fails its streams, which report it; the next call opens another
        session.on('error', () => undefined);
        session.unref();
        resolve(new H2Session(session, options.secureContext));
      });
    });
  }
}

/** An open HTTP/2 connection: its calls and watches are streams of it. */
export class H2Session {
  /** Streams open: the connection keeps the process alive only while it has some. */
  private streams = 0;

  constructor(
    private readonly session: http2.ClientHttp2Session,
    /** The TLS context it was opened with: other credentials need a connection of their own. */
    readonly context: tls.SecureContext | undefined,
  ) {}

  /** Whether calls can still be sent on it. */
  get open(): boolean {
    return !this.session.closed && !this.session.destroyed;
  }

  /** Lets the calls on it finish; new ones go to another connection. */
  close(): void {
    if (!this.session.closed) this.session.close();
  }

  /** A stream of the session that keeps the process alive until it closes. */
  stream(method: string, url: URL, options: CallOptions, endStream: boolean): http2.ClientHttp2Stream {
    let stream: http2.ClientHttp2Stream;
    try {
      stream = this.session.request(headersOf(method, url, options), { endStream });
    } catch (e) {
      throw networkError(e);
    }
    if (this.streams++ === 0) this.session.ref();
    stream.once('close', () => {
      if (--this.streams === 0 && !this.session.destroyed) this.session.unref();
    });
    return stream;
  }

  /** One call: its answer, or a NetworkError when it gets none (within `timeoutMs`). */
  request(method: string, url: URL, options: CallOptions, payload: string | undefined, timeoutMs: number) {
    return new Promise<Attempt>((resolve, reject) => {
      const stream = this.stream(method, url, options, payload === undefined);
      const chunks: Buffer[] = [];
      let answer: IncomingHttpHeaders | undefined;
      let settled = false;
      const fail = (e: unknown) => {
        if (settled) return;
        settled = true;
        reject(networkError(e));
      };
      stream.on('response', (h) => (answer = h));
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (!answer) return fail(closedEarly());
        settled = true;
        const { ':status': status, ...headers } = answer;
        resolve({ status: Number(status), headers, text: Buffer.concat(chunks).toString('utf8') });
      });
      stream.on('error', fail);
      // every stream closes: the error is made (its stack captured) only for one that got no answer
      stream.on('close', () => {
        if (!settled) fail(closedEarly());
      });
      stream.setTimeout(timeoutMs, () => {
        fail(timedOut(timeoutMs));
        stream.close(http2.constants.NGHTTP2_CANCEL);
        checkAlive(this.session);
      });
      if (payload !== undefined) stream.end(payload);
    });
  }
}

/**
 * After a call got no answer: a connection that does not answer a ping either is dead (a peer
 * gone without a word), and is dropped so the retries open a new one; one that does was only slow.
 */
function checkAlive(session: http2.ClientHttp2Session): void {
  if (session.destroyed) return;
  const dead = setTimeout(() => session.destroy(), PING_TIMEOUT_MS);
  dead.unref();
  session.ping((err) => {
    clearTimeout(dead);
    if (err) session.destroy();
  });
}

/** The headers of an HTTP/2 call from a request's options: names in lower case, basic auth as a header. */
function headersOf(method: string, url: URL, options: CallOptions): http2.OutgoingHttpHeaders {
  const out: http2.OutgoingHttpHeaders = { ':method': method, ':path': url.pathname + url.search };
  for (const [k, v] of Object.entries(options.headers ?? {})) out[k.toLowerCase()] = v as string;
  if (options.auth) out.authorization = `Basic ${Buffer.from(options.auth).toString('base64')}`;
  return out;
}

/** A call or connection that got no answer in time. */
export const timedOut = (ms: number) => new NetworkError('TIMEOUT', `no answer within ${ms / 1000} s`);

/** A stream that ended without an answer. */
const closedEarly = () => new NetworkError(RESET, 'the connection closed before the answer');
