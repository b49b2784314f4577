/**
 * `kdeck sandbox stop` and `kdeck sandbox status`: the workspace's shared sandbox, the one that
 * `--sandbox` attaches to (started by the first kdeck that needs it, stopping by itself once no
 * kdeck has held it for a while). The work is the application layer's, loaded when it runs, as
 * is the workspace reader (it brings the compiler's loader and parser).
 */
import path from 'node:path';
import { Command } from 'commander';

const WORKSPACE_ARG = 'a Konfig repository, or a folder in one (default: the current folder)';

export function sandboxStopCommand(): Command {
  return new Command('stop')
    .description("stop the workspace's shared sandbox (the one --sandbox attaches to); its objects are kept")
    .argument('[workspace]', WORKSPACE_ARG)
    .action(async (workspace: string | undefined) => {
      const { findWorkspaceRoot } = await import('../konfig/workspace.js');
      const root = findWorkspaceRoot(workspace ?? '.');
      const { stopWorkspaceSandbox, WORKSPACE_SANDBOX_DIR } = await import('../app/workspace-sandbox.js');
      const state = path.join(root, WORKSPACE_SANDBOX_DIR, 'state.json');
      const out = await stopWorkspaceSandbox(root);
      if (out.pid === undefined) {
        process.stdout.write(
          out.stale
            ? `The workspace sandbox was no longer running; removed what it left behind in ${path.join(root, WORKSPACE_SANDBOX_DIR)}.\n`
            : `No workspace sandbox is running in ${root}.\n`,
        );
        return;
      }
      const held = out.holders
        ? ` ${out.holders} kdeck process${out.holders === 1 ? ' was' : 'es were'} still attached and will lose their clusters.`
        : '';
      process.stdout.write(
        `Stopped the workspace sandbox (pid ${out.pid}); its objects are saved in ${state}.${held}\n`,
      );
    });
}

export function sandboxStatusCommand(): Command {
  return new Command('status')
    .description("whether the workspace's shared sandbox runs, where, and for how long it waits without a holder")
    .argument('[workspace]', WORKSPACE_ARG)
    .action(async (workspace: string | undefined) => {
      const { findWorkspaceRoot } = await import('../konfig/workspace.js');
      const root = findWorkspaceRoot(workspace ?? '.');
      const { workspaceSandbox } = await import('../app/workspace-sandbox.js');
      const running = await workspaceSandbox(root);
      if (!running) {
        process.stdout.write(`No workspace sandbox is running in ${root}; kdeck --sandbox starts one.\n`);
        return;
      }
      const lines = [
        `The workspace sandbox runs (pid ${running.pid}, since ${running.started}):`,
        ...running.clusters.map((c) => `  sandbox-${c.name.padEnd(6)} ${c.url}`),
        `kubeconfig: ${running.kubeconfig}`,
        `It stops after ${Math.round(running.idleTimeoutMs / 1000)} s without a kdeck attached, or with kdeck sandbox stop.`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
