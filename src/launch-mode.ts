/**
 * How far V8 compiles a kdeck process's code, decided from its command line before the script
 * runs (src/launch.ts): the flags are part of what V8 checks its kept code against, so they are
 * set before the script is compiled, and each mode keeps code of its own.
 *
 * A one-shot command (compile, preview, apply, recover, …) lives a second or two. V8's optimizing
 * compiler, TurboFan, spent more CPU on such a run's warm functions, on threads of its own, than
 * its code saved the run: of an apply's 650 ms of CPU (301 resources, on the sandbox), about 200
 * were TurboFan's, and on a laptop that CPU is the local cluster's too. A one-shot command stops
 * below TurboFan. What runs for hours keeps every tier: the console, and a sandbox served in the
 * foreground.
 */

/** The root options that take a value (src/cli.ts): the word after one is not the command. */
export const VALUE_OPTIONS = ['--kubeconfig', '--context', '--state-backend', '--state-context', '--state-namespace'];

/** The root options that print and exit, whatever else the command line says. */
const PRINTING_OPTIONS = ['-h', '--help', '-v', '--version'];

/** The commands that run until they are stopped; a bare `kdeck` is the console too. */
const LONG_RUNNING = ['ui', 'sandbox'];

/** The V8 flags of a one-shot command: no tier above Maglev (which Node 20 leaves off), so Sparkplug's. */
export const ONE_SHOT_V8_FLAGS = '--max-opt=2';

/**
 * Whether `args` (the arguments after the script) start a process that runs until stopped:
 * `kdeck ui …`, a bare `kdeck`, `kdeck sandbox …`. A wrong guess costs speed, never behaviour.
 */
export function runsLong(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (PRINTING_OPTIONS.includes(arg)) return false;
    if (!arg.startsWith('-')) return LONG_RUNNING.includes(arg);
    if (VALUE_OPTIONS.includes(arg)) i++;
  }
  return true;
}
