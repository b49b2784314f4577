/**
 * What `kdeck apply` and `kdeck destroy` do: lock the stack, preview, confirm, then run the
 * operation machine, printing a line per resource and per health change (or a live view on a
 * terminal), and a closing summary like kusion's.
 */
import readline from 'node:readline/promises';
import type { Command } from 'commander';
import { createActor, waitFor } from 'xstate';
import { describeHolder, type LockLostError } from '../state/backend.js';
import { keepRenewed } from '../state/renewal.js';
import { SilentExit, UserError } from '../user-error.js';
import type { EngineEvent } from '../workflows/execute.js';
import type { OperationActor } from '../workflows/operation-machine.js';
import { lockStack, releaseAll, stackOperationMachine } from '../workflows/stack-operation.js';
import type { ChangeSet } from '../diff/change-set.js';
import { changeDetails, changeSummary, changeTable } from '../diff/change-text.js';
import type { Operation, OperationFlags } from './apply.js';
import { globalFlags, ignoreList } from './command-flags.js';
import { openStack, type StackSession } from './stack-session.js';
import { parseDuration } from '../duration.js';

/**
 * The live view of a terminal, loaded only there: Ink and React take longer to load than a small
 * apply takes to run, and logs and CI never draw them.
 */
async function liveView(actor: OperationActor) {
  const [{ render }, { createElement }, { LiveOperation }] = await Promise.all([
    import('ink'),
    import('react'),
    import('../ui/components/LiveOperation.js'),
  ]);
  return render(createElement(LiveOperation, { actor }), { exitOnCtrlC: false, patchConsole: false });
}

function timeoutOf(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new UserError(`--timeout ${text} is not a duration; write it like 90s, 5m or 1h`);
  return ms;
}

function eventLine(e: EngineEvent, operation: Operation): string | undefined {
  switch (e.type) {
    case 'finished':
      return e.outcome === 'succeeded'
        ? `✓ ${e.id} (${e.cluster})`
        : `✗ ${e.id} (${e.cluster}) failed: ${e.message ?? 'unknown error'}`;
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

async function confirm(operation: Operation, changeSet: ChangeSet): Promise<boolean> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    for (;;) {
      const answer = (await rl.question(`Do you want to ${operation} these changes? [yes/details/no] `))
        .trim()
        .toLowerCase();
      if (answer === 'yes' || answer === 'y') return true;
      if (answer === 'no' || answer === 'n' || answer === '') return false;
      if (answer === 'details' || answer === 'd') process.stdout.write(`\n${changeDetails(changeSet)}\n`);
    }
  } finally {
    rl.close();
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
  const concurrency = Number(flags.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new UserError(`--concurrency ${flags.concurrency} must be a whole number of at least 1`);
  const session = await openStack(flags, global);
  try {
    await operate(session, operation, flags, timeoutMs, concurrency);
  } finally {
    await session.close();
  }
}

async function operate(
  session: StackSession,
  operation: Operation,
  flags: OperationFlags,
  timeoutMs: number,
  concurrency: number,
): Promise<void> {
  const { stack, spec } = session.compile();
  const out = (text: string) => process.stdout.write(text);
  const machine = stackOperationMachine({
    stack,
    spec,
    clusters: session.clusters,
    clusterSet: session.clusterSet,
    backend: session.backend,
    operation,
    concurrency,
    timeoutMs,
    ignoreFields: ignoreList(flags),
    failFast: flags.failFast,
    forceConflicts: flags.forceConflicts,
    followHealth: flags.watch,
    onStart: () => {
      if (!process.stdout.isTTY) out(`Start ${operation === 'apply' ? 'applying' : 'destroying'} ...\n`);
    },
  });
  // the stack's states are locked before planning, so the plan is made on a state nobody else
  // is changing and a second operation on the stack is refused, naming this one; the locks are
  // renewed while it runs, and if one is lost nothing new starts
  const locks = await lockStack(session.backend, session.clusters, stack, spec, operation);
  for (const l of locks)
    if (l.tookOverFrom)
      process.stderr.write(
        `kdeck: took over the stale lock of ${describeHolder(l.tookOverFrom)}: its holder stopped without releasing it\n`,
      );
  const actor = createActor(machine, { input: { autoApprove: false } });
  let lost: LockLostError | undefined;
  const renewal = keepRenewed(locks, (e) => {
    lost = e;
    actor.send({ type: 'CANCEL' });
  });
  try {
    await runOperation(actor, operation, flags, out);
  } catch (e) {
    // an operation stopped because its lock was lost says so, not just that it was interrupted
    throw lost ?? e;
  } finally {
    renewal.stop();
    await releaseAll(locks);
  }
}

async function runOperation(
  actor: OperationActor,
  operation: Operation,
  flags: OperationFlags,
  out: (text: string) => void,
): Promise<void> {
  // the machine waits for approval; the command gives it (or not) after showing the plan
  actor.start();
  const planned = await waitFor(actor, (s) => s.matches('awaitingApproval') || s.status === 'done', {
    timeout: Infinity,
  });
  if (planned.value === 'failed') throw new UserError(planned.context.error ?? `${operation} failed while planning`, 1);
  const changeSet = planned.context.changeSet!;
  out(changeTable(changeSet));
  out(changeSummary(changeSet));
  if (planned.status === 'done') return;
  if (flags.dryRun) {
    actor.send({ type: 'REJECT' });
    out(`\n${changeDetails(changeSet)}\nDry run: nothing was changed.\n`);
    return;
  }
  if (!flags.yes) {
    if (!process.stdin.isTTY) {
      actor.send({ type: 'REJECT' });
      throw new UserError(
        `${operation} needs a confirmation and there is no terminal to ask on; review with \`kdeck preview -d\`, then pass --yes`,
      );
    }
    if (!(await confirm(operation, changeSet))) {
      actor.send({ type: 'REJECT' });
      out(`${operation === 'apply' ? 'Apply' : 'Destroy'} cancelled: nothing was changed.\n`);
      return;
    }
  }
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) {
      out(
        '\nInterrupted: no new resource starts; waiting for the ones in flight and saving the state (Ctrl-C again to quit now; the state file is always consistent)\n',
      );
      actor.send({ type: 'CANCEL' });
    } else process.exit(130);
  };
  process.on('SIGINT', onSigint);
  // on a terminal a live view redraws in place; otherwise one line per event, for logs and CI
  const view = process.stdout.isTTY ? await liveView(actor) : undefined;
  let seen = 0;
  if (!view) {
    actor.subscribe((s) => {
      // the log keeps the last events only: what is new is counted, not found at an index
      for (const e of s.context.log.slice(
        s.context.log.length - Math.min(s.context.logCount - seen, s.context.log.length),
      )) {
        const line = eventLine(e, operation);
        if (line) out(`${line}\n`);
      }
      seen = s.context.logCount;
    });
  }
  actor.send({ type: 'APPROVE' });
  const final = await waitFor(actor, (s) => s.status === 'done', { timeout: Infinity });
  process.off('SIGINT', onSigint);
  if (view) {
    view.unmount();
    for (const e of final.context.log)
      if (e.type === 'finished' && e.outcome === 'failed') out(`${eventLine(e, operation)}\n`);
  }
  const { result, error } = final.context;
  if (final.value === 'failed' && error) throw new UserError(error, 1);
  const c = result?.counts ?? { created: 0, updated: 0, deleted: 0 };
  const totals =
    operation === 'apply' ? `${c.created} created, ${c.updated} updated, ${c.deleted} deleted` : `${c.deleted} deleted`;
  const Op = operation === 'apply' ? 'Apply' : 'Destroy';
  if (final.value === 'done') {
    out(`${Op} complete! Resources: ${totals}.\n`);
    return;
  }
  if (final.value === 'interrupted') {
    out(
      `${Op} interrupted. Resources: ${totals}; ${result?.notStarted.length ?? 0} not started. The state records what reached the cluster; run ${operation} again to finish.\n`,
    );
    throw new SilentExit(130);
  }
  throw new UserError(
    `${Op} failed: ${result?.failed.length ?? 0} failed, ${result?.skipped.length ?? 0} skipped (they depend on a failure). Resources: ${totals}.`,
    1,
  );
}
