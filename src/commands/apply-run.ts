/**
 * What `kdeck apply` and `kdeck destroy` do, on the application layer's stack operation: plan
 * under the stack's lock, print the plan, apply the policies (conflicts, production), ask or take
 * the flags' word, then follow the run, a line per resource and per health change (or a live view
 * on a terminal), and close with kusion's summary.
 */
import os from 'node:os';
import type { Command } from 'commander';
import { workspaceProduction } from '../app/policy/production.js';
import { flagVerdict, refuseUnlessAllowed, typedApproves, typedText } from '../app/policy/confirmation.js';
import { conflictRefusal, FORCE_ON_COMMAND_LINE } from '../app/policy/conflicts.js';
import { EXIT_INTERRUPTED, Interrupts, nothingChanged } from '../app/policy/interrupts.js';
import { LOCAL_CLUSTER_NICENESS, yieldsToClusters } from '../app/policy/local-cluster.js';
import { operationOutcome } from '../app/outcome.js';
import { StackOperation } from '../app/stack-operation.js';
import { openStack, type StackSession } from '../app/workspace.js';
import { parseDuration } from '../model/duration.js';
import { SilentExit, UserError } from '../diagnostics/user-error.js';
import type { EngineEvent } from '../workflows/execute.js';
import { changeDetails, changeSummary, changeTable } from '../diff/change-text.js';
import type { Operation, OperationFlags } from './apply.js';
import { compileOptions, globalFlags, ignoreList } from './command-flags.js';
import { ask } from './prompt.js';
import { importView } from '../views/ink.js';
import { interactiveTerminal } from '../terminal-env.js';

function timeoutOf(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new UserError(`--timeout ${text} is not a duration; write it like 90s, 5m or 1h`);
  return ms;
}

function graceOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseDuration(text);
  if (ms === undefined) throw new UserError(`--health-grace ${text} is not a duration; write it like 10s, 30s or 2m`);
  return ms;
}

function eventLine(e: EngineEvent, operation: Operation): string | undefined {
  switch (e.type) {
    case 'finished':
      if (e.outcome === 'succeeded') return `✓ ${e.id} (${e.cluster})`;
      if (e.outcome === 'failed') return `✗ ${e.id} (${e.cluster}) failed: ${e.message ?? 'unknown error'}`;
      // stopped or forgotten: neither is done, so say what did happen
      return `${e.outcome === 'stopped' ? '◌' : '○'} ${e.id} (${e.cluster}) ${e.message ?? e.outcome}`;
    case 'skipped':
      return `- ${e.id} (${e.cluster}) skipped: it depends on ${e.because}`;
    case 'health':
      return `  ${e.id}: ${e.health.state}${e.health.reason ? ` (${e.health.reason})` : ''}: ${e.health.message}`;
    case 'changed-since-preview':
      return `! ${e.id}: ${e.message}`;
    case 'applied':
      return operation === 'apply' ? `  ${e.id}: applied` : undefined;
    case 'started':
      return undefined;
  }
}

export async function runOperationCommand(
  operation: Operation,
  flags: OperationFlags,
  command: Command,
): Promise<void> {
  const global = globalFlags(command);
  if (global.readOnly)
    throw new UserError(`${operation} changes clusters and is refused in --read-only mode; run it without --read-only`);
  const timeoutMs = timeoutOf(flags.timeout);
  const healthGraceMs = graceOf(flags.healthGrace);
  const concurrency = Number(flags.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new UserError(`--concurrency ${flags.concurrency} must be a whole number of at least 1`);
  const interrupts = new Interrupts();
  let session: StackSession | undefined;
  try {
    session = await interrupts.beforeChange(
      `the ${operation}`,
      openStack(flags.workdir, compileOptions(flags), global),
    );
    await operate(
      session,
      operation,
      flags,
      { timeoutMs, concurrency, ...(healthGraceMs !== undefined ? { healthGraceMs } : {}) },
      interrupts,
    );
  } finally {
    interrupts.dispose();
    await session?.close();
  }
}

async function operate(
  session: StackSession,
  operation: Operation,
  flags: OperationFlags,
  limits: { timeoutMs: number; concurrency: number; healthGraceMs?: number },
  interrupts: Interrupts,
): Promise<void> {
  const { stack, spec } = session.compile();
  const out = (text: string) => process.stdout.write(text);
  const op = await interrupts.beforeChange(
    `the ${operation}`,
    StackOperation.plan(
      { stack, spec, clusters: session.clusters, clusterSet: session.clusterSet, backend: session.backend },
      operation,
      {
        ...limits,
        ignoreFields: ignoreList(flags),
        failFast: flags.failFast,
        forceConflicts: flags.forceConflicts,
        followHealth: flags.watch,
        onStart: () => {
          if (!process.stdout.isTTY) out(`Start ${operation === 'apply' ? 'applying' : 'destroying'} ...\n`);
        },
      },
      (text) => process.stderr.write(`kdeck: ${text}\n`),
    ),
  );
  if (op.planned.kind === 'failed') throw new UserError(op.planned.error, 1);
  const changeSet = op.planned.changeSet;
  out(changeTable(changeSet));
  out(changeSummary(changeSet));
  if (op.planned.kind === 'nothing') return;
  let stop: string | undefined;
  try {
    stop = await approve(op, operation, flags, session, interrupts);
  } catch (e) {
    await op.reject();
    throw e;
  }
  if (stop !== undefined) {
    await op.reject();
    out(stop);
    return;
  }
  const local = yieldsToClusters(op.touched().map((c) => session.clusterSet.config(c).server));
  await follow(op, operation, interrupts, out, local);
}

/**
 * The policies before anything changes: conflicts, then the confirmation production needs.
 * Resolves to undefined to go on, or to what to say when the user chose to change nothing.
 */
async function approve(
  op: StackOperation,
  operation: Operation,
  flags: OperationFlags,
  session: StackSession,
  interrupts: Interrupts,
): Promise<string | undefined> {
  const refusal = conflictRefusal(op.conflicts(), flags.forceConflicts === true, FORCE_ON_COMMAND_LINE);
  if (refusal) throw new UserError(`${refusal}. Nothing was changed.`, 1);
  const changeSet = op.planned.kind === 'failed' ? undefined : op.planned.changeSet;
  if (flags.dryRun) return `\n${changeSet ? changeDetails(changeSet) : ''}\nDry run: nothing was changed.\n`;
  const policy = workspaceProduction(session.root, session.clusterSet.contexts);
  const approval = op.approval(policy);
  const verdict = flagVerdict(approval, flags, interactiveTerminal(), `the ${operation}`);
  refuseUnlessAllowed(verdict);
  if (verdict.kind === 'approved') return undefined;
  return interrupts.beforeChange(
    `the ${operation}`,
    (async () => {
      if (verdict.typed) {
        const answer = await ask(
          `This ${operation} touches production (${approval.production.join(', ')}). Type ${approval.production.length > 1 ? 'their names' : 'its name'} (${typedText(approval)}) to go on: `,
          interrupts,
        );
        if (!typedApproves(approval, answer))
          throw new UserError(`the names did not match ${typedText(approval)}: nothing was changed`, 1);
        return undefined;
      }
      for (;;) {
        const answer = (
          await ask(`Do you want to ${operation} these changes? [yes/details/no] `, interrupts)
        ).toLowerCase();
        if (answer === 'yes' || answer === 'y') return undefined;
        if (answer === 'no' || answer === 'n' || answer === '')
          return `${operation === 'apply' ? 'Apply' : 'Destroy'} cancelled: nothing was changed.\n`;
        if ((answer === 'details' || answer === 'd') && changeSet)
          process.stdout.write(`\n${changeDetails(changeSet)}\n`);
      }
    })(),
  );
}

/** Lowers this process's scheduling priority (see local-cluster.ts). */
function yieldCpu(): void {
  try {
    os.setPriority(LOCAL_CLUSTER_NICENESS);
  } catch {
    // a system that refuses leaves the priority as it was: the change runs all the same
  }
}

async function follow(
  op: StackOperation,
  operation: Operation,
  interrupts: Interrupts,
  out: (text: string) => void,
  clustersAreLocal: boolean,
): Promise<void> {
  interrupts.during((count) => {
    if (count > 1) process.exit(EXIT_INTERRUPTED);
    out(
      '\nInterrupted: no new resource starts; the calls in flight finish and the state is saved (Ctrl-C again to quit now; the state is consistent either way)\n',
    );
    op.interrupt();
  });
  // on a terminal a live view redraws in place; otherwise one line per event, for logs and CI
  const view = process.stdout.isTTY
    ? (await importView(() => import('../views/LiveOperation.js'))).renderLiveOperation(op.actor)
    : undefined;
  let seen = 0;
  if (!view) {
    op.actor.subscribe((s) => {
      // the log keeps the last events only: what is new is counted, not found at an index; the
      // lines of one update go out in one write (a write per line cost a system call each)
      let lines = '';
      for (const e of s.context.log.slice(
        s.context.log.length - Math.min(s.context.logCount - seen, s.context.log.length),
      )) {
        const line = eventLine(e, operation);
        if (line) lines += `${line}\n`;
      }
      seen = s.context.logCount;
      if (lines) out(lines);
    });
  }
  if (clustersAreLocal) yieldCpu();
  op.approve();
  const final = await op.finished((text) => process.stderr.write(`kdeck: ${text}\n`));
  if (view) {
    view.unmount();
    for (const e of final.context.log)
      if (e.type === 'finished' && e.outcome === 'failed') out(`${eventLine(e, operation)}\n`);
  }
  if (op.lostLock) throw op.lostLock;
  const outcome = operationOutcome(final, operation);
  switch (outcome.kind) {
    case 'done':
      out(`${outcome.text}\n`);
      return;
    case 'interrupted':
      out(`${outcome.text}\n`);
      throw new SilentExit(EXIT_INTERRUPTED);
    case 'cancelled':
      throw new UserError(nothingChanged(`the ${operation}`), EXIT_INTERRUPTED);
    default:
      throw new UserError(outcome.text, 1);
  }
}
