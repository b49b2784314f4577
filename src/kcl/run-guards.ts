/**
 * What a run is guarded by beyond the language: an optional deadline, `--read-only` for the
 * functions that write files, and a last net under every phase so that an input no limit
 * foresaw still ends in a diagnostic rather than "internal error".
 */
import { KclError, kclError } from '../diagnostics/diagnostics.js';
import { parseDuration, type Deadline } from './eval/budget.js';

export interface RunGuards {
  /** Stop evaluating past this time (off by default, as in kcl). */
  deadline?: Deadline;
  /** `file.write`, `file.mkdir`, `file.delete`... refuse to touch the disk. */
  readOnly?: boolean;
}

/**
 * A JavaScript stack overflow or an allocation V8 refuses, thrown by a phase that has no place
 * for it (the parser's helpers, the resolver, the YAML writer), as a diagnostic.
 */
export function exhaustionAsDiagnostic(e: unknown): unknown {
  if (e instanceof KclError || !(e instanceof RangeError)) return e;
  if (/call stack/i.test(e.message)) {
    return kclError(
      'RecursionError',
      'maximum recursion depth exceeded: the program or its values are nested deeper than kdeck can follow',
    );
  }
  if (/invalid (string|array) length|allocation failed/i.test(e.message)) {
    return kclError('EvaluationError', `a value grew larger than kdeck can hold (${e.message})`);
  }
  return e;
}

/** The guards a command's flags ask for; `flag` names the timeout flag in messages. */
export function runGuardsFrom(timeout: string | undefined, flag: string, readOnly: boolean | undefined): RunGuards {
  const guards: RunGuards = { readOnly: readOnly === true };
  if (timeout !== undefined) {
    const ms = parseDuration(timeout);
    if (ms === undefined) {
      throw kclError('UsageError', `${flag} takes a duration such as 500ms, 10s or 2m, not '${timeout}'`);
    }
    guards.deadline = { ms, setBy: `${flag} ${timeout}` };
  }
  return guards;
}
