/**
 * The compile thread's warm-up. Watch mode recompiles a stack at every save, and the first
 * recompiles after the console starts run the evaluator before V8 has optimized it: on
 * konfig-sample's guestbook prod stack (in one process, saves back to back) the second to the
 * sixteenth take 40–130 ms, and they settle at about 30 ms from about the seventeenth on. So
 * whenever the thread is idle, it spends a few compiles of the stack it compiled last, results
 * discarded, until the evaluator is warm, and the user's first save is as quick as
 * the later ones. The optimized code serves every stack, so the thread warms up once, not once
 * per stack: a request interrupts the warm-up, which resumes, on the stack compiled last, the
 * next time the thread is idle, until its passes or its time are spent.
 *
 * Only a compile that reached nothing outside the program is repeated (CompiledStack.repeatable):
 * one that writes files or asks a plugin must not run more often than the user asked. A request
 * waits at most for the one pass in progress, so the passes are kept short: none is started on
 * a stack whose compile took longer than WARM_UP_MAX_PASS_MS, and the warm-up stops after a pass
 * that did. Such a stack's own compiles warm the evaluator up anyway, and a save must not wait
 * seconds behind a pass nobody asked for.
 */
import { performance } from 'node:perf_hooks';

/** Passes in all: about what it takes V8 to optimize the evaluator. Ten left the first saves
 * at 39–46 ms in the compile thread, thirty at 29–35 ms (bench/compile.ts). */
export const WARM_UP_PASSES = 30;
/** The most the warm-up spends: a large stack gets fewer passes, not seconds of them. */
export const WARM_UP_BUDGET_MS = 2_500;
/** The longest compile the warm-up repeats, ms. */
export const WARM_UP_MAX_PASS_MS = 500;
/** How long the thread must have been idle before a pass: the console plans and draws the last
 * compile's result meanwhile, on the other thread, and saves tend to come in bursts. */
export const WARM_UP_IDLE_MS = 300;

/** Runs `run` after `ms`; the returned function cancels it if it has not run yet. */
export type Schedule = (ms: number, run: () => void) => () => void;

const afterTimeout: Schedule = (ms, run) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

export class WarmUp {
  private passesLeft = WARM_UP_PASSES;
  private spentMs = 0;
  /** The stack the passes compile: the last one compiled, when it may be compiled again. */
  private target: string | undefined;
  private cancel: (() => void) | undefined;
  private readonly schedule: Schedule;
  private readonly now: () => number;

  /** `compile` compiles a stack and tells whether it may be compiled again (false on a failure). */
  constructor(
    private readonly compile: (dir: string) => boolean,
    options: { schedule?: Schedule; now?: () => number } = {},
  ) {
    this.schedule = options.schedule ?? afterTimeout;
    this.now = options.now ?? (() => performance.now());
  }

  /** A compile request has come: it goes first. */
  interrupt(): void {
    this.cancel?.();
    this.cancel = undefined;
  }

  /** A requested compile has ended, after `ms`: the passes resume, on this stack if it may be
   * repeated and is quick enough to. */
  compiled(dir: string, repeatable: boolean, ms: number): void {
    this.target = repeatable && ms <= WARM_UP_MAX_PASS_MS ? dir : undefined;
    this.next(WARM_UP_IDLE_MS);
  }

  private next(delayMs: number): void {
    const dir = this.target;
    if (dir === undefined || this.passesLeft === 0 || this.spentMs >= WARM_UP_BUDGET_MS) return;
    this.cancel = this.schedule(delayMs, () => {
      this.cancel = undefined;
      const start = this.now();
      const again = this.compile(dir);
      const ms = this.now() - start;
      if (!again || ms > WARM_UP_MAX_PASS_MS) this.target = undefined;
      this.spentMs += ms;
      this.passesLeft--;
      // no idle wait between passes: a request already queued still goes first
      this.next(0);
    });
  }
}
