/**
 * What a state backend offers: the latest State of a stack on a cluster, conditional writes (a
 * write names the serial it read, so a lost race is a conflict, never a silent overwrite), a lock
 * per (project, stack, cluster) that a second operation respects and that runs out unless its
 * holder renews it, and the last operations on a stack. The local files and the in-cluster
 * Secrets both offer exactly this, so the engine never knows which one it writes to.
 */
import { UserError } from '../diagnostics/user-error.js';
import { describeKey, type OperationRecord, type State, type StateKey } from './model.js';

export interface LockHolder {
  /** user@host:pid */
  id: string;
  user: string;
  host: string;
  pid: number;
  operation: string;
  /** ISO time the lock was taken. */
  since: string;
  /** ISO time the lock runs out unless its holder renews it; absent on locks that never run out. */
  expires?: string;
}

export interface Lock {
  readonly holder: LockHolder;
  /** How long the lock lasts after each renewal. */
  readonly durationSeconds: number;
  /** Whose lock ran out and was taken over to get this one, if anyone's. */
  readonly tookOverFrom?: LockHolder;
  /** Extends the lock by its duration; throws LockLostError when it is no longer this holder's. */
  renew(): Promise<void>;
  /** Releases the lock; releasing twice is harmless. */
  release(): Promise<void>;
}

export interface StateBackend {
  /** A human name for messages ("local files under .kdeck/state"). */
  readonly description: string;
  read(key: StateKey): Promise<State | undefined>;
  /** Stores `state` with serial `expectedSerial + 1`; refuses when the stored serial is not `expectedSerial`. */
  write(state: State, expectedSerial: number): Promise<State>;
  /** Stores `state` as it is, serial included, where no state of its key exists (a migration's copy). */
  importState(state: State): Promise<void>;
  /** Takes the lock of `key`, or throws LockedError naming who holds it. */
  lock(key: StateKey, holder: LockHolder): Promise<Lock>;
  /** Who holds the lock of `key`, if anyone. */
  lockHolder(key: StateKey): Promise<LockHolder | undefined>;
  /**
   * Removes the lock whoever holds it, or only while `expected` holds it (so that a lock taken
   * between a confirmation and the removal stays); returns the holder it removed.
   */
  forceUnlock(key: StateKey, expected?: LockHolder): Promise<LockHolder | undefined>;
  /** The last `count` operations on `key`, oldest first. */
  history(key: StateKey, count: number): Promise<OperationRecord[]>;
  /** Every stored state's key. */
  list(): Promise<StateKey[]>;
}

/** The backends a workspace can choose (`state.backend`, `--state-backend`). */
export const BACKENDS = ['local', 'kubernetes'] as const;
export type BackendKind = (typeof BACKENDS)[number];

/** Locks last this long after each renewal unless the workspace configures otherwise. */
export const DEFAULT_LOCK_SECONDS = 60;
/** Where the kubernetes backend keeps its Secrets and Leases unless told otherwise. */
export const DEFAULT_STATE_NAMESPACE = 'kdeck-system';

export function describeHolder(h: LockHolder): string {
  return `${h.id} (${h.operation} since ${h.since})`;
}

/** The holder and, for a lock that runs out, when it does. */
export function describeLock(h: LockHolder): string {
  return `${h.id} (${h.operation} since ${h.since}${h.expires ? `, until ${h.expires} unless renewed` : ''})`;
}

/** True once the lock's time has run out without a renewal. */
export function isExpired(h: LockHolder, now: Date): boolean {
  return h.expires !== undefined && Date.parse(h.expires) < now.getTime();
}

export class LockedError extends UserError {
  constructor(
    readonly key: StateKey,
    readonly holder: LockHolder,
  ) {
    const gone = holder.expires
      ? `if it is gone, its lock runs out at ${holder.expires}, or \`kdeck state unlock --force\` in the stack folder removes it now`
      : 'if it is gone, run `kdeck state unlock --force` in the stack folder';
    super(
      `the stack ${describeKey(key)} is locked by ${describeHolder(holder)}; wait for that operation to finish, or, ${gone}`,
      1,
    );
  }
}

export class LockLostError extends UserError {
  constructor(key: StateKey, now: LockHolder | undefined) {
    super(
      `the lock of ${describeKey(key)} was lost while this operation ran (${now ? `${describeHolder(now)} holds it now` : 'it was removed'}); nothing new was started: check what happened to the stack, then run preview`,
      1,
    );
  }
}

export class StateConflictError extends UserError {
  constructor(key: StateKey, expected: number, found: number) {
    super(
      `the state of ${describeKey(key)} changed while this operation ran (serial ${found}, expected ${expected}); someone else wrote it: run preview again to see the current state`,
      1,
    );
  }
}

/** The last `count` operations of a state (none when there is no state). */
export function lastOperations(state: State | undefined, count: number): OperationRecord[] {
  return count > 0 ? (state?.history ?? []).slice(-count) : [];
}
