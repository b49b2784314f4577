import { describe, expect, it } from 'vitest';
import { renderDiagnostic } from '../diagnostics/diagnostics.js';

const source = 'a = 1\nb = a + "x"\n';
const lookup = (file: string) => (file === 'main.k' ? source : undefined);

describe('renderDiagnostic', () => {
  it('renders kcl style: code and kind, place, source line and caret', () => {
    const text = renderDiagnostic(
      {
        kind: 'TypeError',
        message: "unsupported operand type(s) for +: 'int' and 'str'",
        position: { file: 'main.k', line: 2, column: 5 },
      },
      lookup,
    );
    expect(text).toBe(
      [
        'error[E2G22]: TypeError',
        ' --> main.k:2:5',
        '  |',
        '2 | b = a + "x"',
        "  |     ^ unsupported operand type(s) for +: 'int' and 'str'",
        '  |',
        '',
      ].join('\n'),
    );
  });

  it('files runtime failures under EvaluationError and adds related places and notes', () => {
    const text = renderDiagnostic(
      {
        kind: 'SchemaCheckFailure',
        message: 'Instance check failed',
        position: { file: 'main.k', line: 2, column: 1 },
        related: [{ position: { file: 'main.k', line: 1, column: 1 }, message: 'Check failed on the condition' }],
        note: 'see the check block',
      },
      lookup,
    );
    expect(text.split('\n')[0]).toBe('error[E3M38]: EvaluationError');
    expect(text).toContain('1 | a = 1\n  | ^ Check failed on the condition');
    expect(text.trimEnd().endsWith('note: see the check block')).toBe(true);
  });

  it('still names the place when the file cannot be read', () => {
    const text = renderDiagnostic(
      { kind: 'CannotFindModule', message: 'cannot find x', position: { file: 'gone.k', line: 3, column: 2 } },
      lookup,
    );
    expect(text).toContain('--> gone.k:3:2');
    expect(text).toContain('cannot find x');
  });

  it('puts the caret under a column past wide characters where the terminal shows it', () => {
    const wide = (file: string) => (file === 'wide.k' ? 'p = {"a": "张张", "b": 1}\n' : undefined);
    const text = renderDiagnostic(
      { kind: 'TypeError', message: 'here', position: { file: 'wide.k', line: 1, column: 17 } },
      wide,
    );
    expect(text).toContain(`  | ${' '.repeat(18)}^ here`);
  });

  it('puts the caret after a tab where the tab is: a control character has no width to kcl', () => {
    const tabbed = (file: string) => (file === 'tab.k' ? 'schema A:\n\tage: int\n' : undefined);
    const text = renderDiagnostic(
      { kind: 'InvalidSyntax', message: 'here', position: { file: 'tab.k', line: 2, column: 2 } },
      tabbed,
    );
    expect(text).toContain('error[E1001]: InvalidSyntax');
    expect(text).toContain('2 | \tage: int\n  | ^ here');
  });
});
