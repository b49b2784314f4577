/**
 * `kdeck compile`: a stack's Spec as YAML documents, like `kusion compile`. What it does is in
 * compile-run.ts, loaded when it runs, so that other commands start without the compiler.
 */
import { Command } from 'commander';
import { globalFlags, withStackOptions, type StackFlags } from './command-flags.js';

export interface CompileFlags extends StackFlags {
  output?: string;
  evalTimeout?: string;
}

export function compileCommand(): Command {
  const cmd = new Command('compile')
    .alias('cl')
    .description('compile a stack into its Spec: the resources as YAML documents, sorted by id (like `kusion compile`)')
    .option('-o, --output <file>', 'write the Spec to a file instead of stdout')
    .option('--eval-timeout <duration>', 'stop evaluating the KCL after this long: 500ms, 10s, 2m (off by default)');
  return withStackOptions(cmd).action(async (flags: CompileFlags, command: Command) => {
    const { runCompile } = await import('./compile-run.js');
    runCompile(flags, globalFlags(command).readOnly);
  });
}
