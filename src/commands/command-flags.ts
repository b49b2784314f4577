/**
 * The flags the stack commands share (kusion's compile flags) and kdeck's global flags. Kept
 * apart from the sessions they open, so that defining the commands loads nothing heavy.
 */
import type { Command } from 'commander';
import type { CompileOptions } from '../konfig/compile.js';
import type { WorkspaceOptions } from '../app/workspace.js';

export type GlobalFlags = WorkspaceOptions;

export interface StackFlags {
  workdir?: string;
  setting: string[];
  argument: string[];
  overrides: string[];
  ignoreFields?: string;
}

export const collect = (value: string, previous: string[]) => [...previous, value];
/** `-Y a.yaml,b.yaml -Y c.yaml`: kusion takes both lists and repeats. */
export const collectList = (value: string, previous: string[]) => [...previous, ...value.split(',').filter(Boolean)];

/** The compile flags kusion shares between compile, preview, apply and destroy. */
export function withStackOptions(cmd: Command): Command {
  return cmd
    .option('-w, --workdir <dir>', 'the stack folder (default: the current folder)')
    .option(
      '-Y, --setting <files>',
      'settings files, comma-separated or repeated (default: ci-test/settings.yaml if present, then kcl.yaml)',
      collectList,
      [],
    )
    .option('-D, --argument <key=value>', 'a top-level argument, read with option("key")', collect, [])
    .option('-O, --overrides <spec>', 'change a value before running: path.to.key=value, or path.to.key-', collect, []);
}

export function globalFlags(cmd: Command): GlobalFlags {
  return cmd.optsWithGlobals<GlobalFlags>();
}

/** What the compile flags ask of the compiler. */
export const compileOptions = (flags: StackFlags): CompileOptions => ({
  settings: flags.setting,
  arguments: flags.argument,
  overrides: flags.overrides,
});

export const ignoreList = (flags: StackFlags) => (flags.ignoreFields ?? '').split(',').filter(Boolean);
