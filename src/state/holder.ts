/**
 * Who runs this process, as the states and locks of every backend name it: user@host for the
 * operator a state records, user@host:pid for a lock's holder.
 */
import os from 'node:os';
import type { LockHolder } from './backend.js';

/** Who runs this process, as a state records its operator: user@host. */
export function operatorName(): string {
  return `${os.userInfo().username}@${os.hostname()}`;
}

/** The holder record of this process, for `operation`, taken at `now`. */
export function thisProcess(operation: string, now: string): LockHolder {
  return {
    id: `${operatorName()}:${process.pid}`,
    user: os.userInfo().username,
    host: os.hostname(),
    pid: process.pid,
    operation,
    since: now,
  };
}

/** The holder a lock's identity names (user@host:pid), for locks that store only the identity. */
export function holderFromId(id: string, operation: string, since: string): LockHolder {
  const m = /^(.*)@(.*):(\d+)$/.exec(id);
  return { id, user: m?.[1] ?? id, host: m?.[2] ?? '', pid: m ? Number(m[3]) : 0, operation, since };
}
