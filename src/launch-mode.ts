/**
 * How far V8 compiles a kdeck process's code, decided from its command line before the script
 * runs (src/launch.ts).
 *
 * A one-shot command (compile, preview, apply, recover, …) lives a second or two. V8's optimizing
 * compiler, TurboFan, spent more CPU on such a run's warm functions, on threads of its own, than
 * its code saved the run: of an apply's 650 ms of CPU (301 resources, on the sandbox), about 200
 * were TurboFan's, and on a laptop that CPU is the local cluster's too. A one-shot command runs
 * without TurboFan (Sparkplug's code is as far as it goes: Node 20 leaves Maglev off). What runs
 * for hours keeps every tier: the console, and a sandbox served in the foreground.
 *
 * A one-shot command also begins marking its old generation later: at 90% of the limit V8 set
 * for it, not at about 70%. Node's own start, kdeck's code and a compile fill about 13 MB of the
 * first 19 MB, so V8 began a full collection just as an apply planned and sent its first calls
 * (marking threads, slower writes, then an 8 ms pause). Begun later, it comes while the apply
 * waits on its cluster: the first apply call went 20 ms sooner (24 paired runs, 301 resources).
 *
 * V8 takes kept code only under the flags it was made with, and Node's own modules (http2, tls,
 * crypto, …) come with code made under the defaults: the launcher sets V8_DEFAULT_FLAGS back
 * while it loads kept code, so that one kept code serves both modes.
 */

/** The root options that take a value (src/cli.ts): the word after one is not the command. */
export const VALUE_OPTIONS = ['--kubeconfig', '--context', '--state-backend', '--state-context', '--state-namespace'];

/** The root options that print and exit, whatever else the command line says. */
const PRINTING_OPTIONS = ['-h', '--help', '-v', '--version'];

/** The commands that run until they are stopped; a bare `kdeck` is the console too. */
const LONG_RUNNING = ['ui', 'sandbox'];

/**
 * The V8 flags of a one-shot command, and those that undo them. Not --max-opt=2, which turns
 * TurboFan off only as it is set: set again after --turbofan, it left TurboFan on.
 */
export const ONE_SHOT_V8_FLAGS =
  '--no-turbofan --incremental-marking-soft-trigger=90 --incremental-marking-hard-trigger=99';
export const V8_DEFAULT_FLAGS = '--turbofan --incremental-marking-soft-trigger=0 --incremental-marking-hard-trigger=0';

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
