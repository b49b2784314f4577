/**
 * A schema's check that did not hold. Its diagnostic is kcl's "Instance check failed"; the
 * check's own message is kept apart because that is what kcl's `runtime.catch` gives back.
 */
import { KclError, type Diagnostic } from '../../diagnostics/diagnostics.js';

export class CheckFailure extends KclError {
  constructor(
    diagnostic: Diagnostic,
    /** The check's message, or '' when it has none. */
    readonly reason: string,
  ) {
    super(diagnostic);
  }
}
