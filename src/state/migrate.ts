/**
 * Moving every state of a workspace from one backend to another (`kdeck state migrate`). Nothing
 * is written while any stack is locked on either side: the migration takes every lock itself
 * first, so no operation can start halfway through, and a held lock refuses it, naming its
 * holder. A state the destination already holds must be the same state (then it is left as it
 * is); a different one is never overwritten. Each copy keeps its serial, history and all, and is
 * read back and compared before the migration calls it done. The source keeps its states: the
 * workspace moves over when its config names the new backend.
 */
import { UserError } from '../diagnostics/user-error.js';
import type { Lock, LockHolder, LockLostError, StateBackend } from './backend.js';
import { keepRenewed } from './renewal.js';
import { describeKey, type State, type StateKey } from './model.js';

export interface Migrated {
  key: StateKey;
  serial: number;
  resources: number;
  /** copied: written and verified; present: the destination held the same state already. */
  outcome: 'copied' | 'present';
}

const same = (a: State, b: State) => JSON.stringify(a) === JSON.stringify(b);

async function lockAll(backends: StateBackend[], keys: StateKey[], holder: () => LockHolder): Promise<Lock[]> {
  const locks: Lock[] = [];
  try {
    for (const backend of backends) for (const key of keys) locks.push(await backend.lock(key, holder()));
  } catch (e) {
    for (const l of locks.reverse()) await l.release();
    throw e;
  }
  return locks;
}

export async function migrateStates(
  from: StateBackend,
  to: StateBackend,
  holder: () => LockHolder,
  onCopied: (m: Migrated) => void = () => undefined,
): Promise<Migrated[]> {
  const keys = await from.list();
  const locks = await lockAll([from, to], keys, holder);
  // a migration of many large states may outlast a lock's duration: it renews them as apply does
  let lost: LockLostError | undefined;
  const renewal = keepRenewed(locks, (e) => (lost = e));
  try {
    // every state is read and checked against the destination before anything is written
    const plan: { key: StateKey; state: State; present: boolean }[] = [];
    for (const key of keys) {
      const state = await from.read(key);
      if (!state) continue;
      const there = await to.read(key);
      if (there && !same(there, state)) {
        throw new UserError(
          `the destination (${to.description}) already holds a different state of ${describeKey(key)} (serial ${there.serial} there, ${state.serial} here); the migration wrote nothing: compare the two with \`kdeck state show --state-backend <backend>\`, and remove the one that is wrong before migrating again`,
          1,
        );
      }
      plan.push({ key, state, present: there !== undefined });
    }
    const done: Migrated[] = [];
    for (const { key, state, present } of plan) {
      if (lost) throw lost;
      if (!present) {
        await to.importState(state);
        const back = await to.read(key);
        if (!back || !same(back, state)) {
          throw new UserError(
            `the copy of ${describeKey(key)} in ${to.description} does not read back as it was written (serial ${back?.serial ?? 'none'}, expected ${state.serial}); the migration stopped: run it again, and if this repeats, keep using ${from.description}`,
            1,
          );
        }
      }
      const m: Migrated = {
        key,
        serial: state.serial,
        resources: state.resources.length,
        outcome: present ? 'present' : 'copied',
      };
      onCopied(m);
      done.push(m);
    }
    return done;
  } finally {
    renewal.stop();
    for (const l of locks.reverse()) await l.release();
  }
}
