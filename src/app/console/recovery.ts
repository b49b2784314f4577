/**
 * The console's side of a recovery runbook: `:recover RUNBOOK hosts=...` compiles the runbook
 * with the cmdb plugin answering from the console's clusters and shows the plan; once the
 * operator confirms, the run goes as `kdeck recover` runs it (the persisted run machine, an
 * audit log under .kdeck/runs, steps against the clusters), and the Recovery view follows its
 * clusters while p, r, a, t, s, x steer it. A run left when the console quits is saved and
 * carries on with `kdeck recover --resume RUN_ID`, or with `:resume RUN_ID` in a later console.
 */
import path from 'node:path';
import type { ClusterSet } from '../../cluster/cluster-set.js';
import { updateLine } from '../../workflows/recovery/update-line.js';
import { parseOptionArg } from '../../kcl/run.js';
import type { RecoveryPlan } from '../../recovery/plan.js';
import { requireTargets } from '../../recovery/runbook.js';
import { planRecovery } from '../recovery.js';
import { KclError } from '../../diagnostics/diagnostics.js';
import { failureOf } from './compile-stack.js';
import { errorMessage, UserError } from '../../diagnostics/user-error.js';
import { launchRun, resumeRun, type OpenOptions } from '../../workflows/recovery/launch.js';
import type { RunActor } from '../../workflows/recovery/run-machine.js';
import { RunStore, runStanding, type RunRecord } from '../../workflows/recovery/run-store.js';
import type { LiveRun } from '../../workflows/recovery/runner.js';
import type { ConsoleState, EventLevel, Store } from './state.js';
import { freezeRecovery, launchRehearsedRun, rehearseRecovery, type Rehearsal } from '../rehearsal/rehearsal.js';
import type { RunPlan } from '../../workflows/recovery/model.js';
import { secondsText } from '../../recovery/rehearsal-text.js';

interface Asked {
  runbook: string;
  args: string[];
}

/**
 * A planned recovery's rehearsal: going on, or its forecast with the plan it froze (a run after
 * it runs that same frozen plan), or why it could not be made.
 */
export type RehearsalEntry =
  | { state: 'rehearsing' }
  | { state: 'rehearsed'; frozen: RunPlan; report: Rehearsal }
  | { state: 'error'; message: string };

export type RecoveryEntry =
  | (Asked & { state: 'planning' })
  | (Asked & { state: 'planned'; plan: RecoveryPlan; rehearsal?: RehearsalEntry })
  | (Asked & { state: 'error'; message: string })
  | (Asked & { state: 'saved'; runId: string; record: RunRecord; last: string })
  | (Asked & { state: 'running'; runId: string; actor: RunActor; settled: boolean });

/** What the operator may tell a running recovery (the run machine's events). */
export type RecoveryCommand = 'PAUSE' | 'RESUME' | 'ABORT' | 'RETRY' | 'SKIP' | 'STOP';

/** `hosts=a,b` and `-D hosts=a,b` alike: the `-D` values of a `:recover` command. */
export function recoveryArgs(words: string[]): string[] {
  return words.filter((w) => w !== '-D');
}

export interface RecoveryDeps {
  root: string;
  store: Store<ConsoleState>;
  clusterSet: ClusterSet;
  readOnly: boolean;
  log: (level: EventLevel, text: string) => void;
}

/** The console's one recovery at a time: its plan, then its run. */
export class ConsoleRecovery {
  private run: LiveRun | undefined;

  constructor(private readonly deps: RecoveryDeps) {}

  private set(entry: RecoveryEntry): void {
    this.deps.store.update((s) => ({ ...s, recovery: entry }));
  }

  private refuseWhileRunning(): void {
    const current = this.deps.store.get().recovery;
    if (current?.state === 'running' && !current.settled)
      throw new UserError(
        `the recovery ${current.runId} is running; abort it (a) or let it finish before starting another`,
      );
  }

  async plan(runbook: string, args: string[]): Promise<void> {
    this.refuseWhileRunning();
    this.set({ state: 'planning', runbook, args });
    try {
      const { plan } = await planRecovery(path.resolve(this.deps.root, runbook), args, {
        clusterSet: async () => this.deps.clusterSet,
      });
      this.set({ state: 'planned', runbook, args, plan });
      this.deps.log(
        'info',
        `recovery ${runbook}: ${plan.runbook.targets.length} targets in ${plan.batches.length} batches`,
      );
    } catch (e) {
      // the runbook's own words (a check's message) as the CLI prints them, not only the heading
      const failure = e instanceof KclError ? failureOf(e, this.deps.root) : undefined;
      const message = failure?.text.trimEnd() ?? errorMessage(e);
      this.set({ state: 'error', runbook, args, message });
      this.deps.log('error', `recovery ${runbook}: ${failure?.summary ?? message}`);
    }
  }

  /**
   * Rehearses the planned recovery on an embedded copy of its clusters (reads only, so read-only
   * mode allows it); the forecast shows beside the plan, and a run after it runs the plan it froze.
   */
  async rehearse(): Promise<void> {
    const entry = this.deps.store.get().recovery;
    if (entry?.state !== 'planned')
      throw new UserError('there is no recovery plan to rehearse; plan one with :recover RUNBOOK hosts=...');
    if (entry.rehearsal?.state === 'rehearsing') throw new UserError(`the rehearsal of ${entry.runbook} is going on`);
    requireTargets(entry.plan, '');
    // a new plan asked for meanwhile replaces this one, and its rehearsal with it
    const attach = (rehearsal: RehearsalEntry) => {
      const now = this.deps.store.get().recovery;
      if (now?.state === 'planned' && now.plan === entry.plan) this.set({ ...now, rehearsal });
    };
    attach({ state: 'rehearsing' });
    try {
      const frozen = await freezeRecovery(entry.plan, this.deps.clusterSet);
      const report = await rehearseRecovery(frozen, this.deps.clusterSet);
      attach({ state: 'rehearsed', frozen, report });
      this.deps.log(
        'info',
        `recovery ${entry.runbook}: rehearsed, predicted ${secondsText(report.predicted.overallMs)} (lower bound ${secondsText(report.lowerBound.overallMs)}), ${report.refusals.length} eviction(s) refused`,
      );
    } catch (e) {
      const message = errorMessage(e);
      attach({ state: 'error', message });
      this.deps.log('error', `recovery ${entry.runbook}: the rehearsal failed: ${message}`);
    }
  }

  /** `:resume RUN_ID`: a run saved under .kdeck/runs, shown to be carried on once confirmed. */
  openSaved(runId: string): void {
    this.refuseWhileRunning();
    try {
      const store = new RunStore(this.deps.root, runId);
      const record = store.record();
      const args = record.options.map(([k, v]) => `${k}=${v}`);
      this.set({ state: 'saved', runbook: record.runbook, args, runId, record, last: runStanding(store.auditLog()) });
    } catch (e) {
      this.set({ state: 'error', runbook: runId, args: [], message: errorMessage(e) });
    }
  }

  /** Runs the planned recovery, or carries the saved run on; the operator has confirmed it. */
  async start(): Promise<void> {
    const entry = this.deps.store.get().recovery;
    if (this.deps.readOnly)
      throw new UserError(
        'a recovery restarts pods and is refused in --read-only mode; the plan shows what it would do',
      );
    const { clusterSet, root } = this.deps;
    const open: OpenOptions = {
      // the audit trail goes to the Events view; health readings show in the Recovery view
      onUpdate: (u) => {
        if (u.type === 'audit')
          this.deps.log(/fail|stop|abort/.test(u.entry.outcome) ? 'warn' : 'info', `recovery: ${updateLine(u)}`);
      },
    };
    if (entry?.state === 'saved') {
      const resumed = await resumeRun(new RunStore(root, entry.runId), clusterSet, open);
      if (resumed.kind === 'over') throw new UserError(resumed.message);
      this.follow(resumed.run, entry);
      resumed.go();
      return;
    }
    if (entry?.state !== 'planned')
      throw new UserError('there is no recovery plan to run; plan one with :recover RUNBOOK hosts=...');
    requireTargets(entry.plan, '');
    const options = entry.args.map(parseOptionArg);
    const { rehearsal } = entry;
    const run =
      rehearsal?.state === 'rehearsed'
        ? launchRehearsedRun(root, entry.runbook, options, rehearsal.frozen, rehearsal.report, clusterSet, open)
        : await launchRun(root, entry.runbook, options, entry.plan, clusterSet, open);
    this.follow(run, entry);
    run.actor.send({ type: 'APPROVE' });
  }

  private follow(run: LiveRun, { runbook, args }: Asked): void {
    this.run = run;
    this.set({ state: 'running', runbook, args, runId: run.id, actor: run.actor, settled: false });
    void run.settled().then(async () => {
      // an ended run is saved and let go before it shows as ended, so `:resume` can reopen it at once
      await this.close();
      const now = this.deps.store.get().recovery;
      if (now?.state === 'running' && now.runId === run.id) this.set({ ...now, settled: true });
    });
  }

  steer(command: RecoveryCommand): boolean {
    const entry = this.deps.store.get().recovery;
    if (entry?.state !== 'running' || entry.settled) return false;
    entry.actor.send({ type: command });
    return true;
  }

  /** Saves a run in flight for `kdeck recover --resume` and lets it go. */
  async close(): Promise<void> {
    await this.run?.close().catch((e: unknown) => this.deps.log('error', errorMessage(e)));
  }
}
