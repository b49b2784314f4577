/**
 * What `kdeck kcl run` does: the KCL compiler as `kcl run` offers it, same YAML on stdout,
 * diagnostics on stderr.
 */
import fs from 'node:fs';
import { isRuntimeKind, KclError, kclError } from '../diagnostics/diagnostics.js';
import { parseOptionArg, runKcl, type RunOptions } from '../kcl/run.js';
import { runOptionsFromSettings } from '../kcl/settings.js';
import { runGuardsFrom } from '../kcl/run-guards.js';

/** Commander keeps kcl's snake_case flag names as they are. */
export interface KclRunFlags {
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

export function runKclFiles(files: string[], flags: KclRunFlags, readOnly: boolean | undefined): void {
  const opts = runOptionsFrom(files, flags, process.cwd());
  opts.guards = runGuardsFrom(flags.timeout, '--timeout', readOnly);
  const result = flags.debug ? withBacktrace(() => runKcl(opts)) : runKcl(opts);
  if (flags.output) {
    fs.writeFileSync(flags.output, result.printed + result.yaml);
    return;
  }
  process.stdout.write(result.printed + result.yaml);
}
