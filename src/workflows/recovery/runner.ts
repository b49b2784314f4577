/**
 * A recovery run, live: the machine started fresh or restored from its snapshot, its snapshot
 * persisted after every transition, every step's outcome appended to the audit log, and both
 * (with the live health readings) passed to whoever shows them: the command line or the console.
 */
import { createActor, waitFor, type Snapshot } from 'xstate';
import { errorMessage, UserError } from '../../diagnostics/user-error.js';
import {
  comparedToRehearsal,
  type AuditEntry,
  type HealthNote,
  type PredictedBatch,
  type RecoverySteps,
  type RunPlan,
} from './model.js';
import { runMachine, type RunActor, type RunInput, type RunSnapshot } from './run-machine.js';
import type { RunStore } from './run-store.js';

export type RunUpdate = { type: 'audit'; entry: AuditEntry } | { type: 'health'; cluster: string; note: HealthNote };

export interface RunOptions {
  store: RunStore;
  /** user@host, for the audit log. */
  who: string;
  /** The steps, given the audit function they report through. */
  steps: (audit: RecoverySteps['audit']) => RecoverySteps;
  onUpdate?: (u: RunUpdate) => void;
  input: RunInput;
  plan: RunPlan;
  /** The persisted snapshot of a run being resumed. */
  snapshot?: unknown;
  /** A rehearsal's times: each batch's verification is audited beside its predicted time. */
  predicted?: PredictedBatch[];
}

export interface LiveRun {
  readonly id: string;
  readonly actor: RunActor;
  /** Resolves when the run is finished (all clusters settled) or cancelled. */
  settled(): Promise<RunSnapshot>;
  /** Saves the snapshot, stops the machine (steps in flight are abandoned; they are idempotent) and frees the run. */
  close(): Promise<void>;
}

export function startRun(options: RunOptions): LiveRun {
  const { store, who, onUpdate } = options;
  const release = store.lock();
  const { predicted } = options;
  // a resumed run counts from the approval its audit log holds
  let approvedAt = predicted
    ? Date.parse(store.auditLog().find((e) => e.action === 'run' && e.outcome === 'approved')?.time ?? '')
    : NaN;
  const audit: RecoverySteps['audit'] = (e) => {
    const now = Date.now();
    if (e.action === 'run' && e.outcome === 'approved') approvedAt = now;
    const expected =
      e.action === 'batch' && e.outcome === 'verified' && !Number.isNaN(approvedAt)
        ? predicted?.find((p) => p.cluster === e.cluster && e.target === `batch ${p.index}`)
        : undefined;
    const entry: AuditEntry = {
      time: new Date(now).toISOString(),
      who,
      run: store.id,
      ...e,
      ...(expected ? { detail: comparedToRehearsal(now - approvedAt, expected) } : {}),
    };
    store.audit(entry);
    onUpdate?.({ type: 'audit', entry });
  };
  const base = options.steps(audit);
  const tee = (cluster: string, report: (n: HealthNote) => void) => (note: HealthNote) => {
    report(note);
    onUpdate?.({ type: 'health', cluster, note });
  };
  const steps: RecoverySteps = {
    ...base,
    gate: (input, report, signal) => base.gate(input, tee(input.cluster, report), signal),
    verify: (input, report, signal) => base.verify(input, tee(input.cluster, report), signal),
  };

  let closed = false;
  let pending = false;
  let latest: unknown;
  let writing: Promise<void> | undefined;
  let writeFailed: unknown;
  // snapshots are written one at a time, each the newest there is when the last one landed: a
  // burst of transitions (a child's and its parent's, several clusters') costs one write; a health
  // reading changes nothing a resumed run needs, so it causes none
  const write = async () => {
    while (latest !== undefined) {
      const snapshot = latest;
      latest = undefined;
      await store.saveSnapshot(snapshot);
    }
    writing = undefined;
  };
  const persist = () => {
    pending = false;
    if (closed) return;
    latest = actor.getPersistedSnapshot();
    writing ??= write().catch((e: unknown) => {
      writeFailed ??= e;
      writing = undefined;
    });
  };
  const actor: RunActor = createActor(runMachine(steps, options.plan), {
    input: options.input,
    ...(options.snapshot !== undefined ? { snapshot: options.snapshot as Snapshot<unknown> } : {}),
    inspect: (e) => {
      if (e.type === '@xstate.snapshot' && e.event.type !== 'NOTE' && !pending) {
        pending = true;
        setImmediate(persist);
      }
    },
  });
  try {
    actor.start();
  } catch (e) {
    release();
    throw e;
  }
  persist();
  return {
    id: store.id,
    actor,
    settled: () => waitFor(actor, (s) => s.matches('finished') || s.status === 'done', { timeout: Infinity }),
    close: async () => {
      if (closed) return;
      persist();
      closed = true;
      actor.stop();
      base.close?.();
      await writing;
      release();
      if (writeFailed)
        throw new UserError(
          `the run's snapshot could not be written to ${store.dir} (${errorMessage(writeFailed)}); what was done is in the audit log beside it`,
          1,
        );
    },
  };
}
