import { describe, expect, it } from 'vitest';
import { kclError, renderDiagnostic } from '../diagnostics/diagnostics.js';
import { diagnosticOf } from '../kcl/testing.js';
import { withBacktrace } from './kcl-run.js';

const failureOf = (run: () => unknown) => renderDiagnostic(diagnosticOf(run), () => '_a += 1\n');

describe('kcl run -d', () => {
  it("notes where a failure while running happened, in kcl's backtrace form", () => {
    const text = failureOf(() =>
      withBacktrace(() => {
        throw kclError('IntOverflow', '9223372036854775808: A 64 bit integer overflow', {
          file: '/p/main.k',
          line: 1,
          column: 1,
          lineOnly: true,
        });
      }),
    );
    expect(text).toContain('note: backtrace:\n\t0: kcl_main\n\t\tat /p/main.k:1');
  });

  it('leaves a problem found before running as it is', () => {
    const text = failureOf(() =>
      withBacktrace(() => {
        throw kclError('CompileError', "name 'x' is not defined", { file: '/p/main.k', line: 1, column: 1 });
      }),
    );
    expect(text).not.toContain('backtrace');
  });
});
