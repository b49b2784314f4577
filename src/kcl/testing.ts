/**
 * Test support shared by the compiler's tests.
 */
import { KclError, type Diagnostic } from '../diagnostics/diagnostics.js';
import type { BuiltinHost } from './eval/values.js';

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

/** A host for calling builtins and system functions outside a program; `parts` replace the defaults. */
export function testHost(parts: Partial<BuiltinHost> = {}): BuiltinHost {
  return {
    print: () => undefined,
    option: () => undefined,
    system: { workspaceRoot: process.cwd(), currentFile: () => '' },
    reachesOutside: () => undefined,
    runLambda: () => {
      throw new Error('no program runs lambdas here');
    },
    instancesOf: () => [],
    ...parts,
  };
}
