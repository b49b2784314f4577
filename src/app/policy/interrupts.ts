/**
 * What an interrupt means, the same in every command and in the console: Ctrl-C (as a key, where
 * an Ink view holds the terminal in raw mode), SIGINT and SIGTERM all arrive here.
 * - before anything changed: the command ends at once, exit 130, "nothing was changed";
 * - during an apply or destroy: nothing new is scheduled, the API calls in flight finish, health
 *   waits are abandoned, the state is saved, exit 130; a second interrupt quits at once (the
 *   state is written after every resource, so it is consistent either way);
 * - during a recovery: it pauses at the next step and says how to resume.
 */
import { UserError } from '../../diagnostics/user-error.js';

export const EXIT_INTERRUPTED = 130;

/** What an interrupt before the change leaves. */
export const nothingChanged = (what: string) => `Interrupted before ${what} started: nothing was changed.`;

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** The interrupts of one command, counted; the handler is the phase the command is in. */
export class Interrupts {
  private count = 0;
  private handler: ((count: number) => void) | undefined;
  private readonly onSignal = () => this.trigger();

  constructor() {
    for (const s of SIGNALS) process.on(s, this.onSignal);
  }

  /** An interrupt from a key (Ctrl-C in a view that reads the keys itself). */
  readonly trigger = (): void => {
    this.count++;
    this.handler?.(this.count);
  };

  /** From now on, interrupts go to `handler` (with how many there have been in this phase). */
  during(handler: (count: number) => void): void {
    this.count = 0;
    this.handler = handler;
  }

  /**
   * The work of a phase in which nothing has changed yet: an interrupt ends it with exit 130
   * and `nothingChanged(what)`.
   */
  async beforeChange<T>(what: string, work: Promise<T>): Promise<T> {
    let reject: ((e: UserError) => void) | undefined;
    const interrupted = new Promise<never>((_, r) => (reject = r));
    this.during(() => reject?.(new UserError(nothingChanged(what), EXIT_INTERRUPTED)));
    try {
      return await Promise.race([work, interrupted]);
    } finally {
      this.handler = undefined;
    }
  }

  dispose(): void {
    for (const s of SIGNALS) process.off(s, this.onSignal);
    this.handler = undefined;
  }
}
