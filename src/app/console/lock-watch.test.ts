import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LockHolder } from '../../state/backend.js';
import { LocalStateBackend } from '../../state/local.js';
import { LockWatch } from './lock-watch.js';

describe('LockWatch', () => {
  it("names who else holds a stack's lock, and says when it is free again", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-lockwatch-'));
    const backend = new LocalStateBackend(root);
    const key = { project: 'guestbook', stack: 'prod', cluster: 'sandbox-b' };
    // another process on this machine, alive (our parent), holds it
    const other: LockHolder = {
      id: `sre@${os.hostname()}:${process.ppid}`,
      user: 'sre',
      host: os.hostname(),
      pid: process.ppid,
      operation: 'apply',
      since: new Date().toISOString(),
    };
    const lock = await backend.lock(key, other);
    const seen: (string | undefined)[] = [];
    const watch = new LockWatch(
      backend,
      (_, h) => seen.push(h?.id),
      () => undefined,
      20,
    );
    watch.track('guestbook/prod', [key]);
    await expect.poll(() => seen).toEqual([other.id]);
    await lock.release();
    await expect.poll(() => seen).toEqual([other.id, undefined]);
    watch.close();
    fs.rmSync(root, { recursive: true, force: true });
  });
});
