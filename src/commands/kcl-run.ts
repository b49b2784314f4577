/**
 * `kdeck kcl run`: the KCL compiler as `kcl run` offers it, same YAML on stdout, diagnostics on
 * stderr.
 */
import fs from 'node:fs';
import { Command, Option } from 'commander';
import { isRuntimeKind, KclError, kclError } from '../diagnostics/diagnostics.js';
import { parseOptionArg, runKcl, type RunOptions } from '../kcl/run.js';
import { runOptionsFromSettings } from '../kcl/settings.js';
import { runGuardsFrom } from '../kcl/run-guards.js';
import { collect, globalFlags } from './command-flags.js';

/** Commander keeps kcl's snake_case flag names as they are. */
interface KclRunFlags {
  argument: string[];
  path_selector: string[];
  overrides: string[];
  setting: string[];
  disable_none?: boolean;
  sort_keys?: boolean;
  show_hidden?: boolean;
  output?: string;
  debug?: boolean;
  strict_range_check?: boolean;
  list_options?: boolean;
  external: string[];
  timeout?: string;
}

/** Options kdeck parses but does not implement yet: refused with a sentence, never ignored. */
function refuseUnsupported(flags: KclRunFlags): void {
  const unsupported: [boolean, string][] = [
    [flags.strict_range_check === true, '-r/--strict_range_check'],
    [flags.list_options === true, '-l/--list_options'],
    [flags.external.length > 0, '-E/--external'],
  ];
  for (const [given, name] of unsupported) {
    if (given) throw kclError('UsageError', `${name} is not supported by kdeck kcl run yet; run without it`);
  }
}

export function runOptionsFrom(files: string[], flags: KclRunFlags, cwd: string): RunOptions {
  refuseUnsupported(flags);
  const opts = runOptionsFromSettings(flags.setting, cwd);
  // as kcl: the command line's files first, then those the settings files name
  opts.files = [...files, ...opts.files];
  opts.options = [...(opts.options ?? []), ...flags.argument.map(parseOptionArg)];
  opts.overrides = [...(opts.overrides ?? []), ...flags.overrides];
  opts.pathSelectors = [...(opts.pathSelectors ?? []), ...flags.path_selector];
  opts.sortKeys ||= flags.sort_keys;
  opts.showHidden ||= flags.show_hidden;
  opts.disableNone ||= flags.disable_none;
  if (opts.files.length === 0)
    throw kclError('UsageError', 'no input file: give one or more .k files, or a settings file with -Y');
  return opts;
}

/** kcl's `-d` notes where a failure while running happened; kdeck knows the place in the
 * program's own code, the frame kcl calls `kcl_main`, not the frames of the calls inside it. */
export function withBacktrace<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    const d = e instanceof KclError ? e.diagnostic : undefined;
    if (!d?.position || d.note || !isRuntimeKind(d.kind)) throw e;
    throw new KclError({ ...d, note: `backtrace:\n\t0: kcl_main\n\t\tat ${d.position.file}:${d.position.line}` });
  }
}

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
    .action((files: string[], flags: KclRunFlags, cmd: Command) => {
      const opts = runOptionsFrom(files, flags, process.cwd());
      opts.guards = runGuardsFrom(flags.timeout, '--timeout', globalFlags(cmd).readOnly);
      const result = flags.debug ? withBacktrace(() => runKcl(opts)) : runKcl(opts);
      if (flags.output) {
        fs.writeFileSync(flags.output, result.printed + result.yaml);
        return;
      }
      process.stdout.write(result.printed + result.yaml);
    });
}
