/**
 * What `kdeck recover` does: resolve the runbook's hostnames (the clusters, or a CMDB file),
 * compile the runbook with the cmdb plugin, print its plan, and (unless `--plan`) run it after
 * approval as a persisted, resumable recovery machine; `--resume RUN_ID` carries a run on.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { waitFor } from 'xstate';
import type { ClusterSet } from '../cluster/cluster-set.js';
import { findWorkspaceRoot } from '../konfig/workspace.js';
import { planText } from '../recovery/plan-text.js';
import { requireTargets } from '../recovery/runbook.js';
import { SilentExit, UserError } from '../diagnostics/user-error.js';
import type { ClusterActor } from '../workflows/recovery/cluster-machine.js';
import { launchRun, resumeRun, type OpenOptions } from '../workflows/recovery/launch.js';
import type { RunPlan } from '../workflows/recovery/model.js';
import { clusterActorId, clustersOf, type RunSnapshot } from '../workflows/recovery/run-machine.js';
import { RunStore } from '../workflows/recovery/run-store.js';
import type { LiveRun, RunUpdate } from '../workflows/recovery/runner.js';
import { updateLine } from '../workflows/recovery/update-line.js';
import { approvalFor, flagVerdict, refuseUnlessAllowed, typedApproves, typedText } from '../app/policy/confirmation.js';
import { EXIT_INTERRUPTED, Interrupts } from '../app/policy/interrupts.js';
import { workspaceProduction, type ProductionPolicy } from '../app/policy/production.js';
import { planRecovery } from '../app/recovery.js';
import {
  freezeRecovery,
  launchRehearsedRun,
  rehearsalSettings,
  rehearseRecovery,
  type RehearsalSettings,
} from '../app/rehearsal/rehearsal.js';
import type { RecoveryPlan } from '../recovery/plan.js';
import { rehearsalText } from '../recovery/rehearsal-text.js';
import { openClusters, type WorkspaceOptions } from '../app/workspace.js';
import { importView } from '../views/ink.js';
import { globalFlags } from './command-flags.js';
import { ask } from './prompt.js';
import type { RecoverFlags } from './recover.js';
import { interactiveTerminal, stdinIsTerminal } from '../terminal-env.js';

export async function runRecover(file: string | undefined, flags: RecoverFlags, command: Command): Promise<void> {
  const global = globalFlags(command);
  if (flags.resume) {
    if (file) throw new UserError('give either a runbook or --resume RUN_ID, not both', 2);
    return resumeRecover(flags.resume, flags, global);
  }
  if (!file)
    throw new UserError(
      'name the runbook to run (e.g. `kdeck recover runbooks/AppRecovery.k -D hosts=a,b`), or --resume RUN_ID',
      2,
    );
  if (!flags.plan && !flags.rehearse && global.readOnly)
    throw new UserError(
      'a recovery restarts pods and is refused in --read-only mode; `--plan` or `--rehearse` shows what it would do',
      2,
    );
  if (!flags.rehearse && (flags.readiness !== undefined || flags.timeScale !== undefined))
    throw new UserError('--readiness and --time-scale set up a rehearsal: give them with --rehearse', 2);
  const settings = rehearsalSettings(flags);
  const runbookFile = path.resolve(file);
  const root = findWorkspaceRoot(path.dirname(runbookFile));
  // a plan from a CMDB file needs no cluster: the clusters are opened when first needed
  let opened: Awaited<ReturnType<typeof openClusters>> | undefined;
  const clusterSetOnce = async () => (opened ??= await openClusters(global, root)).clusterSet;
  const interrupts = new Interrupts();
  try {
    const { plan, printed, options } = await interrupts.beforeChange(
      'the recovery',
      planRecovery(runbookFile, flags.argument, { cmdb: flags.cmdb, clusterSet: clusterSetOnce }),
    );
    if (printed) process.stderr.write(printed);
    if (flags.plan) {
      process.stdout.write(
        flags.output === 'json'
          ? `${JSON.stringify(plan, null, 2)}\n`
          : `${planText(plan)}\nPlan only: nothing was changed.\n`,
      );
      requireTargets(plan, '; check the hostnames, or give a CMDB file with --cmdb');
      return;
    }
    if (flags.output === 'text') process.stdout.write(planText(plan));
    requireTargets(plan, '; check the hostnames, or give a CMDB file with --cmdb');
    const clusterSet = await interrupts.beforeChange('the recovery', clusterSetOnce());
    if (flags.rehearse)
      return await rehearseFirst(
        { root, runbook: path.relative(root, runbookFile), options, plan, clusterSet },
        settings,
        flags,
        global.readOnly === true,
        interrupts,
      );
    const production = workspaceProduction(root, clusterSet.contexts);
    await approve(clustersOf(plan), production, flags, interrupts);
    const run = await launchRun(root, path.relative(root, runbookFile), options, plan, clusterSet, openOptions(flags));
    run.actor.send({ type: 'APPROVE' });
    await follow(run, clusterSet, production, flags, interrupts, root);
  } finally {
    interrupts.dispose();
    await opened?.close();
  }
}

interface Planned {
  root: string;
  /** The runbook file, relative to the workspace. */
  runbook: string;
  options: [string, string][];
  plan: RecoveryPlan;
  clusterSet: ClusterSet;
}

/**
 * `--rehearse`: the plan frozen, rehearsed and reported; then, when the usual confirmation allows
 * it (a terminal to ask on, or --yes / --confirm), that same frozen plan run for real.
 */
async function rehearseFirst(
  planned: Planned,
  settings: RehearsalSettings,
  flags: RecoverFlags,
  readOnly: boolean,
  interrupts: Interrupts,
): Promise<void> {
  const { root, clusterSet } = planned;
  const frozen = await interrupts.beforeChange('the rehearsal', freezeRecovery(planned.plan, clusterSet));
  if (flags.output === 'text') process.stdout.write('\nRehearsing on an embedded copy of the clusters…\n');
  const rehearsal = await interrupts.beforeChange('the rehearsal', rehearseRecovery(frozen, clusterSet, settings));
  const production = workspaceProduction(root, clusterSet.contexts);
  const approval = approvalFor(clustersOf(frozen), production);
  const runs = !readOnly && flagVerdict(approval, flags, interactiveTerminal(), 'the recovery').kind !== 'refused';
  if (flags.output === 'json')
    process.stdout.write(
      runs ? `${JSON.stringify({ type: 'rehearsal', rehearsal })}\n` : `${JSON.stringify(rehearsal, null, 2)}\n`,
    );
  else process.stdout.write(`\n${rehearsalText(rehearsal)}`);
  if (!runs) {
    if (flags.output === 'text')
      process.stdout.write(
        `\nRehearsal only: nothing was changed.${readOnly ? '' : ' To run this plan for real, run the same command on a terminal, or add --yes (production: --confirm).'}\n`,
      );
    return;
  }
  if (flags.output === 'text') process.stdout.write('\nRun this same plan for real?\n');
  await approve(clustersOf(frozen), production, flags, interrupts);
  const run = launchRehearsedRun(
    root,
    planned.runbook,
    planned.options,
    frozen,
    rehearsal,
    clusterSet,
    openOptions(flags),
  );
  run.actor.send({ type: 'APPROVE' });
  await follow(run, clusterSet, production, flags, interrupts, root);
}

async function resumeRecover(id: string, flags: RecoverFlags, global: WorkspaceOptions): Promise<void> {
  if (global.readOnly) throw new UserError('resuming a recovery restarts pods and is refused in --read-only mode', 2);
  const root = findWorkspaceRoot(process.cwd());
  const store = new RunStore(root, id);
  const interrupts = new Interrupts();
  const { clusterSet, close } = await interrupts.beforeChange('the recovery', openClusters(global, root));
  const production = workspaceProduction(root, clusterSet.contexts);
  try {
    const resumed = await resumeRun(store, clusterSet, openOptions(flags));
    if (resumed.kind === 'over') {
      process.stdout.write(`${resumed.message}\n`);
      return;
    }
    const { run, record } = resumed;
    if (!resumed.approved) {
      await approve(clustersOf(record.plan), production, flags, interrupts).catch(async (e: unknown) => {
        await run.close();
        throw e;
      });
    }
    resumed.go();
    if (flags.output === 'text')
      process.stdout.write(
        `Resuming run ${id} (${record.plan.runbook}, started ${record.createdAt} by ${record.who}).\n`,
      );
    await follow(run, clusterSet, production, flags, interrupts, root);
  } finally {
    interrupts.dispose();
    await close();
  }
}

/** The confirmation policy: production contexts named (typed, or --confirm), a yes otherwise. */
async function approve(
  clusters: string[],
  production: ProductionPolicy,
  flags: RecoverFlags,
  interrupts: Interrupts,
): Promise<void> {
  const approval = approvalFor(clusters, production);
  const verdict = flagVerdict(approval, flags, interactiveTerminal(), 'the recovery');
  refuseUnlessAllowed(verdict);
  if (verdict.kind === 'approved') return;
  const answer = await interrupts.beforeChange(
    'the recovery',
    verdict.typed
      ? ask(
          `This restarts pods in production (${approval.production.join(', ')}). Type the names (${typedText(approval)}) to go on: `,
          interrupts,
        )
      : ask('Run this recovery? [yes/no] ', interrupts),
  );
  if (verdict.typed ? !typedApproves(approval, answer) : !['yes', 'y'].includes(answer.toLowerCase()))
    throw new UserError(
      verdict.typed
        ? `the names did not match ${typedText(approval)}: nothing was changed`
        : 'Recovery cancelled: nothing was changed.',
      1,
    );
}

const interactiveOutput = (flags: RecoverFlags) => flags.output === 'text' && process.stdout.isTTY === true;

const hasOperator = (flags: RecoverFlags) => interactiveOutput(flags) && stdinIsTerminal();

function openOptions(flags: RecoverFlags): OpenOptions {
  const write = (u: RunUpdate) =>
    process.stdout.write(flags.output === 'json' ? `${JSON.stringify(u)}\n` : `${updateLine(u)}\n`);
  return {
    ...(interactiveOutput(flags) ? {} : { onUpdate: write }),
    // with nobody to ask, a cluster that would pause on a failure stops instead; a resume retries it
    ...(hasOperator(flags)
      ? {}
      : { adjust: (plan: RunPlan) => (plan.onFailure === 'pause' ? { ...plan, onFailure: 'abort' as const } : plan) }),
  };
}

/** Follows a run to its end: the live view or event lines, interrupts, and the outcome as the exit code. */
async function follow(
  run: LiveRun,
  clusterSet: ClusterSet,
  production: ProductionPolicy,
  flags: RecoverFlags,
  interrupts: Interrupts,
  root: string,
): Promise<void> {
  const interactive = hasOperator(flags);
  const { actor } = run;
  const prod = new Set(clusterSet.contexts.map((c) => c.name).filter((c) => production.isProduction(c)));
  let onInterrupted: (() => void) | undefined;
  const interrupted = new Promise<void>((resolve) => (onInterrupted = resolve));
  interrupts.during((count) => {
    if (count > 1) return onInterrupted?.();
    actor.send({ type: 'PAUSE' });
    process.stderr.write(
      `\nPausing: steps in flight finish, no new batch starts (Ctrl-C again to stop now; the run can be resumed either way).\n`,
    );
    void waitHeld(run).then(() => onInterrupted?.());
  });
  // the live view reads the keys in raw mode, where Ctrl-C is a key: it hands it over as an interrupt
  const view = interactiveOutput(flags)
    ? (await importView(() => import('../views/LiveRecovery.js'))).renderLiveRecovery({
        actor,
        prod,
        keys: interactive,
        onInterrupt: interrupts.trigger,
      })
    : undefined;
  let final: RunSnapshot | undefined;
  try {
    final = await Promise.race([run.settled(), interrupted.then(() => undefined)]);
  } finally {
    view?.unmount();
    await run.close();
  }
  if (!final) {
    process.stdout.write(`Paused. Resume with: kdeck recover --resume ${run.id}\n`);
    throw new SilentExit(EXIT_INTERRUPTED);
  }
  const problems = summary(final, new RunStore(root, run.id));
  if (flags.output === 'text') process.stdout.write(`${problems.lines.join('\n')}\n`);
  if (problems.failed) throw new SilentExit(1);
}

const QUIET = new Set(['held', 'paused', 'stopped', 'aborted', 'done']);

/** Resolves once no cluster has a step in flight (all held, paused, stopped or through). */
async function waitHeld(run: LiveRun): Promise<void> {
  const s = run.actor.getSnapshot();
  const refs = s.context.started
    .map((c) => s.children[clusterActorId(c)] as ClusterActor | undefined)
    .filter((r): r is ClusterActor => r !== undefined);
  // a cluster machine that ends while we wait (aborted, finished) is as quiet as it gets
  await Promise.all(
    refs.map((r) =>
      waitFor(r, (x) => x.status !== 'active' || QUIET.has(String(x.value)), { timeout: Infinity }).catch(
        () => undefined,
      ),
    ),
  );
}

function summary(final: RunSnapshot, store: RunStore): { lines: string[]; failed: boolean } {
  const lines = [''];
  let failed = false;
  for (const c of final.context.clusters) {
    const result = final.context.settled[c] ?? { end: 'aborted', outcomes: [] };
    const count = (o: string) => result.outcomes.filter((x) => x === o).length;
    const n = result.outcomes.length;
    const detail = `${count('done')} of ${n} batch${n === 1 ? '' : 'es'} verified${count('failed') ? `, ${count('failed')} failed` : ''}${count('skipped') ? `, ${count('skipped')} skipped` : ''}`;
    if (result.end !== 'done' || count('failed') || count('skipped')) failed = true;
    const why = result.failure ? `: ${result.failure.reason}: ${result.failure.message}` : '';
    lines.push(`${c}: ${result.end} (${detail})${why}`);
  }
  if (final.matches('cancelled')) lines.push('Recovery cancelled: nothing was changed.');
  else if (failed) {
    const stopped = Object.values(final.context.settled).some((r) => r.end === 'stopped');
    lines.push(
      `Recovery finished with failures.${stopped ? ` Once the cause is fixed, resume with: kdeck recover --resume ${final.context.runId}` : ''}`,
    );
  } else lines.push('Recovery complete: every batch verified.');
  if (store.record().predicted) {
    lines.push('Against the rehearsal:');
    for (const e of store.auditLog())
      if (e.action === 'batch' && e.outcome === 'verified' && e.detail)
        lines.push(`  ${e.cluster ?? ''} ${e.target ?? ''}: ${e.detail}`);
  }
  lines.push(`Audit log: .kdeck/runs/${final.context.runId}/audit.jsonl`);
  return { lines, failed };
}
