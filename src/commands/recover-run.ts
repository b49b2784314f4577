/**
 * What `kdeck recover` does: resolve the runbook's hostnames (the clusters, or a CMDB file),
 * compile the runbook with the cmdb plugin, print its plan, and (unless `--plan`) run it after
 * approval as a persisted, resumable recovery machine; `--resume RUN_ID` carries a run on.
 */
import path from 'node:path';
import readline from 'node:readline/promises';
import type { Command } from 'commander';
import { createElement } from 'react';
import { render } from 'ink';
import { waitFor } from 'xstate';
import type { ClusterSet } from '../cluster/cluster-set.js';
import { isProdContext } from '../cluster/prod.js';
import { findWorkspaceRoot } from '../konfig/workspace.js';
import { parseOptionArg } from '../kcl/run.js';
import { resolveFromClusters, resolveFromFile, type HostTable, type PodSource } from '../recovery/cmdb.js';
import { planText } from '../recovery/plan-text.js';
import { compileRunbook, hostsOf, requireTargets } from '../recovery/runbook.js';
import { LiveRecovery } from '../views/LiveRecovery.js';
import { SilentExit, UserError } from '../diagnostics/user-error.js';
import type { ClusterActor } from '../workflows/recovery/cluster-machine.js';
import { launchRun, resumeRun, type OpenOptions } from '../workflows/recovery/launch.js';
import type { RunPlan } from '../workflows/recovery/model.js';
import { clusterActorId, clustersOf, type RunSnapshot } from '../workflows/recovery/run-machine.js';
import { RunStore } from '../workflows/recovery/run-store.js';
import type { LiveRun, RunUpdate } from '../workflows/recovery/runner.js';
import { globalFlags, type GlobalFlags } from './command-flags.js';
import type { RecoverFlags } from './recover.js';
import { openClusters } from '../app/workspace.js';
import { updateLine } from '../workflows/recovery/update-line.js';

async function hostTable(
  hosts: string[],
  flags: RecoverFlags,
  clusters: () => Promise<ClusterSet>,
): Promise<HostTable> {
  if (flags.cmdb) return resolveFromFile(hosts, path.resolve(flags.cmdb));
  if (hosts.length === 0) return { records: [], unresolved: [] };
  const clusterSet = await clusters();
  const sources = new Map<string, PodSource>(clusterSet.contexts.map((c) => [c.name, clusterSet.client(c.name)]));
  return resolveFromClusters(hosts, sources);
}

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
  if (!flags.plan && global.readOnly)
    throw new UserError(
      'a recovery restarts pods and is refused in --read-only mode; `--plan` shows what it would do',
      2,
    );
  const runbookFile = path.resolve(file);
  const root = findWorkspaceRoot(path.dirname(runbookFile));
  const options = flags.argument.map(parseOptionArg);
  // a plan from a CMDB file needs no cluster: the clusters are opened when first needed
  let opened: Awaited<ReturnType<typeof openClusters>> | undefined;
  const clusterSetOnce = async () => (opened ??= await openClusters(global, root)).clusterSet;
  const beforeStart = untilInterrupted();
  try {
    const table = await beforeStart.race(hostTable(hostsOf(options), flags, clusterSetOnce));
    const { plan, printed } = compileRunbook(runbookFile, options, table);
    if (printed) process.stderr.write(printed);
    if (flags.plan) {
      process.stdout.write(
        flags.output === 'json'
          ? `${JSON.stringify(plan, null, 2)}\n`
          : `${planText(plan)}\nPlan only: nothing was changed.\n`,
      );
      return;
    }
    if (flags.output === 'text') process.stdout.write(planText(plan));
    requireTargets(plan, '; check the hostnames, or give a CMDB file with --cmdb');
    const clusterSet = await beforeStart.race(clusterSetOnce());
    await beforeStart.race(approve([...new Set(plan.batches.map((b) => b.cluster))], clusterSet, flags));
    beforeStart.dispose();
    const run = await launchRun(root, path.relative(root, runbookFile), options, plan, clusterSet, openOptions(flags));
    run.actor.send({ type: 'APPROVE' });
    await follow(run, clusterSet, flags);
  } finally {
    beforeStart.dispose();
    await opened?.close();
  }
}

const NOT_STARTED = 'Interrupted before the recovery started: nothing was changed.';

/** Ctrl-C while hostnames resolve, clusters open or the approval is asked ends the command at
 * once with exit 130: no run exists yet, so there is nothing to pause or resume. */
function untilInterrupted(): { race<T>(work: Promise<T>): Promise<T>; dispose(): void } {
  let onInterrupt: (() => void) | undefined;
  const interrupted = new Promise<never>((_, reject) => (onInterrupt = () => reject(new UserError(NOT_STARTED, 130))));
  // a race that lost to the work leaves this promise rejected later; that is not an error
  interrupted.catch(() => undefined);
  const listener = () => onInterrupt?.();
  process.on('SIGINT', listener);
  return {
    race: (work) => Promise.race([work, interrupted]),
    dispose: () => void process.off('SIGINT', listener),
  };
}

async function resumeRecover(id: string, flags: RecoverFlags, global: GlobalFlags): Promise<void> {
  if (global.readOnly) throw new UserError('resuming a recovery restarts pods and is refused in --read-only mode', 2);
  const root = findWorkspaceRoot(process.cwd());
  const store = new RunStore(root, id);
  const { clusterSet, close } = await openClusters(global, root);
  try {
    const resumed = await resumeRun(store, clusterSet, openOptions(flags));
    if (resumed.kind === 'over') {
      process.stdout.write(`${resumed.message}\n`);
      return;
    }
    const { run, record } = resumed;
    if (!resumed.approved) {
      await approve(clustersOf(record.plan), clusterSet, flags).catch(async (e: unknown) => {
        await run.close();
        throw e;
      });
    }
    resumed.go();
    if (flags.output === 'text')
      process.stdout.write(
        `Resuming run ${id} (${record.plan.runbook}, started ${record.createdAt} by ${record.who}).\n`,
      );
    await follow(run, clusterSet, flags);
  } finally {
    await close();
  }
}

/** Typed cluster names for production contexts; yes/no (or --yes) otherwise. */
async function approve(clusters: string[], clusterSet: ClusterSet, flags: RecoverFlags): Promise<void> {
  const prod = clusters.filter((c) => isProdContext(clusterSet.contexts.find((x) => x.name === c) ?? { name: c }));
  const interactive = process.stdin.isTTY && process.stdout.isTTY;
  if (prod.length) {
    const given = (flags.confirm ?? '').split(',').filter(Boolean).sort();
    if (given.join(',') === [...prod].sort().join(',')) return;
    if (!interactive)
      throw new UserError(
        `the run touches production clusters (${prod.join(', ')}); confirm them by name with --confirm ${prod.join(',')}`,
        2,
      );
    const answer = await ask(
      `This restarts pods in production (${prod.join(', ')}). Type the cluster names to go on: `,
    );
    if (
      answer
        .split(/[\s,]+/)
        .filter(Boolean)
        .sort()
        .join(',') !== [...prod].sort().join(',')
    )
      throw new UserError('the names did not match: nothing was changed', 1);
    return;
  }
  if (flags.yes) return;
  if (!interactive)
    throw new UserError(
      'a recovery needs a confirmation and there is no terminal to ask on; review it with --plan, then pass --yes',
      2,
    );
  const answer = (await ask('Run this recovery? [yes/no] ')).toLowerCase();
  if (answer !== 'yes' && answer !== 'y') throw new UserError('Recovery cancelled: nothing was changed.', 1);
}

async function ask(question: string): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  // at the prompt the terminal is raw, so Ctrl-C reaches readline, not the process
  const cancelled = new Promise<never>((_, reject) =>
    rl.once('SIGINT', () => {
      process.stdout.write('\n');
      reject(new UserError(NOT_STARTED, 130));
    }),
  );
  try {
    return (await Promise.race([rl.question(question), cancelled])).trim();
  } finally {
    rl.close();
  }
}

const interactiveOutput = (flags: RecoverFlags) => flags.output === 'text' && process.stdout.isTTY === true;

const hasOperator = (flags: RecoverFlags) => interactiveOutput(flags) && process.stdin.isTTY === true;

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

/** Follows a run to its end: the live view or event lines, Ctrl-C, and the outcome as the exit code. */
async function follow(run: LiveRun, clusterSet: ClusterSet, flags: RecoverFlags): Promise<void> {
  const interactive = hasOperator(flags);
  const { actor } = run;
  const prod = new Set(clusterSet.contexts.filter(isProdContext).map((c) => c.name));
  const view = interactiveOutput(flags)
    ? render(createElement(LiveRecovery, { actor, prod, keys: interactive }), {
        exitOnCtrlC: false,
        patchConsole: false,
      })
    : undefined;

  let interrupts = 0;
  let onInterrupted: (() => void) | undefined;
  const interrupted = new Promise<void>((resolve) => (onInterrupted = resolve));
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) {
      actor.send({ type: 'PAUSE' });
      process.stderr.write(
        `\nPausing: steps in flight finish, no new batch starts (Ctrl-C again to stop now; the run can be resumed either way).\n`,
      );
      void waitHeld(run).then(() => onInterrupted?.());
    } else onInterrupted?.();
  };
  process.on('SIGINT', onSigint);
  let final: RunSnapshot | undefined;
  try {
    final = await Promise.race([run.settled(), interrupted.then(() => undefined)]);
  } finally {
    process.off('SIGINT', onSigint);
    view?.unmount();
    await run.close();
  }
  if (!final) {
    process.stdout.write(`Paused. Resume with: kdeck recover --resume ${run.id}\n`);
    throw new SilentExit(130);
  }
  const problems = summary(final);
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
  await Promise.all(
    refs.map((r) => waitFor(r, (x) => x.status !== 'active' || QUIET.has(String(x.value)), { timeout: Infinity })),
  );
}

function summary(final: RunSnapshot): { lines: string[]; failed: boolean } {
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
  lines.push(`Audit log: .kdeck/runs/${final.context.runId}/audit.jsonl`);
  return { lines, failed };
}
