/**
 * KCL's raw tokens, read character by character: names, keywords, literals, operators and line
 * breaks, with the blanks, comments and line continuations between them skipped. The layout pass
 * (lexer.ts) makes NEWLINE / INDENT / DEDENT of the line breaks.
 *
 * By hand rather than with a RegExp per token (moo, before): a RegExp match allocates its result
 * and every blank between tokens was a token of its own, so lexing was most of the parse's time
 * (about 0.5 µs a token); a loop over char codes allocates only the tokens that are kept. And a
 * loop has no backtracking stack, so a string of millions of escapes is read like any other.
 *
 * Where two readings could start at one place, the first of these wins, as the rules kcl's lexer
 * follows do: a string (with its r/b prefix), a name, a number, an operator (the longest).
 */

/** `open` and `close` are the brackets, `punct` the other one-character punctuation. */
export type RawKind =
  'nl' | 'name' | 'keyword' | 'punct' | 'open' | 'close' | 'op' | 'string' | 'number' | 'unterminated' | 'invalid';

/** Words that can never be names. Other KCL keywords (type, check, schema, rule, protocol, all,
 * any, map, filter) are recognised by position in the grammar, so `type` stays usable as a key. */
const HARD_KEYWORDS: readonly string[] = [
  'True',
  'False',
  'None',
  'Undefined',
  'import',
  'as',
  'if',
  'elif',
  'else',
  'for',
  'in',
  'not',
  'and',
  'or',
  'is',
  'lambda',
  'assert',
  'mixin',
];

/** Every operator of two or three characters. */
// prettier-ignore
const LONG_OPERATORS: readonly string[] = [
  '**', '//', '<<', '>>', '<=', '>=', '==', '!=', '->',
  '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '**=', '//=', '<<=', '>>=', '...',
];

/**
 * The hard keywords and the long operators by their first char code. A keyword's or an operator's
 * text is the string of this table (a literal, which V8 keeps as its own), not a new slice of the
 * source: the parser's and the tree builders' lookups of it by text (precedence, operator sets)
 * then find its hash already made, and compare it with theirs by identity. And a name is looked
 * up only among the keywords sharing its first letter: hashing every name into a Set was the
 * scanner's costliest step.
 */
const OWN_TEXTS: readonly (readonly string[] | undefined)[] = (() => {
  const table: string[][] = [];
  for (const text of [...HARD_KEYWORDS, ...LONG_OPERATORS]) (table[text.charCodeAt(0)] ??= []).push(text);
  return table;
})();

/** The table's string for `text`, or undefined when it is none of them. */
function ownText(text: string): string | undefined {
  const texts = OWN_TEXTS[text.charCodeAt(0)];
  if (texts === undefined) return undefined;
  for (const own of texts) if (own === text) return own;
  return undefined;
}

const NL = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const FORM_FEED = 12;
const HASH = 35;
const BACKSLASH = 92;
const DOLLAR = 36;
const DOT = 46;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const UNDERSCORE = 95;

/** The kind of each char code that is a token by itself, never the start of a longer one:
 * `( ) [ ] { } , : ; @ ~ ?`. */
const PUNCT: readonly (RawKind | undefined)[] = (() => {
  const kinds: RawKind[] = [];
  for (const c of ',:;@~?') kinds[c.charCodeAt(0)] = 'punct';
  for (const c of '([{') kinds[c.charCodeAt(0)] = 'open';
  for (const c of ')]}') kinds[c.charCodeAt(0)] = 'close';
  return kinds;
})();

const isDigit = (c: number) => c >= 48 && c <= 57;
const isLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === UNDERSCORE;
const isWord = (c: number) => isLetter(c) || isDigit(c);
const isQuote = (c: number) => c === DOUBLE_QUOTE || c === SINGLE_QUOTE;

const isHexDigit = (c: number) => isDigit(c) || ((c | 0x20) >= 97 && (c | 0x20) <= 102);
const isOctalDigit = (c: number) => c >= 48 && c <= 55;
const isBinaryDigit = (c: number) => c === 48 || c === 49;
/** The digits of a hex, octal or binary int, by the letter after its `0`. */
const RADIX_DIGITS: ReadonlyMap<string, (c: number) => boolean> = new Map([
  ['x', isHexDigit],
  ['X', isHexDigit],
  ['o', isOctalDigit],
  ['O', isOctalDigit],
  ['b', isBinaryDigit],
  ['B', isBinaryDigit],
]);
/** `r`, `R`, `b` or `B`: a string's prefix when a quote follows. */
const isPrefix = (c: number) => c === 114 || c === 82 || c === 98 || c === 66;

/**
 * One source read token by token. `next` reads a token and describes it in the fields below,
 * which the next call overwrites: the caller makes its own token of what it keeps, so the
 * scanner allocates nothing but the token's text.
 */
export class Scanner {
  kind: RawKind = 'nl';
  text = '';
  offset = 0;
  /** Where the token starts, 1-based; a column counts UTF-16 code units, as kcl's does. */
  line = 1;
  col = 1;
  /** The line breaks inside the token (a string's, or the one of a line break token). */
  lineBreaks = 0;

  private source = '';
  private index = 0;
  private currentLine = 1;
  /** The offset where the current line starts. */
  private lineStart = 0;

  reset(source: string): void {
    this.source = source;
    this.index = 0;
    this.currentLine = 1;
    this.lineStart = 0;
    this.text = '';
  }

  /** Reads the next token; false at the end of the source. */
  next(): boolean {
    const s = this.source;
    const n = s.length;
    let i = this.index;
    // blanks, comments and line continuations
    for (;;) {
      if (i >= n) {
        this.index = i;
        return false;
      }
      const c = s.charCodeAt(i);
      if (c === SPACE || c === TAB || c === FORM_FEED) i++;
      else if (c === HASH) {
        const end = s.indexOf('\n', i);
        i = end === -1 ? n : end;
      } else if (c === BACKSLASH) {
        const next = this.continuationEnd(i);
        if (next === -1) break;
        i = next;
        if (s.charCodeAt(i - 1) === NL) this.newLine(i);
      } else break;
    }
    this.offset = i;
    this.line = this.currentLine;
    this.col = i - this.lineStart + 1;
    this.lineBreaks = 0;
    const c = s.charCodeAt(i);
    let end: number;
    if (c === NL || (c === CR && s.charCodeAt(i + 1) === NL)) {
      end = c === NL ? i + 1 : i + 2;
      this.kind = 'nl';
      this.lineBreaks = 1;
      this.newLine(end);
      this.index = end;
      this.text = c === NL ? '\n' : '\r\n';
      return true;
    }
    const punct = PUNCT[c];
    if (punct !== undefined) {
      this.kind = punct;
      end = i + 1;
    } else if (isQuote(c) || (isPrefix(c) && isQuote(s.charCodeAt(i + 1)))) {
      end = this.stringEnd(isQuote(c) ? i : i + 1);
      if (end !== -1) this.kind = 'string';
      else if (isQuote(c)) {
        this.kind = 'unterminated';
        end = i + 1;
      } else {
        // a prefix letter whose string does not end is a name of its own; its quote is next
        this.kind = 'name';
        end = i + 1;
      }
    } else if (isLetter(c) || (c === DOLLAR && isLetter(s.charCodeAt(i + 1)))) {
      end = i + 1;
      while (end < n && isWord(s.charCodeAt(end))) end++;
      const text = s.slice(i, end);
      const keyword = ownText(text);
      this.text = keyword ?? text;
      this.kind = keyword === undefined ? 'name' : 'keyword';
      this.index = end;
      return true;
    } else if (isDigit(c) || (c === DOT && isDigit(s.charCodeAt(i + 1)))) {
      this.kind = 'number';
      end = this.numberEnd(i);
    } else {
      end = this.operatorEnd(i);
      this.kind = end === -1 ? 'invalid' : 'op';
      if (end === -1) end = i + 1;
    }
    const text = s.slice(i, end);
    this.text = this.kind === 'op' ? (ownText(text) ?? text) : text;
    this.index = end;
    if (this.kind === 'string') this.countLineBreaks(i, end);
    return true;
  }

  private newLine(start: number): void {
    this.currentLine++;
    this.lineStart = start;
  }

  private countLineBreaks(from: number, to: number): void {
    const s = this.source;
    for (let at = s.indexOf('\n', from); at !== -1 && at < to; at = s.indexOf('\n', at + 1)) {
      this.lineBreaks++;
      this.newLine(at + 1);
    }
  }

  /** After a backslash that continues the line (before a line break, or at the end): where the
   * next line starts; -1 for any other backslash. */
  private continuationEnd(i: number): number {
    const s = this.source;
    const next = s.charCodeAt(i + 1);
    if (i + 1 >= s.length) return i + 1;
    if (next === NL) return i + 2;
    if (next === CR && s.charCodeAt(i + 2) === NL) return i + 3;
    return -1;
  }

  /** The end of the string whose opening quote is at `q`, or -1 when it never ends. An
   * unfinished `"""` is read as the empty string `""`, with the third quote starting another. */
  private stringEnd(q: number): number {
    const s = this.source;
    const n = s.length;
    const quote = s.charCodeAt(q);
    if (s.charCodeAt(q + 1) === quote && s.charCodeAt(q + 2) === quote) {
      for (let j = q + 3; j < n;) {
        const c = s.charCodeAt(j);
        if (c === BACKSLASH) j += 2;
        else if (c === quote && s.charCodeAt(j + 1) === quote && s.charCodeAt(j + 2) === quote) return j + 3;
        else j++;
      }
    }
    for (let j = q + 1; j < n;) {
      const c = s.charCodeAt(j);
      if (c === quote) return j + 1;
      if (c === NL) return -1;
      // an escape takes any character, a line break too
      j += c === BACKSLASH ? 2 : 1;
    }
    return -1;
  }

  /**
   * The end of the number at `i`: a float (`1.5`, `.5`, `1.`, `1e3`), a hex, octal or binary
   * int, or a decimal int with an optional unit suffix (`1Gi`, `5m`) that no letter follows.
   */
  private numberEnd(i: number): number {
    const s = this.source;
    const intEnd = isDigit(s.charCodeAt(i)) ? this.digitsEnd(i + 1, isDigit) : i;
    if (s.charCodeAt(intEnd) === DOT) {
      const after = s.charCodeAt(intEnd + 1);
      if (isDigit(after)) return this.exponentEnd(this.digitsEnd(intEnd + 2, isDigit));
      if (intEnd > i && after !== DOT && !isWord(after)) return this.exponentEnd(intEnd + 1);
    }
    const exponent = this.exponentEnd(intEnd);
    if (exponent > intEnd) return exponent;
    const radixDigit = s.charCodeAt(i) === 48 && intEnd === i + 1 ? RADIX_DIGITS.get(s[i + 1]!) : undefined;
    if (radixDigit) {
      const end = this.digitsEnd(i + 2, radixDigit);
      if (end > i + 2) return end;
    }
    // a unit suffix: `Ki`..`Pi`, or one of `n u m k K M G T P`, that no letter or digit follows
    const unit = intEnd < s.length ? s[intEnd] : '';
    if (
      unit !== '' &&
      'KMGTP'.includes(unit) &&
      s.charCodeAt(intEnd + 1) === 105 /* i */ &&
      !isWord(s.charCodeAt(intEnd + 2))
    )
      return intEnd + 2;
    if (unit !== '' && 'numkKMGTP'.includes(unit) && !isWord(s.charCodeAt(intEnd + 1))) return intEnd + 1;
    return intEnd;
  }

  /** The end of a run of `digit`s and underscores from `from`. */
  private digitsEnd(from: number, digit: (c: number) => boolean): number {
    const s = this.source;
    let j = from;
    while (digit(s.charCodeAt(j)) || s.charCodeAt(j) === UNDERSCORE) j++;
    return j;
  }

  /** The end of an exponent (`e5`, `E-3`) at `from`, or `from` when none is there. */
  private exponentEnd(from: number): number {
    const s = this.source;
    const e = s.charCodeAt(from);
    if (e !== 101 && e !== 69) return from;
    let j = from + 1;
    const sign = s.charCodeAt(j);
    if (sign === 43 || sign === 45) j++;
    if (!isDigit(s.charCodeAt(j))) return from;
    while (isDigit(s.charCodeAt(j))) j++;
    return j;
  }

  /** The end of the longest operator at `i`, or -1 when none starts there. */
  private operatorEnd(i: number): number {
    const s = this.source;
    const c = s.charCodeAt(i);
    const next = s.charCodeAt(i + 1);
    const EQ = 61;
    switch (c) {
      case 42: // *
      case 47: // /
      case 60: // <
      case 62: // >
        // doubled (`**`, `//`, `<<`, `>>`), then either may take `=`
        if (next === c) return s.charCodeAt(i + 2) === EQ ? i + 3 : i + 2;
        return next === EQ ? i + 2 : i + 1;
      case DOT:
        return next === DOT && s.charCodeAt(i + 2) === DOT ? i + 3 : i + 1;
      case 45: // -
        return next === EQ || next === 62 ? i + 2 : i + 1;
      case EQ:
      case 33: // !
      case 43: // +
      case 37: // %
      case 38: // &
      case 124: // |
      case 94: // ^
        return next === EQ ? i + 2 : i + 1;
      default:
        return -1;
    }
  }
}
