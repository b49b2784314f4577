import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockedError } from './backend.js';
import { thisProcess } from './holder.js';
import { LocalStateBackend } from './local.js';
import { migrateStates } from './migrate.js';
import { emptyState, withResource } from './model.js';

const NOW = '2026-11-22T03:00:00.000Z';
const a = { project: 'guestbook', stack: 'prod', cluster: 'sandbox-b' };
const b = { project: 'guestbook', stack: 'dev', cluster: 'sandbox-a' };
const ns = {
  id: 'v1:Namespace:guestbook',
  type: 'Kubernetes',
  attributes: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'guestbook' } },
};
const backend = () => new LocalStateBackend(fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-migrate-')));
const holder = () => thisProcess('migrate', NOW);

describe('migrating states between backends', () => {
  it('copies every state with its serial, leaves a state already there alone, and refuses to overwrite a different one', async () => {
    const from = backend();
    const to = backend();
    const sa = await from.write(withResource(emptyState(a, 'x@y', NOW), ns), 0);
    const sb = await from.write(await from.write(emptyState(b, 'x@y', NOW), 0), 1);
    await to.importState(sa);
    const done = await migrateStates(from, to, holder);
    expect(done.map((m) => [m.key.stack, m.serial, m.outcome])).toEqual([
      ['dev', 2, 'copied'],
      ['prod', 1, 'present'],
    ]);
    expect(await to.read(b)).toEqual(sb);

    const other = backend();
    await other.importState({ ...sa, serial: 9 });
    await expect(migrateStates(from, other, holder)).rejects.toThrow(
      /already holds a different state of guestbook\/prod on sandbox-b \(serial 9 there, 1 here\); the migration wrote nothing/,
    );
    expect(await other.list()).toEqual([a]);
  });

  it('refuses while a stack is locked on either side, and leaves no lock of its own', async () => {
    const from = backend();
    const to = backend();
    await from.write(emptyState(a, 'x@y', NOW), 0);
    const held = await to.lock(a, { ...thisProcess('apply', NOW), id: 'ops@other:7' });
    await expect(migrateStates(from, to, holder)).rejects.toThrow(LockedError);
    expect(await from.lockHolder(a)).toBeUndefined();
    await held.release();
    expect(await migrateStates(from, to, holder)).toHaveLength(1);
    expect(await to.lockHolder(a)).toBeUndefined();
  });
});
