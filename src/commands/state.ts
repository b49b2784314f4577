/**
 * `kdeck state ls | show | history | unlock | migrate`: the recorded states of a workspace, one
 * stack's state and its last operations, removing a lock an operation left behind, and moving
 * every state to the other backend. What they do is in state-run.ts, loaded when one runs.
 */
import { Command, Option } from 'commander';
import { BACKENDS } from '../state/backend.js';

export interface StackStateFlags {
  workdir: string;
  cluster?: string;
}

export interface ShowFlags extends StackStateFlags {
  showSecrets?: boolean;
}

export interface HistoryFlags extends StackStateFlags {
  last: string;
}

export interface UnlockFlags extends StackStateFlags {
  force?: boolean;
  yes?: boolean;
}

export interface MigrateFlags {
  to: (typeof BACKENDS)[number];
}

const run = () => import('./state-run.js');

const stackOptions = (cmd: Command) =>
  cmd
    .option('-w, --workdir <dir>', 'the stack folder', '.')
    .option('--cluster <name>', 'only the state on this cluster');

export function stateCommand(): Command {
  const state = new Command('state').description(
    'the recorded state of stacks: what kdeck last applied, its locks and its last operations',
  );
  state
    .command('ls')
    .description('list the states of the workspace, with who holds their locks')
    .argument('[dir]', 'a folder of the workspace', '.')
    .action(async (dir: string, _flags: unknown, command: Command) => (await run()).listStates(dir, command));
  stackOptions(state.command('show'))
    .description('print the state of the stack in the current folder (Secret values masked)')
    .option('--show-secrets', 'print Secret values')
    .action(async (flags: ShowFlags, command: Command) => (await run()).showState(flags, command));
  stackOptions(state.command('history'))
    .description("the stack's last operations: who ran what, when, and how it ended")
    .option('-n, --last <count>', 'how many operations', '10')
    .action(async (flags: HistoryFlags, command: Command) => (await run()).showHistory(flags, command));
  stackOptions(state.command('unlock'))
    .description('remove the lock of the stack in the current folder: one that ran out, or with --force any lock')
    .option('--force', 'remove a lock that has not run out (its operation must be gone)')
    .option('-y, --yes', 'with --force: do not ask for confirmation')
    .action(async (flags: UnlockFlags, command: Command) => (await run()).unlockState(flags, command));
  state
    .command('migrate')
    .description('copy every state of the workspace to the other backend, verified, while no stack is locked')
    .argument('[dir]', 'a folder of the workspace', '.')
    .addOption(
      new Option('--to <backend>', 'the backend to move the states to').choices(BACKENDS).makeOptionMandatory(),
    )
    .action(async (dir: string, flags: MigrateFlags, command: Command) => (await run()).migrate(dir, flags, command));
  return state;
}
