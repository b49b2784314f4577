/**
 * String literals: quote and prefix handling, escapes, and `${expr}` / `${expr: #json}`
 * interpolation. The parser splits a string token into its pieces (splitInterpolations) and
 * parses the expressions before the grammar runs, leaving them on the token; the grammar's
 * postprocessor then only assembles the literal (decodeString) and never calls the parser.
 */
import type * as A from './ast.js';
import { kclError } from '../diagnostics/diagnostics.js';
import type { Token } from './lexer.js';

/** A piece of an interpolated string before its expressions are parsed. */
export type RawPart = { text: string } | { source: string; line: number; column: number; spec?: string };

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
  $: '$',
};

interface Body {
  text: string;
  raw: boolean;
  /** Line and column of the body's first character, for positioning interpolations. */
  line: number;
  col: number;
}

function bodyOf(tok: Token): Body {
  const text = tok.text;
  let i = 0;
  let raw = false;
  // the prefix letters: r and R make the string raw, b and B change nothing
  for (let c = text.charCodeAt(0); c === 114 || c === 82 || c === 98 || c === 66; c = text.charCodeAt(++i)) {
    if (c === 114 || c === 82) raw = true;
  }
  const q = text.startsWith('"""', i) || text.startsWith("'''", i) ? 3 : 1;
  return { text: text.slice(i + q, text.length - q), raw, line: tok.line, col: tok.col + i + q };
}

/** Advances a line/column position over `text`. */
function advance(line: number, col: number, text: string): { line: number; col: number } {
  const nl = text.lastIndexOf('\n');
  if (nl === -1) return { line, col: col + text.length };
  let count = 0;
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') count++;
  return { line: line + count, col: text.length - nl };
}

/**
 * A string built from many pieces in bounded memory: each `+=` of a string makes a rope node of
 * its own (32 bytes however short the piece), so a literal of millions of escapes held hundreds of
 * megabytes of nodes; here every thousand pieces become one flat string.
 */
class Pieces {
  private pieces: string[] = [];
  private readonly chunks: string[] = [];

  add(piece: string): void {
    this.pieces.push(piece);
    if (this.pieces.length === 1024) {
      this.chunks.push(this.pieces.join(''));
      this.pieces = [];
    }
  }

  toString(): string {
    return this.chunks.join('') + this.pieces.join('');
  }
}

function decodeEscapes(text: string, file: string, at: { line: number; col: number }): string {
  if (!text.includes('\\')) return text;
  const out = new Pieces();
  for (let i = 0; i < text.length; i++) {
    // the text up to the next backslash goes in whole: one append, not one per character
    const next = text.indexOf('\\', i);
    if (next === -1) {
      out.add(text.slice(i));
      break;
    }
    if (next > i) out.add(text.slice(i, next));
    i = next;
    const n = text[++i];
    if (n === undefined) break;
    if (n === '\n') continue;
    if (n === '\r' && text[i + 1] === '\n') {
      i++;
      continue;
    }
    if (n in SIMPLE_ESCAPES && !(n === '0' && /[0-7]/.test(text[i + 1] ?? ''))) {
      out.add(SIMPLE_ESCAPES[n]);
      continue;
    }
    const hex = n === 'x' ? 2 : n === 'u' ? 4 : n === 'U' ? 8 : 0;
    if (hex) {
      const digits = text.slice(i + 1, i + 1 + hex);
      if (!new RegExp(`^[0-9a-fA-F]{${hex}}$`).test(digits)) {
        throw kclError('InvalidSyntax', `invalid \\${n} escape in string`, { file, line: at.line, column: at.col });
      }
      out.add(String.fromCodePoint(parseInt(digits, 16)));
      i += hex;
      continue;
    }
    if (/[0-7]/.test(n)) {
      const m = /^[0-7]{1,3}/.exec(text.slice(i))!;
      out.add(String.fromCharCode(parseInt(m[0], 8)));
      i += m[0].length - 1;
      continue;
    }
    out.add('\\' + n);
  }
  return out.toString();
}

/** Finds the `}` closing an interpolation that starts at `start`, skipping nested brackets and strings. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  let quote = '';
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (c === '}') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** Splits `expr: #spec` at the last top-level `:` followed by a `#` format spec. */
function splitSpec(inner: string): { expr: string; spec?: string } {
  const m = /:\s*(#[A-Za-z]+)\s*$/.exec(inner);
  if (!m) return { expr: inner };
  return { expr: inner.slice(0, m.index), spec: m[1].slice(1).toLowerCase() };
}

const FORMAT_SPECS = new Set(['json', 'yaml']);

/** Whether a string token holds interpolations to parse (raw strings keep `${...}` as text). */
export function isInterpolated(tok: Token): boolean {
  if (!tok.text.includes('${')) return false;
  return !bodyOf(tok).raw;
}

/** The literal text and the unparsed `${...}` expressions of an interpolated string token, each
 * expression with the place in the file where it starts. */
export function splitInterpolations(tok: Token, file: string): RawPart[] {
  const body = bodyOf(tok);
  const parts: RawPart[] = [];
  // the literal text runs from here to i; its escapes are decoded once it ends
  let literalStart = 0;
  let i = 0;
  const t = body.text;
  while (i < t.length) {
    const c = t.charCodeAt(i);
    if (c === 92 /* \\ */ && i + 1 < t.length) {
      i += 2;
      continue;
    }
    if (c === 36 /* $ */ && t.charCodeAt(i + 1) === 123 /* { */) {
      const end = closingBrace(t, i + 2);
      if (end === -1) {
        const at = advance(body.line, body.col, t.slice(0, i));
        throw kclError('InvalidSyntax', 'string interpolation expression can not be empty', {
          file,
          line: at.line,
          column: at.col,
        });
      }
      if (i > literalStart) parts.push({ text: decodeEscapes(t.slice(literalStart, i), file, body) });
      const { expr, spec } = splitSpec(t.slice(i + 2, end));
      const at = advance(body.line, body.col, t.slice(0, i + 2));
      if (spec !== undefined && !FORMAT_SPECS.has(spec)) {
        throw kclError('CompileError', `#${spec} is a invalid format spec`, { file, line: at.line, column: at.col });
      }
      parts.push({ source: expr, line: at.line, column: at.col, spec });
      i = end + 1;
      literalStart = i;
      continue;
    }
    i++;
  }
  if (i > literalStart) parts.push({ text: decodeEscapes(t.slice(literalStart), file, body) });
  return parts;
}

/** The string literal of a token; `loc` is copied, so it may be a shared scratch span. */
export function decodeString(tok: Token, loc: A.Loc, file = ''): A.StringLit {
  const node: A.StringLit = {
    type: 'StringLit',
    value: '',
    raw: tok.text,
    line: loc.line,
    column: loc.column,
    endLine: loc.endLine,
    endColumn: loc.endColumn,
  };
  if (tok.parts) {
    node.parts = tok.parts;
    node.value = tok.parts.map((p) => p.text ?? '').join('');
    return node;
  }
  const body = bodyOf(tok);
  node.value = body.raw ? body.text : decodeEscapes(body.text, file, body);
  return node;
}
