/**
 * `kdeck sandbox`: starts sandbox clusters on this machine, writes a kubeconfig for them, says
 * how to use it with kubectl, and runs until Ctrl-C. The command and its flags; what it does is
 * in sandbox-run.ts, loaded when it runs.
 */
import { Command, InvalidArgumentError } from 'commander';
import { MAX_CLUSTERS } from '../sandbox/cluster-names.js';
import { sandboxStatusCommand, sandboxStopCommand } from './sandbox-daemon.js';

export interface SandboxFlags {
  clusters: number;
  nodes: number;
  kubeconfig?: string;
  seed?: string;
  state?: string;
  readinessDelay: number;
}

function positiveInt(max: number) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > max)
      throw new InvalidArgumentError(`give a whole number from 1 to ${max}`);
    return n;
  };
}

function milliseconds(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('give a number of milliseconds, 0 or more');
  return n;
}

export function sandboxCommand(): Command {
  return (
    new Command('sandbox')
      .description('run sandbox Kubernetes clusters on this machine and write a kubeconfig for kubectl')
      .option('--clusters <n>', `how many clusters (a, b, c, …; at most ${MAX_CLUSTERS})`, positiveInt(MAX_CLUSTERS), 2)
      .option('--nodes <n>', 'fake nodes per cluster', positiveInt(100), 3)
      .option(
        '--kubeconfig <file>',
        'write the kubeconfig here (merged into the file if it exists); default a temporary file',
      )
      .option('--seed <file>', 'YAML or JSON objects every cluster starts with')
      .option('--state <file>', "keep the clusters' objects in this file across restarts")
      .option('--readiness-delay <ms>', 'how long a started container takes to become ready', milliseconds, 1000)
      // `--kubeconfig` is also kdeck's global flag, which commander hands to the root command
      .action(async (flags: SandboxFlags, command: Command) => {
        const { runSandbox } = await import('./sandbox-run.js');
        await runSandbox({ ...flags, kubeconfig: command.optsWithGlobals<SandboxFlags>().kubeconfig });
      })
      // the workspace's shared sandbox, the one --sandbox attaches to
      .addCommand(sandboxStopCommand())
      .addCommand(sandboxStatusCommand())
  );
}
