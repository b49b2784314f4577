/**
 * The compile thread's warm-up. Watch mode recompiles a stack at every save, and the first
 * recompiles after the console starts run the evaluator before V8 has optimized it: on
 * konfig-sample's guestbook prod stack they take 45–85 ms, against 12–25 ms from about the
 * eighth on. So once a stack has compiled, the thread spends an idle moment compiling it a few
 * times more, results discarded, and the user's first save is as quick as the later ones.
 *
 * Only a compile that reached nothing outside the program is repeated (CompiledStack.repeatable):
 * one that writes files or asks a plugin must not run more often than the user asked. A request
 * stops the warm-up at once; the compile in progress, if any, delays it by that one compile.
 */
import { performance } from 'node:perf_hooks';

/** Passes after a stack's first compile: about what it takes V8 to optimize the evaluator. */
export const WARM_UP_PASSES = 10;
/** The most the warm-up of one stack spends: a large stack gets fewer passes, not seconds of them. */
export const WARM_UP_BUDGET_MS = 1_000;
/** How long the thread waits after a compile before warming up: the console plans and draws the
 * compile's result meanwhile, on the other thread. */
export const WARM_UP_IDLE_MS = 300;

/** Runs `run` after `ms`; the returned function cancels it if it has not run yet. */
export type Schedule = (ms: number, run: () => void) => () => void;

const schedule: Schedule = (ms, run) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

export class WarmUp {
  private readonly warmed = new Set<string>();
  private cancel: (() => void) | undefined;

  /** `compile` compiles a stack and tells whether it may be compiled again (false on a failure). */
  constructor(
    private readonly compile: (dir: string) => boolean,
    private readonly options: { schedule?: Schedule; now?: () => number } = {},
  ) {}

  /** A compile request has come: it goes first. */
  interrupt(): void {
    this.cancel?.();
    this.cancel = undefined;
  }

  /** A stack has compiled: warm up for it, once per stack. */
  compiled(dir: string, repeatable: boolean): void {
    if (!repeatable || this.warmed.has(dir)) return;
    this.warmed.add(dir);
    this.pass(dir, WARM_UP_IDLE_MS, WARM_UP_PASSES, 0);
  }

  private pass(dir: string, delayMs: number, left: number, spentMs: number): void {
    const now = this.options.now ?? (() => performance.now());
    this.cancel = (this.options.schedule ?? schedule)(delayMs, () => {
      this.cancel = undefined;
      const start = now();
      const again = this.compile(dir);
      const spent = spentMs + now() - start;
      // a zero delay between passes lets a waiting request in first
      if (again && left > 1 && spent < WARM_UP_BUDGET_MS) this.pass(dir, 0, left - 1, spent);
    });
  }
}
