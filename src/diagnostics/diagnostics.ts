/**
 * Diagnostics are data: every phase (lexer, parser, evaluator) produces a Diagnostic, and this is
 * the one place that turns them into text. The format follows kcl's rustc-style output so that
 * the upstream golden messages match.
 */
import { createRequire } from 'node:module';

export interface Position {
  file: string;
  line: number;
  column: number;
  /** Runtime failures are known by line only, and kcl shows them without a caret. */
  lineOnly?: boolean;
}

export type ErrorKind =
  | 'InvalidSyntax'
  | 'IndentationError'
  | 'CannotFindModule'
  | 'CompileError'
  | 'TypeError'
  | 'ImmutableError'
  | 'EvaluationError'
  | 'AttributeError'
  | 'IllegalAttributeError'
  | 'UniqueKeyError'
  | 'AssertionError'
  | 'SchemaCheckFailure'
  | 'RecursionError'
  | 'ValueError'
  | 'IndexError'
  | 'KeyError'
  | 'ZeroDivisionError'
  | 'IntOverflow'
  | 'FloatOverflow'
  | 'OptionError'
  | 'DeprecatedError'
  | 'CycleInheritError'
  | 'IllegalInheritError'
  | 'NameError'
  | 'RecursiveLoad'
  | 'IllegalParameterError'
  | 'IndexSignatureError'
  | 'UsageError'
  // kdeck's own, past the compiler: a Konfig layout or a compiled Spec that is wrong
  | 'WorkspaceError'
  | 'SpecError';

const CODES: Record<ErrorKind, string> = {
  InvalidSyntax: 'E1001',
  IndentationError: 'E1003',
  CannotFindModule: 'E2F04',
  CompileError: 'E2L23',
  TypeError: 'E2G22',
  ImmutableError: 'E1001',
  EvaluationError: 'E3M38',
  AttributeError: 'E2A31',
  IllegalAttributeError: 'E2A31',
  UniqueKeyError: 'E2L28',
  AssertionError: 'E3M38',
  SchemaCheckFailure: 'E3M38',
  RecursionError: 'E3M38',
  ValueError: 'E3M38',
  IndexError: 'E3M38',
  KeyError: 'E3M38',
  ZeroDivisionError: 'E3M38',
  IntOverflow: 'E3M38',
  FloatOverflow: 'E3M38',
  OptionError: 'E3M38',
  DeprecatedError: 'E3M38',
  CycleInheritError: 'E2D34',
  IllegalInheritError: 'E2D34',
  NameError: 'E1001',
  RecursiveLoad: 'E2L23',
  IllegalParameterError: 'E1001',
  IndexSignatureError: 'E1001',
  UsageError: 'E3M38',
  WorkspaceError: 'K0001',
  SpecError: 'K0002',
};

export interface Note {
  position?: Position;
  message: string;
}

export interface Diagnostic {
  kind: ErrorKind;
  message: string;
  position?: Position;
  /** Further places that explain the error (where a name was declared, the other side of a conflict). */
  related?: Note[];
  note?: string;
  /** Further diagnostics found with this one, printed after it (kcl reports a cycle once per member). */
  also?: Diagnostic[];
}

/** The one exception type of the compiler: it carries a Diagnostic, never a bare string. */
export class KclError extends Error {
  readonly diagnostic: Diagnostic;

  constructor(diagnostic: Diagnostic) {
    super(diagnostic.message);
    this.name = 'KclError';
    this.diagnostic = diagnostic;
  }
}

export function kclError(kind: ErrorKind, message: string, position?: Position, extra?: Partial<Diagnostic>): KclError {
  return new KclError({ kind, message, position, ...extra });
}

/** A diagnostic and those found with it, as one list in order. */
function flattened(d: Diagnostic): Diagnostic[] {
  const { also, ...own } = d;
  return [own, ...(also ?? []).flatMap(flattened)];
}

/** One error reporting several diagnostics in order, as kcl reports what a phase found in one go. */
export function kclErrors(diagnostics: readonly [Diagnostic, ...Diagnostic[]]): KclError {
  const [first, ...rest] = diagnostics.flatMap(flattened);
  return new KclError({ ...first, also: rest });
}

/** Throws the diagnostics a phase collected, if there are any. */
export function throwAll(diagnostics: readonly Diagnostic[]): void {
  const [first, ...rest] = diagnostics;
  if (first) throw kclErrors([first, ...rest]);
}

/** Looks a source line up for the snippet under a diagnostic; undefined when the file is unknown. */
export type SourceLookup = (file: string) => string | undefined;

type StringWidth = typeof import('string-width').default;

/**
 * string-width builds an Intl.Segmenter and Unicode-property expressions as it is imported: about
 * 0.1 s that every kdeck process paid at its start, when only a caret under a line with a character
 * beyond ASCII needs it. `require` because rendering is synchronous; Node (20.19 and later)
 * requires an ES module such as string-width.
 */
let stringWidth: StringWidth | undefined;
function terminalWidth(ch: string): number {
  if (ch >= ' ' && ch <= '~') return 1;
  stringWidth ??= (createRequire(import.meta.url)('string-width') as { default: StringWidth }).default;
  return stringWidth(ch);
}

/** A control character (a tab among them) has no width to kcl's renderer (annotate-snippets
 * counts unicode-width's "none" as 0), so a caret after a tab stands where the tab is. */
const isControl = (ch: string) => ch < ' ' || (ch >= '\x7f' && ch <= '\x9f');

/** How far the caret stands under a column (counted in characters): a wide character such as
 * 张 takes two places on the terminal, a control character none, as kcl's renderer counts them. */
function caretOffset(text: string, column: number): number {
  let offset = 0;
  for (const ch of [...text].slice(0, Math.max(0, column - 1)))
    offset += isControl(ch) ? 0 : terminalWidth(ch) === 2 ? 2 : 1;
  return offset + Math.max(0, column - 1 - [...text].length);
}

function snippet(position: Position, message: string, lookup: SourceLookup): string[] {
  const source = lookup(position.file);
  const gutterWidth = String(position.line).length;
  const pad = ' '.repeat(gutterWidth);
  const lines = [`${pad}--> ${position.file}:${position.line}:${position.column}`];
  const text = source?.split(/\r?\n/)[position.line - 1];
  if (text === undefined) {
    lines.push(`${pad} |`, `${pad} = ${message}`);
    return lines;
  }
  const marker = position.lineOnly
    ? message
      ? ` ${message}`
      : ''
    : `${' '.repeat(caretOffset(text, position.column))}^ ${message}`;
  lines.push(`${pad} |`, `${position.line} | ${text}`, `${pad} | ${marker}`, `${pad} |`);
  return lines;
}

/** Runtime failures kcl reports under one heading; kdeck keeps the finer kind for its own use. */
const EVALUATION_ERRORS = new Set<ErrorKind>([
  'AssertionError',
  'SchemaCheckFailure',
  'RecursionError',
  'ValueError',
  'IndexError',
  'KeyError',
  'ZeroDivisionError',
  'IntOverflow',
  'FloatOverflow',
  'OptionError',
  'DeprecatedError',
]);

/** Whether kcl reports this kind from its runtime, where only the line of the failing
 * evaluation is known. */
export function isRuntimeKind(kind: ErrorKind): boolean {
  return kind === 'EvaluationError' || EVALUATION_ERRORS.has(kind);
}

/** Renders a diagnostic the way kcl does: `error[CODE]: Kind`, the place, the line and a caret. */
export function renderDiagnostic(d: Diagnostic, lookup: SourceLookup): string {
  if (d.kind === 'UsageError') return `error: ${d.message}\n`;
  const heading = EVALUATION_ERRORS.has(d.kind) ? 'EvaluationError' : d.kind;
  const out = [`error[${CODES[d.kind]}]: ${heading}`];
  if (d.position) {
    out.push(...snippet(d.position, d.message, lookup));
  } else {
    out.push(d.message);
  }
  for (const related of d.related ?? []) {
    if (related.position) out.push(...snippet(related.position, related.message, lookup));
    else out.push(related.message);
  }
  if (d.note) out.push(`note: ${d.note}`);
  return out.join('\n') + '\n' + (d.also ?? []).map((x) => renderDiagnostic(x, lookup)).join('');
}
