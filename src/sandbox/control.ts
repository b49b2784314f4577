/**
 * The control endpoint of a workspace's sandbox daemon, plain HTTP on loopback, and the calls a
 * kdeck process makes to it:
 *   GET  /healthz  which daemon answers (its instance id), how many hold it; no token needed
 *   GET  /hold     kept open for as long as the caller holds the sandbox (bearer token)
 *   POST /stop     stop now, state saved (bearer token)
 * A hold is an open TCP connection rather than a lease to renew: when its process dies, even by
 * SIGKILL, the kernel closes the connection and the daemon counts one holder fewer at once,
 * with no clock and no pid to trust.
 */
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ControlOptions {
  instance: string;
  token: string;
  /** Called after every hold that starts or ends, with how many remain. */
  onHolders(count: number): void;
  /** Called once the answer to a stop request has been sent. */
  onStop(): void;
  /** Whether the daemon is on its way out: health says so, and holds are refused. */
  stopping(): boolean;
}

export interface ControlServer {
  url: string;
  holders(): number;
  /** Ends every hold: their holders see the connection end. */
  endHolds(): void;
  /** Ends every hold and closes the endpoint. */
  close(): Promise<void>;
}

export interface Health {
  instance: string;
  pid: number;
  holders: number;
  /** Saving and stopping: wait for the process to end rather than attach or start another. */
  stopping: boolean;
}

function authorized(req: http.IncomingMessage, token: string): boolean {
  const given = Buffer.from(req.headers.authorization ?? '');
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export async function startControlServer(options: ControlOptions): Promise<ControlServer> {
  const holds = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const route = `${req.method ?? ''} ${new URL(req.url ?? '/', 'http://control').pathname}`;
    if (route === 'GET /healthz') {
      json(res, 200, {
        instance: options.instance,
        pid: process.pid,
        holders: holds.size,
        stopping: options.stopping(),
      } satisfies Health);
      return;
    }
    if (route !== 'GET /hold' && route !== 'POST /stop') {
      json(res, 404, { message: `no ${route} here` });
      return;
    }
    if (!authorized(req, options.token)) {
      json(res, 401, { message: 'the control token is missing or wrong' });
      return;
    }
    if (route === 'POST /stop') {
      res.on('finish', () => options.onStop());
      json(res, 200, { holders: holds.size });
      return;
    }
    if (options.stopping()) {
      json(res, 503, { message: 'the sandbox is stopping' });
      return;
    }
    holds.add(res);
    res.on('close', () => {
      if (holds.delete(res)) options.onHolders(holds.size);
    });
    // the first line tells the holder it is counted; nothing else is ever sent
    res.writeHead(200, { 'content-type': 'text/plain' }).write('held\n');
    options.onHolders(holds.size);
  });
  // a hold lasts as long as its holder wants: no idle timeouts on the daemon's side
  server.requestTimeout = 0;
  server.timeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  function endHolds(): void {
    for (const res of [...holds]) {
      holds.delete(res);
      res.end();
    }
  }
  return {
    url: `http://127.0.0.1:${port}`,
    holders: () => holds.size,
    endHolds,
    async close() {
      endHolds();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

// ---- the calls a kdeck process makes --------------------------------------------------------

interface Call {
  method: 'GET' | 'POST';
  path: string;
  token?: string;
  timeoutMs: number;
}

function request(control: string, call: Call): http.ClientRequest {
  const url = new URL(call.path, control);
  return http.request({
    method: call.method,
    hostname: url.hostname,
    port: url.port,
    path: url.pathname,
    // a connection of its own: a hold must not go back to a pool, a probe must not wait for one
    agent: false,
    headers: call.token ? { authorization: `Bearer ${call.token}` } : {},
    timeout: call.timeoutMs,
  });
}

/** A short request's JSON answer, or undefined when nothing (or something unexpected) answers in time. */
function ask<T>(control: string, call: Call): Promise<T | undefined> {
  return new Promise((resolve) => {
    const req = request(control, call);
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('error', () => resolve(undefined));
      res.on('end', () => {
        try {
          resolve(res.statusCode === 200 ? (JSON.parse(text) as T) : undefined);
        } catch {
          resolve(undefined);
        }
      });
    });
    req.end();
  });
}

/** Who answers at `control`, if anyone does within `timeoutMs`. */
export const health = (control: string, timeoutMs = 2_000) =>
  ask<Health>(control, { method: 'GET', path: '/healthz', timeoutMs });

/** Asks the daemon to stop; its answer says how many kdeck processes still held it. */
export const requestStop = (control: string, token: string, timeoutMs = 5_000) =>
  ask<{ holders: number }>(control, { method: 'POST', path: '/stop', token, timeoutMs });

export interface Hold {
  /** Resolves when the daemon ends the hold (it stopped) or the connection breaks. */
  readonly ended: Promise<void>;
  release(): Promise<void>;
}

/** Holds the daemon (it will not stop for idleness while held); undefined if it does not take the hold. */
export function hold(control: string, token: string, timeoutMs = 5_000): Promise<Hold | undefined> {
  return new Promise((resolve) => {
    const req = request(control, { method: 'GET', path: '/hold', token, timeoutMs });
    let settle: () => void = () => undefined;
    const ended = new Promise<void>((r) => (settle = r));
    req.on('timeout', () => req.destroy());
    req.on('error', () => {
      settle();
      resolve(undefined);
    });
    req.on('close', () => settle());
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        req.destroy();
        resolve(undefined);
        return;
      }
      // held from here on, for as long as the process wants: no timeout, and the open
      // connection must not keep a command that has finished from exiting
      req.setTimeout(0);
      req.socket?.unref();
      res.on('error', () => settle());
      res.resume();
      resolve({
        ended,
        async release() {
          req.destroy();
          await ended;
        },
      });
    });
    req.end();
  });
}
