/**
 * Loaded before anything that imports Ink (see the first import of cli.ts). Ink decides at
 * import time, from the CI and CONTINUOUS_INTEGRATION variables alone, to write only the last
 * frame of a render; a console opened at a real terminal from a shell that exports CI (a CI
 * runner's interactive job, a devcontainer) would then stay blank until it quits. kdeck renders
 * with Ink only when stdin and stdout are terminals, so there the terminal decides, not the
 * variable; without a terminal nothing changes.
 *
 * DEV=true is Ink's React DevTools mode: it connects to react-devtools-core, which kdeck does not
 * ship (Ink warns and goes on), and reads Ink's package.json beside Ink's code, which the bundle
 * (dist/bin) does not have, so the console would end at its start. A shell that exports DEV for
 * other tools does not ask kdeck for DevTools.
 */
import { isatty } from 'node:tty';

/**
 * Whether standard input is a terminal. `process.stdin.isTTY` says so too, but process.stdin
 * makes its stream when first read, and with it loads Node's stream modules: about 5 ms of every
 * start, for the few commands that read their input.
 */
export const stdinIsTerminal = (): boolean => isatty(0);

/** Whether a person is at a terminal: standard input and output are both terminals. */
export const interactiveTerminal = (): boolean => stdinIsTerminal() && process.stdout.isTTY === true;

if (interactiveTerminal()) {
  delete process.env['CI'];
  delete process.env['CONTINUOUS_INTEGRATION'];
  delete process.env['DEV'];
}
