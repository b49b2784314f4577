/**
 * What a state backend offers: the latest State of a stack on a cluster, conditional writes (a
 * write names the serial it read, so a lost race is a conflict, never a silent overwrite), and a
 * lock per (project, stack, cluster) that a second operation respects.
 */
import { UserError } from '../user-error.js';
import { describeKey, type State, type StateKey } from './model.js';

export interface LockHolder {
  /** user@host:pid */
  id: string;
  user: string;
  host: string;
  pid: number;
  operation: string;
  /** ISO time the lock was taken. */
  since: string;
}

export interface Lock {
  readonly holder: LockHolder;
  /** Releases the lock; releasing twice is harmless. */
  release(): Promise<void>;
}

export interface StateBackend {
  /** A human name for messages ("local files under .kdeck/state"). */
  readonly description: string;
  read(key: StateKey): Promise<State | undefined>;
  /** Stores `state` with serial `expectedSerial + 1`; refuses when the stored serial is not `expectedSerial`. */
  write(state: State, expectedSerial: number): Promise<State>;
  /** Takes the lock of `key`, or throws LockedError naming who holds it. */
  lock(key: StateKey, holder: LockHolder): Promise<Lock>;
  /** Who holds the lock of `key`, if anyone. */
  lockHolder(key: StateKey): Promise<LockHolder | undefined>;
  /** Removes the lock whoever holds it; returns the holder it removed. */
  forceUnlock(key: StateKey): Promise<LockHolder | undefined>;
  /** Every stored state's key. */
  list(): Promise<StateKey[]>;
}

export function describeHolder(h: LockHolder): string {
  return `${h.id} (${h.operation} since ${h.since})`;
}

export class LockedError extends UserError {
  constructor(
    readonly key: StateKey,
    readonly holder: LockHolder,
  ) {
    super(
      `the stack ${describeKey(key)} is locked by ${describeHolder(holder)}; wait for that operation to finish, or, if it is gone, run \`kdeck state unlock\` in the stack folder`,
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
