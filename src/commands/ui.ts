/**
 * `kdeck ui [WORKSPACE]` (and a bare `kdeck` on a terminal): the console. It needs a terminal
 * for its keys; without one it says which commands do the same work non-interactively. The
 * Ink app is loaded only when the console runs.
 */
import { Command } from 'commander';
import { UserError } from '../diagnostics/user-error.js';
import { globalFlags } from './command-flags.js';

export const NON_INTERACTIVE =
  'kdeck ls (stacks), kdeck preview -d (the plan and its diff), kdeck apply --yes, kdeck destroy --yes, kdeck recover RUNBOOK.k --plan';

export function interactive(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}

export async function runUi(workspace: string | undefined, command: Command): Promise<void> {
  if (!interactive()) {
    throw new UserError(
      `kdeck ui is an interactive console and needs a terminal (stdin and stdout are not both a TTY here); without one, use the commands: ${NON_INTERACTIVE}`,
    );
  }
  (await import('../ui/runtime.js')).tuneConsoleRuntime();
  const { runConsole } = await import('../ui/start.js');
  await runConsole(workspace ?? '.', globalFlags(command));
}

export function uiCommand(): Command {
  return new Command('ui')
    .description(
      'the console: stacks, resource graph, three-way diff, apply and recovery, in watch mode (global flags: --sandbox, --kubeconfig, --context (repeatable), --read-only)',
    )
    .argument('[workspace]', 'a Konfig repository, or a project or stack folder in one (default: the current folder)')
    .action(async (workspace: string | undefined, _flags: unknown, command: Command) => {
      await runUi(workspace, command);
    });
}
