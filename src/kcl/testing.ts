/**
 * Test support shared by the compiler's tests.
 */
import { KclError, type Diagnostic } from './diagnostics.js';

/** The diagnostic `run` fails with; anything else (success included) fails the test. */
export function diagnosticOf(run: () => unknown): Diagnostic {
  try {
    run();
  } catch (e) {
    if (e instanceof KclError) return e.diagnostic;
    throw e;
  }
  throw new Error('expected a KclError');
}
