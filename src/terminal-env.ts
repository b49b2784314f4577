/**
 * Loaded before anything that imports Ink (see the first import of cli.ts). Ink decides at
 * import time, from the CI and CONTINUOUS_INTEGRATION variables alone, to write only the last
 * frame of a render; a console opened at a real terminal from a shell that exports CI (a CI
 * runner's interactive job, a devcontainer) would then stay blank until it quits. kdeck renders
 * with Ink only when stdin and stdout are terminals, so there the terminal decides, not the
 * variable; without a terminal nothing changes.
 */
if (process.stdin.isTTY === true && process.stdout.isTTY === true) {
  delete process.env['CI'];
  delete process.env['CONTINUOUS_INTEGRATION'];
}

export {};
