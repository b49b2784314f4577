/**
 * `node dist/bench/watch-pressure.js`: the sandbox under clients that stop reading.
 * Starts `kdeck sandbox` (two clusters) as a child process, opens 200 watches on ConfigMaps that
 * never read a byte, writes 200 ConfigMaps of 100 KB, and meanwhile times `kubectl get ns` once
 * a second. Reports the server's peak RSS, the slowest `kubectl get ns`, and how many of the
 * stalled watches the server dropped. Bar: RSS < 800 MB, kubectl < 5 s throughout.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const WATCHERS = Number(process.env.WATCHERS ?? 200);
const WRITES = Number(process.env.WRITES ?? 200);
const OBJECT_BYTES = 100 * 1024;

interface Target {
  host: string;
  port: number;
  token: string;
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+([0-9]+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

async function startServer(kubeconfig: string): Promise<ChildProcess> {
  const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'kdeck.js');
  const child = spawn(process.execPath, [cli, 'sandbox', '--kubeconfig', kubeconfig], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
  while (!out.includes('Press Ctrl-C')) {
    if (Date.now() > deadline) throw new Error('the sandbox did not start within 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return child;
}

function targetOf(kubeconfig: string): Target {
  const doc = YAML.parse(fs.readFileSync(kubeconfig, 'utf8')) as {
    'current-context': string;
    contexts: { name: string; context: { cluster: string; user: string } }[];
    clusters: { name: string; cluster: { server: string } }[];
    users: { name: string; user: { token: string } }[];
  };
  const ctx = doc.contexts.find((c) => c.name === doc['current-context'])!.context;
  const server = new URL(doc.clusters.find((c) => c.name === ctx.cluster)!.cluster.server);
  return {
    host: server.hostname,
    port: Number(server.port),
    token: doc.users.find((u) => u.name === ctx.user)!.user.token,
  };
}

function request(t: Target, method: string, p: string, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: t.host,
        port: t.port,
        method,
        path: p,
        rejectUnauthorized: false,
        headers: {
          Authorization: `Bearer ${t.token}`,
          'Content-Type': 'application/json',
          ...(body ? { 'Content-Length': Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

interface Stalled {
  /** Starts reading again: what is left of the stream, and its end if the server closed it. */
  resume(): void;
  ended: boolean;
}

/** A watch that reads nothing after the headers, until told to. */
function stalledWatch(t: Target): Stalled {
  const w: Stalled = { ended: false, resume: () => undefined };
  const req = https.request(
    {
      host: t.host,
      port: t.port,
      path: '/api/v1/namespaces/default/configmaps?watch=true',
      rejectUnauthorized: false,
      headers: { Authorization: `Bearer ${t.token}` },
    },
    (res) => {
      res.pause();
      const done = () => (w.ended = true);
      res.on('end', done);
      res.on('error', done);
      res.on('aborted', done);
      res.socket.on('close', done);
      w.resume = () => res.resume();
    },
  );
  req.on('error', () => (w.ended = true));
  req.end();
  return w;
}

function kubectlGetNs(kubeconfig: string): number {
  const start = performance.now();
  const r = spawnSync('kubectl', ['--kubeconfig', kubeconfig, 'get', 'ns', '--request-timeout=20s'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  const ms = performance.now() - start;
  return r.status === 0 ? ms : Infinity;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-watch-pressure-'));
  const kubeconfig = path.join(dir, 'kubeconfig');
  const child = await startServer(kubeconfig);
  const pid = child.pid!;
  try {
    const t = targetOf(kubeconfig);
    const rssStart = rssMb(pid);
    let peak = rssStart;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
    const watches = Array.from({ length: WATCHERS }, () => stalledWatch(t));
    await new Promise((r) => setTimeout(r, 1000));
    let slowest = 0;
    let probes = 0;
    let writing = true;
    const prober = (async () => {
      while (writing) {
        slowest = Math.max(slowest, kubectlGetNs(kubeconfig));
        probes++;
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();
    const payload = 'x'.repeat(OBJECT_BYTES);
    const started = performance.now();
    for (let i = 0; i < WRITES; i++) {
      const body = JSON.stringify({ metadata: { name: `big-${i}` }, data: { payload } });
      const code = await request(t, 'POST', '/api/v1/namespaces/default/configmaps', body);
      if (code !== 201) throw new Error(`write ${i}: HTTP ${code}`);
    }
    const writeSeconds = (performance.now() - started) / 1000;
    // the dropped watchers' last bytes get their grace period, then go
    await new Promise((r) => setTimeout(r, 7000));
    writing = false;
    await prober;
    clearInterval(sampler);
    // a watch the server dropped ends once its reader catches up; one it kept stays open
    for (const w of watches) w.resume();
    await new Promise((r) => setTimeout(r, 3000));
    const dropped = watches.filter((w) => w.ended).length;
    peak = Math.max(peak, rssMb(pid));
    const report = [
      `watch back-pressure: ${WATCHERS} watchers that never read, ${WRITES} ConfigMaps of ${OBJECT_BYTES / 1024} KB`,
      `  writes took ${writeSeconds.toFixed(1)} s`,
      `  server RSS: ${rssStart.toFixed(0)} MB at start, peak ${peak.toFixed(0)} MB, end ${rssMb(pid).toFixed(0)} MB (bar < 800 MB)${peak < 800 ? '  ok' : '  MISSED'}`,
      `  kubectl get ns: slowest of ${probes} ${Number.isFinite(slowest) ? `${slowest.toFixed(0)} ms` : 'FAILED'} (bar < 5000 ms)${slowest < 5000 ? '  ok' : '  MISSED'}`,
      `  stalled watches closed by the server: ${dropped} of ${WATCHERS}`,
    ];
    process.stdout.write(`${report.join('\n')}\n`);
  } finally {
    child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 500));
    if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
