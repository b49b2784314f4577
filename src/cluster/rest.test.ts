import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { selfSignedCertificate } from '../sandbox/http/self-signed.js';
import { UserError } from '../diagnostics/user-error.js';
import { ClusterSet } from './cluster-set.js';
import { loadKubeconfig } from './kubeconfig.js';
import { ApiError, ClusterUnreachableError, retryDelay, type RetryPolicy } from './rest.js';

/** A scripted API server: each request takes the next answer. */
let answers: { status: number; body: unknown; headers?: Record<string, string> }[] = [];
const seen: { method?: string; url?: string; auth?: string; contentType?: string; body: string }[] = [];
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    seen.push({
      method: req.method,
      url: req.url,
      auth: req.headers.authorization,
      contentType: req.headers['content-type'],
      body,
    });
    const a = answers.shift() ?? {
      status: 500,
      body: { kind: 'Status', reason: 'InternalError', message: 'no answer scripted' },
    };
    res.writeHead(a.status, { 'Content-Type': 'application/json', ...a.headers });
    res.end(JSON.stringify(a.body));
  });
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-kubeconfig-'));
const sleeps: number[] = [];
const policy: RetryPolicy = {
  attempts: 4,
  unreachableAttempts: 3,
  baseMs: 100,
  maxMs: 1_000,
  sleep: async (ms) => void sleeps.push(ms),
  random: () => 0.5,
};

/** A client of one TLS server, trusting `ca` (PEM) as the kubeconfig's certificate authority. */
function tlsClient(name: string, server: string, ca: string) {
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: t',
      'clusters:',
      `- name: t\n  cluster:\n    server: ${server}\n    certificate-authority-data: ${Buffer.from(ca).toString('base64')}`,
      'users:',
      '- name: t\n  user:\n    token: tok',
      'contexts:',
      '- name: t\n  context:\n    cluster: t\n    user: t',
    ].join('\n'),
  );
  return new ClusterSet(loadKubeconfig(file), policy).client('t');
}

/**
 * An HTTP/2 server over TLS on a free loopback port (offering HTTP/1.1 too with `allowHTTP1`),
 * a client that trusts its certificate, and `stop`, which ends its sessions and closes it.
 */
async function h2TestServer(
  name: string,
  handler: (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void,
  allowHTTP1 = false,
) {
  const identity = selfSignedCertificate(name);
  const server = http2.createSecureServer({ cert: identity.cert, key: identity.key, allowHTTP1 }, handler);
  const sessions: http2.ServerHttp2Session[] = [];
  server.on('session', (s) => sessions.push(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const client = tlsClient(`${name}.yaml`, `https://127.0.0.1:${port}`, identity.cert);
  const stop = async () => {
    for (const s of sessions) s.destroy();
    await new Promise((r) => server.close(r));
  };
  return { server, sessions, client, identity, stop };
}

function kubeconfigFile(
  name: string,
  contexts: { name: string; server: string; token?: string; namespace?: string }[],
  current?: string,
): string {
  const file = path.join(dir, name);
  const text = [
    'apiVersion: v1',
    'kind: Config',
    `current-context: ${current ?? '""'}`,
    'clusters:',
    ...contexts.map(
      (c) => `- name: ${c.name}\n  cluster:\n    server: ${c.server}\n    insecure-skip-tls-verify: true`,
    ),
    'users:',
    ...contexts.map((c) => `- name: ${c.name}-user\n  user:\n    token: ${c.token ?? 'secret'}`),
    'contexts:',
    ...contexts.map(
      (c) =>
        `- name: ${c.name}\n  context:\n    cluster: ${c.name}\n    user: ${c.name}-user${c.namespace ? `\n    namespace: ${c.namespace}` : ''}`,
    ),
  ].join('\n');
  fs.writeFileSync(file, text);
  return file;
}

let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('kubeconfig', () => {
  it('merges every KUBECONFIG path, the first file winning, and keeps each context apart', async () => {
    const a = kubeconfigFile('a.yaml', [{ name: 'sandbox-a', server: url, token: 'ta' }], 'sandbox-a');
    const b = kubeconfigFile(
      'b.yaml',
      [
        { name: 'sandbox-b', server: 'http://127.0.0.1:1', token: 'tb', namespace: 'team' },
        { name: 'sandbox-a', server: 'http://elsewhere' },
      ],
      'sandbox-b',
    );
    const kc = loadKubeconfig(undefined, { KUBECONFIG: [a, path.join(dir, 'missing.yaml'), b].join(path.delimiter) });
    expect(kc.current).toBe('sandbox-a');
    expect(kc.contexts).toEqual([
      { name: 'sandbox-a', cluster: 'sandbox-a', server: url, user: 'sandbox-a-user' },
      {
        name: 'sandbox-b',
        cluster: 'sandbox-b',
        server: 'http://127.0.0.1:1',
        user: 'sandbox-b-user',
        namespace: 'team',
      },
    ]);
    const options: { headers?: Record<string, string> } = {};
    await kc.configFor('sandbox-b').authorize(options);
    expect(options.headers?.Authorization).toBe('Bearer tb');
  });

  it('names the file and the next step when it is broken or missing', () => {
    const broken = path.join(dir, 'broken.yaml');
    fs.writeFileSync(broken, 'clusters: [\n');
    expect(() => loadKubeconfig(broken)).toThrow(UserError);
    expect(() => loadKubeconfig(broken)).toThrow(/the kubeconfig .*broken.yaml cannot be read/);
    expect(() => loadKubeconfig(path.join(dir, 'nope.yaml'))).toThrow(/does not exist; pass another with --kubeconfig/);
    const kc = loadKubeconfig(kubeconfigFile('one.yaml', [{ name: 'x', server: url }], 'x'));
    expect(() => kc.configFor('prod')).toThrow('there is no context prod');
  });
});

describe('REST client', () => {
  it('retries 429 and 5xx, honouring Retry-After, and sends the token', async () => {
    const set = new ClusterSet(
      loadKubeconfig(kubeconfigFile('r.yaml', [{ name: 'c', server: url, token: 'tok' }], 'c')),
      policy,
    );
    answers = [
      { status: 429, body: { kind: 'Status', reason: 'TooManyRequests' }, headers: { 'Retry-After': '2' } },
      { status: 503, body: { kind: 'Status', reason: 'ServiceUnavailable' } },
      { status: 200, body: { kind: 'Namespace', metadata: { name: 'x' } } },
    ];
    sleeps.length = 0;
    seen.length = 0;
    const res = await set.client('c').rest.request({ method: 'GET', path: '/api/v1/namespaces/x' });
    expect(res.body).toEqual({ kind: 'Namespace', metadata: { name: 'x' } });
    expect(sleeps).toEqual([2000, 100]);
    expect(seen.map((s) => s.auth)).toEqual(['Bearer tok', 'Bearer tok', 'Bearer tok']);
  });

  it('gives up after the last attempt with the Status the server sent', async () => {
    const set = new ClusterSet(loadKubeconfig(kubeconfigFile('g.yaml', [{ name: 'c', server: url }], 'c')), policy);
    answers = Array.from({ length: 4 }, () => ({
      status: 500,
      body: { kind: 'Status', reason: 'InternalError', message: 'etcd is sad' },
    }));
    const e = await set
      .client('c')
      .rest.request({ method: 'GET', path: '/api/v1/pods' })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).message).toBe('cluster c: GET /api/v1/pods failed: etcd is sad (500 InternalError)');
  });

  it('applies server-side with field manager kdeck and reports a cluster that is down by name', async () => {
    const set = new ClusterSet(
      loadKubeconfig(
        kubeconfigFile(
          's.yaml',
          [
            { name: 'c', server: url, namespace: 'team' },
            { name: 'down', server: 'http://127.0.0.1:1' },
          ],
          'c',
        ),
      ),
      policy,
    );
    answers = [
      {
        status: 200,
        body: {
          kind: 'APIResourceList',
          resources: [
            { name: 'configmaps', kind: 'ConfigMap', namespaced: true },
            { name: 'configmaps/status', kind: 'ConfigMap', namespaced: true },
          ],
        },
      },
      { status: 200, body: { kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'team', uid: 'u' } } },
    ];
    seen.length = 0;
    const applied = await set
      .client('c')
      .apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } }, { dryRun: true });
    expect(applied.metadata?.uid).toBe('u');
    expect(seen[1]).toMatchObject({
      method: 'PATCH',
      url: '/api/v1/namespaces/team/configmaps/cm?fieldManager=kdeck&dryRun=All',
      contentType: 'application/apply-patch+yaml',
    });
    sleeps.length = 0;
    const down = await set
      .client('down')
      .get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'x' })
      .catch((x: unknown) => x);
    expect(down).toBeInstanceOf(ClusterUnreachableError);
    expect((down as Error).message).toMatch(/^cluster down \(http:\/\/127.0.0.1:1\) is unreachable: .*ECONNREFUSED/);
    // no answer at all is tried fewer times than an answer asking for a retry
    expect(sleeps).toHaveLength(policy.unreachableAttempts - 1);
  });

  it('talks HTTP/1.1 to a server that offers only that, checked against the kubeconfig CA, one TLS context for all', async () => {
    const identity = selfSignedCertificate('rest-test');
    // answers wait until every request has come, so each request needs a connection of its own
    const held: http.ServerResponse[] = [];
    const versions: string[] = [];
    const tlsServer = https.createServer({ cert: identity.cert, key: identity.key }, (req, res) => {
      versions.push(req.httpVersion);
      held.push(res);
      if (held.length < 4) return;
      for (const r of held.splice(0)) r.end(JSON.stringify({ kind: 'Namespace', metadata: { name: 'x' } }));
    });
    await new Promise<void>((r) => tlsServer.listen(0, '127.0.0.1', r));
    const server = `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}`;
    const contexts = vi.spyOn(tls, 'createSecureContext');
    try {
      const trusted = tlsClient('tls.yaml', server, identity.cert);
      const answers = await Promise.all(
        [1, 2, 3, 4].map(() => trusted.rest.request({ method: 'GET', path: '/api/v1/namespaces/x' })),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect(versions).toEqual(['1.1', '1.1', '1.1', '1.1']);
      expect(contexts).toHaveBeenCalledTimes(1);
      // a server whose certificate the CA did not sign is refused, shared context or not
      const stranger = tlsClient('stranger.yaml', server, selfSignedCertificate('someone-else').cert);
      const refused = await stranger.rest
        .request({ method: 'GET', path: '/api/v1/namespaces/x' })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ClusterUnreachableError);
      expect((refused as Error).message).toMatch(/certificate/i);
    } finally {
      contexts.mockRestore();
      await new Promise((r) => tlsServer.close(r));
    }
  });

  it('sends the calls and watches of a cluster as streams of one HTTP/2 connection, opened again once closed', async () => {
    const versions: string[] = [];
    let connections = 0;
    const { server, sessions, client, stop } = await h2TestServer(
      'rest-h2',
      (req, res) => {
        versions.push(req.httpVersion);
        res.writeHead(200, { 'Content-Type': 'application/json' });
        if (req.url.includes('watch=true')) {
          res.write(`${JSON.stringify({ type: 'ADDED', object: { kind: 'Namespace', metadata: { name: 'w' } } })}\n`);
          res.end(`${JSON.stringify({ type: 'MODIFIED', object: { kind: 'Namespace', metadata: { name: 'w' } } })}\n`);
        } else {
          res.end(JSON.stringify({ kind: 'Namespace', metadata: { name: 'x' } }));
        }
      },
      true,
    );
    server.on('secureConnection', () => connections++);
    try {
      const answers = await Promise.all(
        [1, 2, 3, 4, 5, 6].map(() => client.rest.request({ method: 'GET', path: '/api/v1/namespaces/x' })),
      );
      expect(answers.map((a) => a.body)).toEqual(Array(6).fill({ kind: 'Namespace', metadata: { name: 'x' } }));
      const events: string[] = [];
      const end = await client.rest.watch(
        '/api/v1/namespaces',
        {},
        (e) => events.push(e.type),
        new AbortController().signal,
      );
      expect({ end, events }).toEqual({ end: 'ended', events: ['ADDED', 'MODIFIED'] });
      expect(versions).toEqual(Array(7).fill('2.0'));
      expect(connections).toBe(1);
      // the server ends the connection: the next call opens another
      await new Promise<void>((r) => sessions[0]!.close(r));
      await client.rest.request({ method: 'GET', path: '/api/v1/namespaces/x' });
      expect(connections).toBe(2);
    } finally {
      await stop();
    }
  });

  it('reads a watch whose events come cut anywhere, even inside a character, and ends it as gone on a 410', async () => {
    const events = [
      { type: 'ADDED', object: { kind: 'ConfigMap', metadata: { name: 'café' }, data: { note: 'naïve ✓' } } },
      { type: 'MODIFIED', object: { kind: 'ConfigMap', metadata: { name: 'café' }, data: { note: 'ünïcode ✓✓' } } },
    ];
    const bytes = Buffer.from(
      `${events.map((e) => JSON.stringify(e)).join('\n')}\n\n${JSON.stringify({ type: 'ERROR', object: { code: 410 } })}\n`,
    );
    // cut inside the first two-byte character, then in the middle of the second line
    const cuts = [bytes.indexOf('é') + 1, bytes.indexOf('ünïcode'), bytes.length];
    const { client, stop } = await h2TestServer('rest-watch-cuts', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const write = (i: number, from: number) => {
        if (i === cuts.length) return res.end();
        res.write(bytes.subarray(from, cuts[i]));
        setTimeout(() => write(i + 1, cuts[i]!), 5);
      };
      write(0, 0);
    });
    try {
      const seen: unknown[] = [];
      const end = await client.rest.watch('/api/v1/configmaps', {}, (e) => seen.push(e), new AbortController().signal);
      expect({ end, seen }).toEqual({ end: 'gone', seen: events });
    } finally {
      await stop();
    }
  });

  it('opens the connection ahead of the first call, which then takes it; a server that is down is the call’s to report', async () => {
    const seenByServer: string[] = [];
    const { server, client, identity, stop } = await h2TestServer('rest-preconnect', (req, res) => {
      seenByServer.push(`request ${req.url}`);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Namespace', metadata: { name: 'x' } }));
    });
    server.on('secureConnection', () => seenByServer.push('connection'));
    try {
      await client.rest.preconnect();
      // the handshake goes on without a call: the server has the connection before any request
      await vi.waitFor(() => expect(seenByServer).toEqual(['connection']), { timeout: 5_000 });
      await client.rest.request({ method: 'GET', path: '/api/v1/namespaces/x' });
      expect(seenByServer).toEqual(['connection', 'request /api/v1/namespaces/x']);
    } finally {
      await stop();
    }

    // nothing listens: preconnect says nothing, the call reports the cluster unreachable as ever
    const closed = https.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const down = tlsClient('preconnect-down.yaml', `https://127.0.0.1:${port}`, identity.cert);
    await expect(down.rest.preconnect()).resolves.toBeUndefined();
    sleeps.length = 0;
    const refused = await down.rest.request({ method: 'GET', path: '/api/v1/namespaces/x' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ClusterUnreachableError);
    expect((refused as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('backs off with full jitter, capped', () => {
    expect([0, 1, 2, 3, 10].map((n) => retryDelay(n, undefined, { ...policy, random: () => 1 }))).toEqual([
      100, 200, 400, 800, 1000,
    ]);
    expect(retryDelay(0, '120', policy)).toBe(30_000);
  });
});
