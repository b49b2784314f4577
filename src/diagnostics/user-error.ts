/**
 * A failure the user can act on: a sentence naming the place (file, stack, cluster, resource)
 * and the next step. The CLI prints it as it is, never with a stack trace.
 */
export class UserError extends Error {
  constructor(
    message: string,
    /** 2: the input or the usage is wrong; 1: the operation itself failed; 130: Ctrl-C. */
    readonly exitCode: 1 | 2 | 130 = 2,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

/** The text of anything thrown: an Error's message, or the value itself. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Ends a command with an exit code after it has said everything it had to say. */
export class SilentExit extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
    this.name = 'SilentExit';
  }
}
