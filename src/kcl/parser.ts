/**
 * The parser, over the layout-aware token stream. The recursive-descent reader (descent.ts)
 * reads what it can at once; the Earley parser of earley/ over the nearley-compiled grammar reads
 * whatever it gives up on, which is every input with a syntax error. Syntax errors name the
 * unexpected token and what the grammar expected there. After one, parsing goes on at the next
 * top-level statement, so that every statement's errors are reported together, as kcl's
 * error-recovering parser does.
 */
import type * as A from './ast.js';
import { KclError, kclError, throwAll, type Diagnostic } from '../diagnostics/diagnostics.js';
import { earleyParse, EarleySyntaxError, type TerminalSymbol } from './earley/index.js';
import compiled from './grammar.generated.js';
import { readExpression, readStatements } from './descent.js';
import {
  CLOSERS,
  CONTINUATIONS,
  describeToken,
  dottedNameTokens,
  LAYOUT,
  lex,
  lexRuns,
  OPENERS,
  tokenize,
  type Lexed,
  type Token,
} from './lexer.js';
import { TOKEN_TESTS } from './lexer-instance.js';
import { nestingProblem, tokenNestingProblem } from './nesting.js';
import { isInterpolated, splitInterpolations } from './strings.js';

const TERMINAL_NAMES: Record<string, string> = {
  NEWLINE: 'newline',
  INDENT: 'indent',
  DEDENT: 'dedent',
  name: 'identifier',
  string: 'string',
  number: 'number',
  constant: 'True/False/None/Undefined',
  binop: 'operator',
  augop: 'augmented assignment',
};
const TEST_NAMES = new Map<unknown, string>([
  [TOKEN_TESTS.quantifier, 'all/any/map/filter'],
  [TOKEN_TESTS.prefixOp, 'unary operator'],
  [TOKEN_TESTS.anyName, 'identifier'],
  [TOKEN_TESTS.separator, "',' or newline"],
]);

/** Tokens that can start an expression; when all may come, the message says "an expression". */
const EXPRESSION_STARTS = [
  "'('",
  "'['",
  "'{'",
  "'lambda'",
  'True/False/None/Undefined',
  'identifier',
  'number',
  'string',
  'unary operator',
  'all/any/map/filter',
];

function expectedNames(expected: readonly TerminalSymbol<Token>[]): string[] {
  const names = new Set<string>();
  for (const sym of expected) {
    if (sym.literal !== undefined) names.add(`'${sym.literal}'`);
    else if (sym.type !== undefined) names.add(TERMINAL_NAMES[sym.type] ?? sym.type);
    else if (TEST_NAMES.has(sym)) names.add(TEST_NAMES.get(sym)!);
  }
  if (['identifier', 'number', 'string'].every((n) => names.has(n))) {
    for (const n of EXPRESSION_STARTS) names.delete(n);
    return ['an expression', ...[...names].sort()];
  }
  return [...names].sort();
}

function syntaxError(
  token: Token | undefined,
  expected: string[],
  file: string,
  fallback: Token | undefined,
): KclError {
  const where = token ?? fallback;
  let message: string;
  if (token?.type === 'INDENT') message = 'unexpected indent';
  else if (!token) message = 'unexpected end of file';
  else message = `unexpected ${describeToken(token)}`;
  // where the statement could have ended, kcl says only what came too many, as here
  if (expected.length > 0 && !expected.includes('newline')) {
    const shown = expected.length > 8 ? [...expected.slice(0, 8), '…'] : expected;
    message += `, expected ${shown.join(', ')}`;
  }
  return kclError(
    'InvalidSyntax',
    message,
    where ? { file, line: where.line, column: where.col } : { file, line: 1, column: 1 },
  );
}

/** Attaches the file to diagnostics raised inside grammar postprocessors, which do not know it. */
function withFile(e: unknown, file: string): unknown {
  if (e instanceof KclError && e.diagnostic.position && !e.diagnostic.position.file) {
    e.diagnostic.position.file = file;
  }
  return e;
}

/** kcl's name of an expression kind, as its parser words an illegal assignment target. */
const EXPRESSION_NAMES: Record<A.Expr['type'], string> = {
  Identifier: 'IdentifierExpression',
  StringLit: 'StringLitExpression',
  NumberLit: 'NumberLitExpression',
  NameConstant: 'NameConstantLitExpression',
  ListExpr: 'ListExpression',
  ConfigExpr: 'ConfigExpression',
  ListComp: 'ListCompExpression',
  DictComp: 'DictCompExpression',
  QuantExpr: 'QuantExpression',
  Binary: 'BinaryExpression',
  Compare: 'CompareExpression',
  Unary: 'UnaryExpression',
  As: 'BinaryExpression',
  IfExpr: 'IfExpression',
  Selector: 'SelectorExpression',
  Subscript: 'SubscriptExpression',
  Call: 'CallExpression',
  SchemaExpr: 'SchemaExpression',
  Lambda: 'LambdaExpression',
  Paren: 'ParenExpression',
};

const isAssignment = (t: Token) => (t.type === 'op' && t.text === '=') || t.type === 'augop';

/**
 * A syntax error at `=` (or `+=`...) after something that is an expression but not a name, an
 * attribute or an index: kcl names what cannot be assigned to instead of the token it met.
 */
function illegalTarget(tokens: Token[], at: number, file: string): KclError | undefined {
  const op = tokens[at];
  if (!op || !isAssignment(op)) return undefined;
  let start = at;
  while (start > 0 && !LAYOUT.has(tokens[start - 1].type)) start--;
  if (start === at) return undefined;
  const target = [...tokens.slice(start, at), op.as('NEWLINE', '\n', '\n')];
  let stmt: A.Stmt | undefined;
  try {
    const body = earleyParse<Token>(compiled, target).results[0] as A.Stmt[] | undefined;
    stmt = body?.length === 1 ? body[0] : undefined;
  } catch {
    return undefined;
  }
  if (stmt?.type !== 'ExprStmt') return undefined;
  const e = stmt.value;
  let message = `'${EXPRESSION_NAMES[e.type]}' is an illegal expression for assignment`;
  if (e.type === 'Subscript' && e.isSlice)
    message += ', because the left-hand side of an assignment expression may not be a slice access';
  else if (e.type === 'Selector' && e.optional)
    message += ', because the left-hand side of an assignment expression may not be an optional attribute access.';
  return kclError('InvalidSyntax', message, { file, line: tokens[start].line, column: tokens[start].col });
}

/** A name right after an integer, with no space between (`1mi`): kcl's lexer takes it for a
 * number multiplier that does not exist, and says so at the number. */
function invalidSuffix(tokens: Token[], at: number, file: string): KclError | undefined {
  const [number, word] = [tokens[at - 1], tokens[at]];
  if (number?.type !== 'number' || word?.type !== 'name' || number.offset + number.text.length !== word.offset)
    return undefined;
  if (!/^(0[xXoObB])?[0-9a-fA-F_]+$/.test(number.text)) return undefined;
  return kclError('InvalidSyntax', 'invalid int binary suffix', { file, line: number.line, column: number.col });
}

/**
 * A syntax error at the `.` of `for a.b in ...`: kcl reads the loop variables as expressions
 * and refuses one that is not a plain name, at that name.
 */
function illegalLoopVariable(tokens: Token[], at: number, file: string): KclError | undefined {
  if (tokens[at]?.text !== '.') return undefined;
  let start = at - 1;
  while (start >= 0 && (tokens[start].type === 'name' || tokens[start].text === ',')) start--;
  if (start < 0 || tokens[start].text !== 'for' || start === at - 1) return undefined;
  const variable = tokens[at - 1];
  return kclError('CompileError', 'loop variables can only be ordinary identifiers', {
    file,
    line: variable.line,
    column: variable.col,
  });
}

/**
 * A syntax error at the `if` of an `else if` starting a line: kcl's parser of if statements
 * names the mistake and the keyword to use, at the line of the `else`.
 */
function elseIf(tokens: Token[], at: number, file: string): KclError | undefined {
  const [prev, els, tok] = [tokens[at - 2], tokens[at - 1], tokens[at]];
  if (tok?.text !== 'if' || els?.text !== 'else' || (prev && !LAYOUT.has(prev.type))) return undefined;
  return kclError('InvalidSyntax', "'else if' here is invalid in KCL, consider using the 'elif' keyword", {
    file,
    line: els.line,
    column: els.col,
    lineOnly: true,
  });
}

/** Every complete parse of the tokens (exactly one for valid input), or the syntax error and the
 * index of the token it is at. */
function attempt(tokens: Token[], file: string): { parses: A.Stmt[][] } | { error: KclError; at: number } {
  try {
    return { parses: earleyParse<Token>(compiled, tokens).results as A.Stmt[][] };
  } catch (e) {
    if (e instanceof EarleySyntaxError) {
      const error = e as EarleySyntaxError<Token>;
      // at the end of the input the error points after the last token, as nearley's did
      const syntax =
        elseIf(tokens, error.tokenIndex, file) ??
        illegalTarget(tokens, error.tokenIndex, file) ??
        illegalLoopVariable(tokens, error.tokenIndex, file) ??
        invalidSuffix(tokens, error.tokenIndex, file) ??
        syntaxError(error.token, expectedNames(error.expected), file, tokens[tokens.length - 1]);
      return { error: syntax, at: error.tokenIndex };
    }
    if (e instanceof KclError) throw withFile(e, file);
    // any other failure inside a postprocessor is still reported as a diagnostic, as before
    throw syntaxError(undefined, [], file, undefined);
  }
}

/** Runs the parser over tokens and returns every complete parse; throws the first syntax error. */
function run(tokens: Token[], file: string): A.Stmt[][] {
  const result = attempt(tokens, file);
  if ('error' in result) throw result.error;
  return result.parses;
}

/** Where the first top-level statement after token `after` starts: a line at column 1, outside
 * any block or bracket. None where the rest of the file is inside a bracket that never closes. */
function nextStatement(tokens: Token[], after: number): number | undefined {
  let blocks = 0;
  let brackets = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const prev = tokens[i - 1];
    const starts =
      i > after &&
      blocks === 0 &&
      brackets === 0 &&
      t.col === 1 &&
      !LAYOUT.has(t.type) &&
      (prev?.type === 'NEWLINE' || prev?.type === 'DEDENT');
    if (starts && !CONTINUATIONS.has(t.text)) return i;
    if (t.type === 'INDENT') blocks++;
    else if (t.type === 'DEDENT') blocks--;
    else if (t.type === 'op' && OPENERS.has(t.text)) brackets++;
    else if (t.type === 'op' && CLOSERS.has(t.text)) brackets--;
  }
  return undefined;
}

/** Past this many syntax errors in a file the rest is not parsed again: each try parses the rest
 * of the file, and so many errors are mostly one mistake seen again. */
const MAX_SYNTAX_ERRORS = 10;

/** The statements of a file. After a syntax error, the rest of the file is parsed only to find
 * the errors of the statements after it: they all go to `problems`, and no statement comes back. */
function statements(tokens: Token[], file: string, problems: Diagnostic[]): A.Stmt[] {
  for (let start = 0, errors = 0; ;) {
    const result = attempt(start === 0 ? tokens : tokens.slice(start), file);
    if ('parses' in result) return errors === 0 ? result.parses[0] : [];
    problems.push(result.error.diagnostic);
    const next = nextStatement(tokens, start + result.at);
    if (next === undefined || ++errors === MAX_SYNTAX_ERRORS) return [];
    start = next;
  }
}

/** Statements are parsed in runs of about this many tokens: one parse per statement would pay a
 * parse's fixed costs thousands of times, one parse of the whole file keeps a chart column per
 * token of it. A valid file's parse is the same either way (a statement at column 1 of the top
 * level ends the one before it). */
const RUN_TOKENS = 512;

function byPlace(a: Diagnostic, b: Diagnostic): number {
  return (a.position?.line ?? 0) - (b.position?.line ?? 0) || (a.position?.column ?? 0) - (b.position?.column ?? 0);
}

const LONG_STRING = /^[rR]?("""|''')/;

/** Parses a KCL file; throws a KclError with file:line:col and every lexical and syntax error
 * found, in the order of the file. */
export function parseModule(source: string, file: string): A.Module {
  const body = statementsByRun(source, file) ?? statementsWithProblems(source, file);
  // as in kcl, a long string opening the file is its docstring: not a statement, never evaluated
  const first = body[0];
  if (first?.type === 'ExprStmt' && first.value.type === 'StringLit' && LONG_STRING.test(first.value.raw)) {
    return { file, doc: first.value.raw, body: body.slice(1) };
  }
  return { file, body };
}

/**
 * The statements of a file lexed and parsed a run of top-level statements at a time (lexRuns),
 * or undefined when a run has any problem. Nearly every file has none, and then no run's tokens
 * outlive its parse. A file with a problem is read again whole, so that its errors, and what
 * they say was expected, are those of the whole file.
 */
function statementsByRun(source: string, file: string): A.Stmt[] | undefined {
  const body: A.Stmt[] = [];
  const problems: Diagnostic[] = [];
  const runs = lexRuns(source, file, RUN_TOKENS);
  try {
    for (;;) {
      const run = runs.next();
      // the lexer's own problems (lines indented to no level) are reported by the whole file's read
      if (run.done) return run.value.length === 0 ? body : undefined;
      const tokens = run.value;
      if (tokenNestingProblem(tokens, file)) return undefined;
      parseInterpolations(tokens, file, problems);
      if (problems.length > 0) return undefined;
      const stmts = readStatements(tokens) ?? onlyParse(tokens);
      if (!stmts || nestingProblem({ file, body: stmts }, tokens)) return undefined;
      for (const stmt of stmts) body.push(stmt);
    }
  } catch {
    return undefined;
  } finally {
    // a run with a problem leaves the rest unread
    runs.return([]);
  }
}

/** The Earley parser's reading of tokens the recursive-descent reader gave up on, where it has
 * exactly one. */
function onlyParse(tokens: Token[]): A.Stmt[] | undefined {
  const parses = earleyParse<Token>(compiled, tokens).results as A.Stmt[][];
  return parses.length === 1 ? parses[0] : undefined;
}

/** The statements of a file read whole; throws every lexical and syntax error found in it. */
function statementsWithProblems(source: string, file: string): A.Stmt[] {
  const lexed = lexIn(source, file);
  const problems = [...lexed.problems];
  const nested = tokenNestingProblem(lexed.tokens, file);
  if (nested) throw nested;
  parseInterpolations(lexed.tokens, file, problems);
  const body = statements(lexed.tokens, file, problems);
  throwAll(problems.sort(byPlace));
  const tooDeep = nestingProblem({ file, body }, lexed.tokens);
  if (tooDeep) throw tooDeep;
  return body;
}

/** How many parses the grammar finds for a source: 1 for every valid input of an unambiguous grammar. */
export function countParses(source: string, file: string): number {
  const tokens = tokenizeIn(source, file);
  const problems: Diagnostic[] = [];
  parseInterpolations(tokens, file, problems);
  throwAll(problems);
  return run(tokens, file).length;
}

function lexIn(source: string, file: string): Lexed {
  try {
    return lex(source, file);
  } catch (e) {
    throw withFile(e, file);
  }
}

function tokenizeIn(source: string, file: string): Token[] {
  try {
    return tokenize(source, file);
  } catch (e) {
    throw withFile(e, file);
  }
}

/** Parses the expression of a `${...}` interpolation found at line:col of a file. */
export function parseInterpolation(text: string, file: string, line: number, col: number): A.Expr {
  if (text.trim() === '') {
    throw kclError('InvalidSyntax', 'string interpolation expression can not be empty', { file, line, column: col });
  }
  const indent = text.length - text.trimStart().length;
  const source = text.trim();
  const tokens = dottedNameTokens(source) ?? tokenizeIn(source, file);
  // the tokens are new and only ours, so they move to the place in the file where they are
  for (const t of tokens) {
    if (t.line === 1) t.col += col - 1 + indent;
    t.line += line - 1;
  }
  const problems: Diagnostic[] = [];
  parseInterpolations(tokens, file, problems);
  throwAll(problems);
  const read = readExpression(tokens);
  if (read) return read;
  const body = run(tokens, file)[0];
  const stmt = body[0];
  if (body.length !== 1 || stmt.type !== 'ExprStmt') {
    throw kclError('InvalidSyntax', `invalid string interpolation expression: '${text}'`, { file, line, column: col });
  }
  return stmt.value;
}

/** Parses the `${...}` expressions of every interpolated string token and leaves them on the
 * token, for the grammar's string literal to take: interpolation is part of the syntax phase,
 * and its errors join the file's other syntax errors. */
function parseInterpolations(tokens: Token[], file: string, problems: Diagnostic[]): void {
  for (const tok of tokens) {
    if (tok.type !== 'string' || !isInterpolated(tok)) continue;
    try {
      const raw = splitInterpolations(tok, file);
      if (raw.every((p) => 'text' in p)) continue;
      tok.parts = raw.map((p) =>
        'text' in p ? p : { expr: parseInterpolation(p.source, file, p.line, p.column), spec: p.spec },
      );
    } catch (e) {
      if (!(e instanceof KclError)) throw e;
      problems.push(e.diagnostic);
    }
  }
}
