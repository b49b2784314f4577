/**
 * Watch back-pressure, as the API server has it: a watcher that stops reading while events pile
 * up is closed (its client must resume or list again), and the watchers that keep reading get
 * every event. Runs against a real cluster too (see support/kube-target.ts).
 */
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { contractTarget, eventually, type Target } from './support/kube-target.js';

let t: Target;
beforeAll(async () => {
  t = await contractTarget();
});
afterAll(async () => {
  await t?.close();
});

interface Watcher {
  added: number;
  ended: boolean;
  res?: IncomingMessage;
  stop(): void;
}

/** A raw watch on the namespace's ConfigMaps that counts ADDED events; `paused` reads nothing. */
async function openWatch(paused: boolean): Promise<Watcher> {
  const server = new URL(t.kc.getCurrentCluster()!.server);
  const opts: https.RequestOptions = {
    hostname: server.hostname,
    port: server.port,
    path: `/api/v1/namespaces/${t.namespace}/configmaps?watch=true`,
  };
  await t.kc.applyToHTTPSOptions(opts);
  const w: Watcher = { added: 0, ended: false, stop: () => req.destroy() };
  let rest = '';
  const req = https.request(opts, (res) => {
    w.res = res;
    if (paused) res.pause();
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) if (l.startsWith('{"type":"ADDED"')) w.added++;
    });
    const end = () => (w.ended = true);
    res.on('end', end);
    res.on('error', end);
    res.on('aborted', end);
  });
  req.on('error', () => (w.ended = true));
  req.end();
  await eventually('the watch to open', () => w.res !== undefined);
  return w;
}

describe('watch back-pressure', () => {
  it('closes a watcher that stops reading, and keeps serving the others', async () => {
    const stalled = await openWatch(true);
    const reader = await openWatch(false);
    const writes = 200;
    const payload = 'x'.repeat(100 * 1024);
    try {
      for (let i = 0; i < writes; i++) {
        await t.core.createNamespacedConfigMap({
          namespace: t.namespace,
          body: { metadata: { name: `big-${i}` }, data: { payload } },
        });
      }
      await eventually('the reading watcher to get every event', () => reader.added === writes, 60_000);
      expect(reader.ended).toBe(false);
      // the stalled one reads again: what the server kept for it, then the end of its stream
      stalled.res!.resume();
      await eventually('the stalled watcher to be closed', () => stalled.ended, 60_000);
      expect(stalled.added).toBeLessThan(writes);
    } finally {
      stalled.stop();
      reader.stop();
    }
  }, 120_000);
});
