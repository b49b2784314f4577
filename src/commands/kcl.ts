/**
 * `kdeck kcl run`: the command and its flags, kcl's own. What it does is in kcl-run.ts, loaded
 * when it runs, so that other commands start without the compiler.
 */
import { Command, Option } from 'commander';
import { collect, globalFlags } from './command-flags.js';
import type { KclRunFlags } from './kcl-run.js';

export function kclRunCommand(): Command {
  return new Command('run')
    .description('compile KCL files and print the result as YAML, like `kcl run`')
    .argument('[files...]', 'KCL files, compiled together as one package')
    .option('-D, --argument <key=value>', 'a top-level argument, read with option("key")', collect, [])
    .option('-S, --path_selector <path>', 'print only the value at this path', collect, [])
    .option(
      '-O, --overrides <spec>',
      'change a value before running: path.to.key=value, or path.to.key- to delete',
      collect,
      [],
    )
    .option(
      '-Y, --setting <files...>',
      'settings files (kcl_cli_configs, kcl_options)',
      (v: string, p: string[]) => [...p, v],
      [],
    )
    .option('-n, --disable_none', 'leave None values out of the output')
    .option('--sort_keys', 'sort the keys of the output')
    .option('--show_hidden', 'show private (`_`) attributes')
    .option('-o, --output <file>', 'write the YAML to a file instead of stdout')
    .option('-d, --debug', 'add the backtrace note to a failure while running, as kcl does')
    .addOption(new Option('-r, --strict_range_check').hideHelp())
    .addOption(new Option('-l, --list_options').hideHelp())
    .addOption(new Option('-E, --external <pkg=path>').argParser(collect).default([]).hideHelp())
    .option('--timeout <duration>', 'stop evaluating after this long: 500ms, 10s, 2m (off by default, as in kcl)')
    .action(async (files: string[], flags: KclRunFlags, cmd: Command) => {
      const { runKclFiles } = await import('./kcl-run.js');
      runKclFiles(files, flags, globalFlags(cmd).readOnly);
    });
}
