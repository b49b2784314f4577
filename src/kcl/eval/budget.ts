/**
 * What a run may spend: a deadline (`kdeck kcl run --timeout`, `kdeck compile --eval-timeout`;
 * none by default, as in kcl) and the heap V8 gives the process. The evaluator ticks the budget
 * on every expression it evaluates and the budget looks at the clock and the heap now and then,
 * so that a runaway program ends in a diagnostic at the expression it was evaluating instead
 * of hanging or of V8 aborting the process.
 */
import v8 from 'node:v8';
import { kclError } from '../../diagnostics/diagnostics.js';

/** How many ticks go by between two looks at the clock and the heap: cheap enough to keep. */
const CHECK_EVERY = 1024;
/** The share of V8's heap limit past which a program is stopped, leaving room to report it. */
const HEAP_SHARE = 0.8;

export interface Deadline {
  /** Milliseconds the evaluation may take. */
  ms: number;
  /** How the user set it, for the message: `--timeout 5s`. */
  setBy: string;
}

export class Budget {
  private ticks = 0;
  private readonly endsAt: number | undefined;
  private readonly heapLimit = v8.getHeapStatistics().heap_size_limit * HEAP_SHARE;

  constructor(private readonly deadline?: Deadline) {
    this.endsAt = deadline ? performance.now() + deadline.ms : undefined;
  }

  tick(): void {
    if (++this.ticks % CHECK_EVERY === 0) this.check();
  }

  /** Throws when the deadline has passed or the heap is nearly full. */
  check(): void {
    if (this.endsAt !== undefined && performance.now() > this.endsAt) {
      throw kclError(
        'EvaluationError',
        `evaluation stopped: it ran longer than the ${formatDuration(this.deadline!.ms)} that ${this.deadline!.setBy} allows`,
      );
    }
    const used = v8.getHeapStatistics().used_heap_size;
    if (used > this.heapLimit) {
      throw kclError(
        'EvaluationError',
        `evaluation stopped: the program's values outgrew the memory kdeck has (${Math.round(used / 2 ** 20)} MiB of ${Math.round(this.heapLimit / HEAP_SHARE / 2 ** 20)} MiB)`,
      );
    }
  }
}

/** `500ms`, `10s`, `2m`, `1h`, or a number of seconds: the durations `--timeout` takes. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] ?? 's'] ?? 1000;
  const ms = Number(m[1]) * unit;
  return ms > 0 ? ms : undefined;
}

export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
