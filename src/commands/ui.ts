/**
 * `kdeck ui [WORKSPACE]` (and a bare `kdeck` on a terminal): the console. It needs a terminal
 * for its keys; without one it says which commands do the same work non-interactively. The
 * Ink app is loaded only when the console runs.
 */
import { Command } from 'commander';

export const NON_INTERACTIVE =
  'kdeck ls (stacks), kdeck preview -d (the plan and its diff), kdeck apply --yes, kdeck destroy --yes, kdeck recover RUNBOOK.k --plan';

/** `kdeck ui`: cli.ts, which chooses the face, gives what runs the console. */
export function uiCommand(runUi: (workspace: string | undefined, command: Command) => Promise<void>): Command {
  return new Command('ui')
    .description(
      'the console: stacks, resource graph, three-way diff, apply and recovery, in watch mode (global flags: --sandbox, --kubeconfig, --context (repeatable), --read-only)',
    )
    .argument('[workspace]', 'a Konfig repository, or a project or stack folder in one (default: the current folder)')
    .option('--show-secrets', 'show Secret values in the live YAML (y) instead of masking them')
    .action(async (workspace: string | undefined, _flags: unknown, command: Command) => {
      await runUi(workspace, command);
    });
}
