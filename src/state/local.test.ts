import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockedError, LockLostError, StateConflictError } from './backend.js';
import { thisProcess } from './holder.js';
import { LocalStateBackend } from './local.js';
import { emptyState, withOperation, withResource, withoutResource } from './model.js';

const key = { project: 'guestbook', stack: 'prod', cluster: 'sandbox-b' };
const NOW = '2026-11-22T03:00:00.000Z';
const workspace = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-state-'));
const ns = {
  id: 'v1:Namespace:guestbook',
  type: 'Kubernetes',
  attributes: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'guestbook' } },
};

describe('local state backend', () => {
  it('stores states per (project, stack, cluster), bumping the serial on every write', async () => {
    const root = workspace();
    const backend = new LocalStateBackend(root);
    expect(await backend.read(key)).toBeUndefined();
    let state = await backend.write(
      withResource(emptyState(key, 'sre@host', NOW), { ...ns, live: { uid: 'u1', resourceVersion: '7' } }),
      0,
    );
    expect(state.serial).toBe(1);
    state = await backend.write(withoutResource(state, ns.id), state.serial);
    expect(state).toMatchObject({ serial: 2, resources: [] });
    await backend.write(emptyState({ ...key, cluster: 'sandbox-a' }, 'sre@host', NOW), 0);
    expect(await backend.list()).toEqual([
      { ...key, cluster: 'sandbox-a' },
      { ...key, cluster: 'sandbox-b' },
    ]);
    expect(fs.readdirSync(path.dirname(backend.fileOf(key))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect((await backend.read(key))?.serial).toBe(2);
  });

  it('refuses a write based on an old serial', async () => {
    const backend = new LocalStateBackend(workspace());
    const first = await backend.write(emptyState(key, 'a@h', NOW), 0);
    await backend.write(first, first.serial);
    await expect(backend.write(first, first.serial)).rejects.toThrow(StateConflictError);
  });

  it('sees a write by another process, and an edit in place, since its own last write', async () => {
    const root = workspace();
    const mine = new LocalStateBackend(root);
    const first = await mine.write(emptyState(key, 'a@h', NOW), 0);
    await new LocalStateBackend(root).write(first, first.serial);
    await expect(mine.write(first, first.serial)).rejects.toThrow(StateConflictError);
    const third = await mine.write(first, 2);
    // the same file rewritten in place, to another serial
    const file = mine.fileOf(key);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"serial": 3', '"serial": 30'));
    await expect(mine.write(third, third.serial)).rejects.toThrow(StateConflictError);
  });

  it('reports a damaged state file instead of overwriting it', async () => {
    const backend = new LocalStateBackend(workspace());
    fs.mkdirSync(path.dirname(backend.fileOf(key)), { recursive: true });
    fs.writeFileSync(backend.fileOf(key), '{"serial": ');
    await expect(backend.read(key)).rejects.toThrow(/is damaged/);
  });

  it('imports a state as it is, serial and bytes, only where none exists', async () => {
    const from = new LocalStateBackend(workspace());
    const state = await from.write(withResource(emptyState(key, 'a@h', NOW), ns), 0);
    const to = new LocalStateBackend(workspace());
    await to.importState(state);
    expect(fs.readFileSync(to.fileOf(key), 'utf8')).toBe(fs.readFileSync(from.fileOf(key), 'utf8'));
    await expect(to.importState(state)).rejects.toThrow(StateConflictError);
  });

  it('keeps a bounded operation history', () => {
    let state = emptyState(key, 'a@h', NOW);
    const op = {
      kind: 'apply' as const,
      operator: 'a@h',
      startTime: NOW,
      result: 'running' as const,
      created: 0,
      updated: 0,
      deleted: 0,
    };
    state = withOperation(state, op);
    state = withOperation(state, { ...op, result: 'succeeded', created: 2 });
    expect(state.history).toEqual([{ ...op, result: 'succeeded', created: 2 }]);
    for (let i = 0; i < 60; i++) state = withOperation(state, { ...op, startTime: `t${i}`, result: 'failed' });
    expect(state.history).toHaveLength(50);
  });
});

describe('local state lock', () => {
  it('refuses a second operation, naming the holder, until the first releases', async () => {
    const backend = new LocalStateBackend(workspace());
    const first = await backend.lock(key, thisProcess('apply', NOW));
    const other = { ...thisProcess('destroy', NOW), pid: process.pid + 1, id: 'ops@other:1' };
    const refused = await backend.lock(key, other).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LockedError);
    expect((refused as LockedError).message).toContain(`is locked by ${first.holder.id} (apply since ${NOW})`);
    await first.release();
    const second = await backend.lock(key, other);
    expect(await backend.lockHolder(key)).toEqual(second.holder);
    expect(second.holder).toMatchObject(other);
    await second.release();
    expect(await backend.lockHolder(key)).toBeUndefined();
  });

  it('takes over the lock of a crashed process on this machine', async () => {
    const backend = new LocalStateBackend(workspace());
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const crashed = { ...thisProcess('apply', NOW), pid: Number(gone.stdout), id: `x@${os.hostname()}:${gone.stdout}` };
    await backend.lock(key, crashed);
    const lock = await backend.lock(key, thisProcess('apply', NOW));
    expect(lock.holder.pid).toBe(process.pid);
  });

  it('does not take over a live lock held from another machine, but unlock --force removes it (only the one shown)', async () => {
    const backend = new LocalStateBackend(workspace());
    const remote = { id: 'ci@runner-7:42', user: 'ci', host: 'runner-7', pid: 42, operation: 'apply', since: NOW };
    const held = await backend.lock(key, remote);
    await expect(backend.lock(key, thisProcess('apply', NOW))).rejects.toThrow(
      /locked by ci@runner-7:42 \(apply since .*\); wait for that operation to finish, or, if it is gone, its lock runs out at /,
    );
    expect(await backend.forceUnlock(key, { ...remote, since: 'another time' })).toBeUndefined();
    expect(await backend.forceUnlock(key, held.holder)).toEqual(held.holder);
    await (await backend.lock(key, thisProcess('apply', NOW))).release();
  });

  it('takes over a lock from another machine once it ran out unrenewed; its holder then learns it lost it', async () => {
    const backend = new LocalStateBackend(workspace(), 1);
    const remote = await backend.lock(key, {
      id: 'ci@runner-7:42',
      user: 'ci',
      host: 'runner-7',
      pid: 42,
      operation: 'apply',
      since: NOW,
    });
    await remote.renew();
    fs.writeFileSync(
      backend.fileOf(key).replace(/\.json$/, '.lock'),
      JSON.stringify({ ...remote.holder, expires: '2026-01-01T00:00:00.000Z' }),
    );
    const lock = await backend.lock(key, thisProcess('apply', NOW));
    expect(lock.tookOverFrom?.id).toBe('ci@runner-7:42');
    await expect(remote.renew()).rejects.toThrow(LockLostError);
    await lock.release();
  });
});
