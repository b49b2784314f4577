/**
 * The flags the stack commands share (kusion's compile flags) and kdeck's global flags. Kept
 * apart from the sessions they open, so that defining the commands loads nothing heavy.
 */
import type { Command } from 'commander';

export interface GlobalFlags {
  kubeconfig?: string;
  context?: string;
  readOnly?: boolean;
  sandbox?: boolean;
}

export interface StackFlags {
  workdir?: string;
  setting: string[];
  argument: string[];
  overrides: string[];
  ignoreFields?: string;
}

export const collect = (value: string, previous: string[]) => [...previous, value];
export const collectList = (value: string, previous: string[]) => [...previous, ...value.split(',').filter(Boolean)];

/** The compile flags kusion shares between compile, preview, apply and destroy. */
export function withStackOptions(cmd: Command): Command {
  return cmd
    .option('-w, --workdir <dir>', 'the stack folder (default: the current folder)')
    .option('-Y, --setting <files>', 'settings files, comma-separated or repeated', collectList, [])
    .option('-D, --argument <key=value>', 'a top-level argument, read with option("key")', collect, [])
    .option('-O, --overrides <spec>', 'change a value before running: path.to.key=value, or path.to.key-', collect, []);
}

export function globalFlags(cmd: Command): GlobalFlags {
  return cmd.optsWithGlobals<GlobalFlags>();
}

export const ignoreList = (flags: StackFlags) => (flags.ignoreFields ?? '').split(',').filter(Boolean);
