/**
 * `kdeck ls`: the projects and stacks of a Konfig repository with their clusters, like
 * `kusion ls`. What it does is in ls-run.ts, loaded when it runs: reading a workspace brings the
 * compiler's loader and parser, and YAML.
 */
import { Command, Option } from 'commander';

const FORMATS = ['human', 'json', 'yaml', 'tree'] as const;
export type Format = (typeof FORMATS)[number];

export function lsCommand(): Command {
  return new Command('ls')
    .description('list the projects and stacks of a Konfig repository, with their clusters (like `kusion ls`)')
    .argument('[dir]', 'a folder of the repository (default: the current folder)')
    .addOption(new Option('--format <format>', 'output format').choices(FORMATS).default('human'))
    .action(async (dir: string | undefined, flags: { format: Format }) => {
      const { listWorkspace } = await import('./ls-run.js');
      listWorkspace(dir, flags.format);
    });
}
