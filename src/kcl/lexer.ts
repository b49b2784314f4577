/**
 * The KCL lexer: the scanner (scanner.ts) reads the text's raw tokens, then a layout pass turns
 * line structure into NEWLINE / INDENT / DEDENT tokens the way kcl does it.
 *
 * Layout is tracked per context. Module, schema and lambda bodies are blocks with Python's rules.
 * Inside brackets, lines are joined implicitly, except where KCL gives them meaning: config and
 * list entries may be separated by line breaks, and `if`/`elif`/`else` entries open indented
 * blocks. So inside a bracket a line break is a NEWLINE only when it can separate entries, and an
 * INDENT only after a line that ends in `:`.
 */
import type { StringPart } from './ast.js';
import { kclError, throwAll, type Diagnostic, type Position } from '../diagnostics/diagnostics.js';
import { MAX_TOKENS } from './input-limits.js';
import { bracesBeforeArrow } from './lambda-params.js';
import { Scanner, type RawKind } from './scanner.js';

/**
 * A token. A class, so that the tree's builders (ast-build.ts) tell a token from a node with one
 * `instanceof`: asking each of the many kinds of node whether it has a token's fields was the
 * builders' costliest step. The brand keeps object literals from passing for tokens.
 */
export class Token {
  declare private readonly brand: never;

  constructor(
    public type: string,
    /** For names: the name without a `$` escape; otherwise the source text. */
    public value: string,
    public text: string,
    public offset: number,
    public line: number,
    public col: number,
    public lineBreaks: number,
    /**
     * A string's pieces once the parser has read its `${...}` (strings.ts). Every token carries
     * the field, set or not: had the parser added it to some, their shape would live only as long
     * as they did, and each full collection after a parse would throw away the parser's compiled
     * code that had seen it (V8 deoptimizes for "weak objects"), so every few files ran slow again.
     */
    public parts: StringPart[] | undefined = undefined,
  ) {}

  /** A token of another type, text and value at this one's place. */
  as(type: string, text: string, value: string): Token {
    return new Token(type, value, text, this.offset, this.line, this.col, this.lineBreaks, this.parts);
  }
}

interface IndentLevel {
  tabs: number;
  spaces: number;
}

interface Context {
  kind: 'block' | 'bracket';
  closer: string;
  /** The indentation levels opened in this context; the first is its base. Empty until set. */
  indents: IndentLevel[];
  pendingLambdas: number;
}

/** Token classes the grammar matches on as one terminal, so that for instance every binary
 * operator is a single Earley item rather than one alternative per operator. */
const BINARY_OPERATORS = new Set([
  '+',
  '-',
  '*',
  '/',
  '//',
  '%',
  '**',
  '<<',
  '>>',
  '&',
  '|',
  '^',
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'and',
  'or',
  'in',
  'is',
]);
const AUGMENTED_OPERATORS = new Set(['+=', '-=', '*=', '/=', '//=', '%=', '**=', '<<=', '>>=', '&=', '|=', '^=']);
const CONSTANTS = new Set(['True', 'False', 'None', 'Undefined']);
const TWO_WORD_OPERATORS: Record<string, string> = { 'not in': 'not in', 'is not': 'is not' };

function tokenClass(kind: RawKind, text: string): string {
  switch (kind) {
    case 'keyword':
      if (CONSTANTS.has(text)) return 'constant';
      return BINARY_OPERATORS.has(text) ? 'binop' : 'keyword';
    case 'punct':
    case 'open':
    case 'close':
      return 'op';
    case 'op':
      if (BINARY_OPERATORS.has(text)) return 'binop';
      return AUGMENTED_OPERATORS.has(text) ? 'augop' : 'op';
    default:
      return kind;
  }
}

export const OPENERS = new Map([
  ['(', ')'],
  ['[', ']'],
  ['{', '}'],
]);
export const CLOSERS = new Set([')', ']', '}']);
/** After these a line break inside brackets cannot end an entry: the expression goes on. */
const JOINING_TOKENS = [',', '~', '=', '+=', '->', 'not', '.', '?', 'lambda', 'for', '@'];
const JOINING = new Set([...BINARY_OPERATORS, ...OPENERS.keys(), ...JOINING_TOKENS]);
/** A line starting with one of these inside brackets goes on with the line before. */
function continuesExpression(tok: Token): boolean {
  if (tok.type === 'binop') return !UNARY_OR_UNPACK.has(tok.text);
  return tok.text === 'for' || tok.text === '.';
}
const UNARY_OR_UNPACK = new Set(['+', '-', '*', '**']);

/** A `{` after these, while a lambda header is open, is a dict type or a parameter's default
 * (`attrs: {:} = {}`) rather than the lambda body. */
const TYPE_BRACE_PREDECESSORS = new Set([':', '->', '|', '[', '(', '{', ',', '=']);
/** The tokens the layout pass makes of line structure. */
export const LAYOUT: ReadonlySet<string> = new Set(['NEWLINE', 'INDENT', 'DEDENT']);

function compareIndent(a: IndentLevel, b: IndentLevel, pos: Position): number {
  if (a.tabs === b.tabs) return Math.sign(a.spaces - b.spaces);
  if (a.tabs < b.tabs ? a.spaces <= b.spaces : a.spaces >= b.spaces) return Math.sign(a.tabs - b.tabs);
  throw kclError('InvalidSyntax', 'inconsistent use of tabs and spaces in indentation', pos);
}

/** The indentation of the line a token starts, from the start of its line (the token's offset
 * less its column) rather than a search back for the line break. */
function measureIndent(source: string, tok: Token): IndentLevel {
  let tabs = 0;
  let spaces = 0;
  for (let i = tok.offset - tok.col + 1; i < tok.offset; i++) {
    const c = source.charCodeAt(i);
    if (c === 9) tabs++;
    else if (c === 32) spaces++;
    else if (c !== 12) break;
  }
  return { tabs, spaces };
}

function layoutToken(type: string, at: { offset: number; line: number; col: number }): Token {
  return new Token(type, '', '', at.offset, at.line, at.col, 0);
}

/** The token of what the scanner just read. */
function tokenOf(raw: Scanner): Token {
  const text = raw.text;
  const value = raw.kind === 'name' && text.charCodeAt(0) === 36 /* $ */ ? text.slice(1) : text;
  return new Token(tokenClass(raw.kind, text), value, text, raw.offset, raw.line, raw.col, raw.lineBreaks);
}

/** The NEWLINE that ends a line whose last token is `last`: where that token ends. */
function newlineAfter(last: Token): Token {
  const nl = last.lineBreaks === 0 ? -1 : last.text.lastIndexOf('\n');
  const col = nl === -1 ? last.col + last.text.length : last.text.length - nl;
  return layoutToken('NEWLINE', { offset: last.offset + last.text.length, line: last.line + last.lineBreaks, col });
}

export interface Lexed {
  tokens: Token[];
  /** Errors the lexer went on after: lines indented to no level of their block. */
  problems: Diagnostic[];
}

/** Splits KCL source into tokens, with layout tokens; throws a KclError for lexical errors. */
export function tokenize(source: string, file: string): Token[] {
  const { tokens, problems } = lex(source, file);
  throwAll(problems);
  return tokens;
}

/** Reads `dottedNameTokens`' texts; they are read whole, one at a time. */
const nameScanner = new Scanner();

/**
 * `tokenize(text)` for a text that is one name or a dotted name written without blanks (`p`,
 * `svc.port`), the commonest `${...}` of a string, made without the layout pass a whole file
 * needs; undefined for any other text.
 */
export function dottedNameTokens(text: string): Token[] | undefined {
  const raw = nameScanner;
  raw.reset(text);
  const tokens: Token[] = [];
  try {
    for (let end = 0; raw.next(); end = raw.offset + raw.text.length) {
      const wanted = tokens.length % 2 === 0 ? raw.kind === 'name' && raw.text.charCodeAt(0) !== 36 : raw.text === '.';
      if (!wanted || raw.offset !== end) return undefined;
      tokens.push(tokenOf(raw));
    }
  } finally {
    raw.reset('');
  }
  // none, or a dot last
  if (tokens.length % 2 === 0) return undefined;
  tokens.push(newlineAfter(tokens[tokens.length - 1]));
  return tokens;
}

/**
 * Splits KCL source into tokens, with layout tokens. A line indented to no level of its block is
 * reported and read as part of the block it is in, as kcl's lexer does, so that the errors of the
 * lines after it are found too; other lexical errors throw.
 */
export function lex(source: string, file: string): Lexed {
  // with no least length a file's tokens come as one run (none for a file without tokens)
  const runs = lexRuns(source, file, Infinity);
  let tokens: Token[] = [];
  for (let r = runs.next(); ; r = runs.next()) {
    if (r.done) return { tokens, problems: r.value };
    tokens = r.value;
  }
}

/** A top-level statement starts with its first token, at column 1 of a line outside any block
 * or bracket; `elif` and `else` there go on with the `if` above them. */
export const CONTINUATIONS: ReadonlySet<string> = new Set(['elif', 'else']);

/**
 * Layouts not in use, each with its scanner. A file's lexing holds one until its last run, and
 * the parser lexes the `${...}` parts of a run's strings meanwhile, each with another. Kept, not
 * made per file: V8 compiles the lexer's loop for the hidden class of its Layout, and once no
 * Layout was alive a full collection freed that class and threw the code away with it, so every
 * file lexed after one ran in slower code until it was compiled again.
 */
const idleLayouts: Layout[] = [];

/**
 * The tokens of a file as runs of whole top-level statements, each run at least `runTokens`
 * long (but the last), for a parser that takes a run at a time: the tokens of a run it is done
 * with die young, where a whole file's tokens would all live until its parse ends, and each be
 * copied by the garbage collector on the way. Returns the problems `lex` returns.
 */
export function* lexRuns(source: string, file: string, runTokens: number): Generator<Token[], Diagnostic[]> {
  const layout = idleLayouts.pop() ?? new Layout();
  try {
    layout.start(source, file);
    return yield* layout.runs(runTokens);
  } finally {
    // an idle layout holds no source and no tokens
    layout.start('', '');
    idleLayouts.push(layout);
  }
}

/**
 * One lexing at a time of a source. A class rather than closures made per call: V8 inlines a
 * method into the loop that calls it, while a closure is a new function on every call, so the
 * loop compiled for one file threw its code away on the next ("wrong call target").
 */
class Layout {
  private readonly raw = new Scanner();
  // set by start
  private source!: string;
  private file!: string;
  private out!: Token[];
  private emitted!: number;
  /** Whether the last top-level statement was a decorator line, which goes with the one under it. */
  private decorated!: boolean;
  private problems!: Diagnostic[];
  private contexts!: Context[];
  private lineBreak!: boolean;
  private last: Token | undefined;

  constructor() {
    this.start('', '');
  }

  start(source: string, file: string): void {
    this.source = source;
    this.file = file;
    this.out = [];
    this.emitted = 0;
    this.decorated = false;
    this.problems = [];
    this.contexts = [{ kind: 'block', closer: '', indents: [{ tabs: 0, spaces: 0 }], pendingLambdas: 0 }];
    this.lineBreak = false;
    this.last = undefined;
    this.raw.reset(source);
  }

  *runs(runTokens: number): Generator<Token[], Diagnostic[]> {
    const contexts = this.contexts;
    const raw = this.raw;
    while (raw.next()) {
      switch (raw.kind) {
        case 'nl':
          this.lineBreak = true;
          continue;
        case 'unterminated':
          throw kclError('InvalidSyntax', 'unterminated string', this.position(raw));
        case 'invalid':
          throw kclError('InvalidSyntax', `invalid character ${JSON.stringify(raw.text)}`, this.position(raw));
      }
      const kind = raw.kind;
      const tok = tokenOf(raw);
      if (this.lineBreak) {
        this.lineBreak = false;
        const ctx = contexts[contexts.length - 1];
        // a line that starts with a closing bracket makes no layout tokens: none inside brackets,
        // none in the block it closes
        if (ctx.kind === 'block') {
          if (!(kind === 'close' && ctx.closer === tok.text)) this.blockLineBreak(ctx, tok);
        } else if (kind !== 'close') {
          this.bracketLineBreak(ctx, tok);
        }
      }
      // what came last once the line break's layout tokens are in
      const last = this.last;
      // seen before the token opens or closes a block or bracket: a `}` ending a lambda body at
      // column 1 closes a block, and starts nothing
      const startsStatement =
        tok.col === 1 &&
        contexts.length === 1 &&
        contexts[0].indents.length === 1 &&
        (last?.type === 'NEWLINE' || last?.type === 'DEDENT') &&
        !CONTINUATIONS.has(tok.text);
      if (kind === 'close') {
        this.closeContext(tok);
      } else if (kind === 'open') {
        const ctx = contexts[contexts.length - 1];
        const isLambdaBody =
          tok.text === '{' &&
          ctx.pendingLambdas > 0 &&
          !(last && TYPE_BRACE_PREDECESSORS.has(last.text)) &&
          !(last?.text === 'lambda' && last.type === 'keyword' && bracesBeforeArrow(this.source, tok.offset));
        if (isLambdaBody) ctx.pendingLambdas--;
        contexts.push({
          kind: isLambdaBody ? 'block' : 'bracket',
          closer: OPENERS.get(tok.text)!,
          indents: [],
          pendingLambdas: 0,
        });
      }
      if (tok.type === 'keyword' && tok.text === 'lambda') contexts[contexts.length - 1].pendingLambdas++;
      const pair =
        last && (tok.text === 'in' || tok.text === 'not') ? TWO_WORD_OPERATORS[`${last.text} ${tok.text}`] : undefined;
      if (pair && last && last.line === tok.line) {
        // `not in` and `is not` become one operator token, so `a is not b` has a single reading
        const joined = last.as('binop', pair, pair);
        this.out[this.out.length - 1] = joined;
        this.last = joined;
        continue;
      }
      if (startsStatement) {
        if (this.out.length >= runTokens && !this.decorated) {
          yield this.out;
          this.emitted += this.out.length;
          this.out = [];
        }
        this.decorated = tok.text === '@';
      }
      this.emit(tok);
    }
    const source = this.source;
    const end = { offset: source.length, line: 1 + countLines(source), col: 1 };
    if (!this.lastIsLayout()) this.emit(this.newline(end));
    for (const ctx of contexts.reverse()) {
      for (let i = 1; i < ctx.indents.length; i++) this.emit(layoutToken('DEDENT', end));
    }
    if (this.out.length > 0) yield this.out;
    return this.problems;
  }

  private emit(t: Token): void {
    // past this the parser's chart would outgrow any sensible memory: refuse rather than abort
    if (this.emitted + this.out.length === MAX_TOKENS) {
      throw kclError(
        'CompileError',
        `the file has more than ${MAX_TOKENS} tokens, more than kdeck compiles in one file; split it`,
        this.position(t),
      );
    }
    this.out.push(t);
    this.last = t;
  }

  private position(t: { line: number; col: number }): Position {
    return { file: this.file, line: t.line, column: t.col };
  }

  private lastIsLayout(): boolean {
    return this.last === undefined || LAYOUT.has(this.last.type);
  }

  // a NEWLINE sits where its line ends, so "unexpected newline" points after the last token
  private newline(fallback: Token | { offset: number; line: number; col: number }): Token {
    const last = this.last;
    return !last || LAYOUT.has(last.type) ? layoutToken('NEWLINE', fallback) : newlineAfter(last);
  }

  private blockLineBreak(ctx: Context, tok: Token): void {
    const indent = measureIndent(this.source, tok);
    if (ctx.indents.length === 0) {
      ctx.indents.push(indent);
      return;
    }
    if (!this.lastIsLayout() && this.last?.text !== '{') this.emit(this.newline(tok));
    let level = ctx.indents.length - 1;
    let order = compareIndent(indent, ctx.indents[level], this.position(tok));
    if (order > 0) {
      ctx.indents.push(indent);
      this.emit(layoutToken('INDENT', tok));
      return;
    }
    while (order < 0 && level > 0) order = compareIndent(indent, ctx.indents[--level], this.position(tok));
    const extra = indent.spaces - ctx.indents[level].spaces;
    if (order < 0 || (order > 0 && extra <= 0)) {
      throw kclError('IndentationError', 'unindent does not match any outer indentation level', this.position(tok));
    }
    if (order > 0) {
      this.problems.push({
        kind: 'InvalidSyntax',
        message: `invalid indentation with ${extra} space${extra > 1 ? 's' : ''}, try to align indents by adding or removing spaces`,
        position: this.position(tok),
      });
      return;
    }
    while (ctx.indents.length - 1 > level) {
      ctx.indents.pop();
      this.emit(layoutToken('DEDENT', tok));
    }
  }

  private bracketLineBreak(ctx: Context, tok: Token): void {
    const indent = measureIndent(this.source, tok);
    const joins = this.last !== undefined && JOINING.has(this.last.text);
    if (ctx.indents.length === 0) {
      ctx.indents.push(indent);
      if (!joins) this.emit(this.newline(tok));
      return;
    }
    const order = compareIndent(indent, ctx.indents[ctx.indents.length - 1], this.position(tok));
    if (order > 0 && this.last?.text === ':') {
      ctx.indents.push(indent);
      this.emit(this.newline(tok));
      this.emit(layoutToken('INDENT', tok));
      return;
    }
    if (order >= 0) {
      // however deep it is indented, a line starts a new entry unless one of the two lines
      // shows the expression goes on
      if (!joins && !continuesExpression(tok)) this.emit(this.newline(tok));
      return;
    }
    while (
      ctx.indents.length > 1 &&
      compareIndent(indent, ctx.indents[ctx.indents.length - 1], this.position(tok)) < 0
    ) {
      ctx.indents.pop();
      this.emit(layoutToken('DEDENT', tok));
    }
    if (compareIndent(indent, ctx.indents[0], this.position(tok)) < 0) ctx.indents[0] = indent;
    if (!joins || this.last?.type === 'DEDENT') this.emit(this.newline(tok));
  }

  private closeContext(tok: Token): void {
    const contexts = this.contexts;
    const ctx = contexts[contexts.length - 1];
    if (contexts.length === 1 || ctx.closer !== tok.text) return;
    contexts.pop();
    if (ctx.kind === 'block') {
      if (!this.lastIsLayout() && this.last?.text !== '{') this.emit(this.newline(tok));
      for (let i = 1; i < ctx.indents.length; i++) this.emit(layoutToken('DEDENT', tok));
    } else {
      for (let i = 1; i < ctx.indents.length; i++) this.emit(layoutToken('DEDENT', tok));
      if (this.last?.type === 'NEWLINE') this.out.pop();
      this.last = this.out[this.out.length - 1];
    }
  }
}

function countLines(source: string): number {
  let n = 0;
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The nearley side of the lexer: the grammar is compiled against one of these (it only asks
 * `has`), and each parse runs over its own, holding the tokens `tokenize` made.
 */
export class TokenArrayLexer {
  private index = 0;
  constructor(private readonly tokens: Token[] = []) {}

  reset(): void {
    // The tokens are given whole to the constructor; nearley's chunk is empty.
  }

  next(): Token | undefined {
    return this.tokens[this.index++];
  }

  save(): Record<string, never> {
    return {};
  }

  formatError(token: Token): string {
    return `unexpected ${describeToken(token)}`;
  }

  has(_tokenType: string): boolean {
    return true;
  }
}

export function describeToken(token: Token | undefined): string {
  if (!token) return 'end of file';
  switch (token.type) {
    case 'NEWLINE':
      return 'newline';
    case 'INDENT':
      return 'indent';
    case 'DEDENT':
      return 'dedent';
    case 'string':
      return `string ${token.text.length > 20 ? token.text.slice(0, 20) + '…' : token.text}`;
    default:
      return `token '${token.text}'`;
  }
}
