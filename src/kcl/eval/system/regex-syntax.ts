/**
 * kcl compiles patterns with Rust's fancy_regex (Rust regex syntax plus look-around and
 * backreferences, and Python's `(?P<name>...)`). This turns such a pattern into an equivalent JS
 * RegExp in unicode mode, where the two syntaxes or meanings differ:
 *
 * - Rust's `\d`, `\w`, `\s` and `\b` are Unicode-aware; JS's are ASCII-only, so they become
 *   property classes.
 * - `.` excludes only `\n` in Rust, while JS also excludes `\r`, U+2028 and U+2029.
 * - Rust escapes any ASCII punctuation and accepts `\x{..}`, `\U...`, `\pL`, `\A`, `\z` and POSIX
 *   classes (`[[:alpha:]]`); unicode-mode JS rejects or lacks them.
 * - A `]` first in a class is a literal in Rust.
 * - Leading inline flags `(?i)` become RegExp flags.
 *
 * Syntax JS cannot express (flags in the middle of a pattern, atomic groups, nested classes and
 * class set operations) is refused with an error rather than approximated.
 */
import { KclError, kclError } from '../../../diagnostics/diagnostics.js';

/** The members of Rust's Unicode `\w`, usable inside a class. */
const WORD = '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}';
const WORD_CLASS = `[${WORD}]`;
const WORD_BOUNDARY = `(?:(?<=${WORD_CLASS})(?!${WORD_CLASS})|(?<!${WORD_CLASS})(?=${WORD_CLASS}))`;
const NOT_WORD_BOUNDARY = `(?:(?<=${WORD_CLASS})(?=${WORD_CLASS})|(?<!${WORD_CLASS})(?!${WORD_CLASS}))`;

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

/** Characters a unicode-mode JS pattern lets a backslash escape as themselves. */
const JS_ESCAPABLE = new Set('^$\\.*+?()[]{}|/');

/** Marks patterns kcl accepts but a JS RegExp cannot express, so that compile() does not say false. */
const UNSUPPORTED_NOTE = 'kdeck runs regex patterns as JavaScript regular expressions, which lack this syntax';

function unsupported(pattern: string, what: string): never {
  throw kclError('EvaluationError', `regex pattern '${pattern}' uses ${what}`, undefined, { note: UNSUPPORTED_NOTE });
}

function invalid(pattern: string, why: string): never {
  throw kclError('EvaluationError', `invalid regex pattern '${pattern}': ${why}`);
}

function hexEscape(c: string): string {
  return `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`;
}

/** Rust's `\p{Greek}` names a script directly; JS wants `\p{Script=Greek}`. */
function propertyEscape(negated: boolean, name: string): string {
  const letter = negated ? 'P' : 'p';
  for (const candidate of [name, `Script=${name}`]) {
    try {
      new RegExp(`\\${letter}{${candidate}}`, 'u');
      return `\\${letter}{${candidate}}`;
    } catch {
      // try the next spelling
    }
  }
  throw kclError('EvaluationError', `unknown Unicode property '${name}' in a regex pattern`);
}

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  x: boolean;
}

class Translator {
  private pos = 0;
  private out = '';

  constructor(
    private readonly src: string,
    private readonly flags: Flags,
  ) {}

  run(): string {
    const src = this.src;
    while (this.pos < src.length) {
      const c = src[this.pos];
      if (c === '\\') this.escape(false);
      else if (c === '[') this.charClass();
      else if (c === '(') this.group();
      else if (c === '.') {
        this.out += this.flags.s ? '[\\s\\S]' : '[^\\n]';
        this.pos++;
      } else if (this.flags.x && /\s/.test(c)) {
        this.pos++;
      } else if (this.flags.x && c === '#') {
        while (this.pos < src.length && src[this.pos] !== '\n') this.pos++;
      } else {
        this.out += c;
        this.pos++;
      }
    }
    return this.out;
  }

  private group(): void {
    const rest = this.src.slice(this.pos);
    const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
    if (named) {
      this.out += `(?<${named[1]}>`;
      this.pos += named[0].length;
      return;
    }
    const backref = /^\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/.exec(rest);
    if (backref) {
      this.out += `\\k<${backref[1]}>`;
      this.pos += backref[0].length;
      return;
    }
    if (rest.startsWith('(?>')) unsupported(this.src, 'an atomic group');
    if (/^\(\?[-imsxuU]+[:)]/.test(rest)) unsupported(this.src, 'inline flags after the start of the pattern');
    // (, (?:, (?=, (?!, (?<=, (?<! mean the same in both syntaxes
    this.out += '(';
    this.pos++;
  }

  /** One escape sequence; `inClass` decides how class shorthands are spelled. */
  private escape(inClass: boolean): void {
    const src = this.src;
    const c = src[this.pos + 1];
    if (c === undefined) invalid(src, 'trailing backslash');
    this.pos += 2;
    switch (c) {
      case 'd':
        this.out += '\\p{Nd}';
        return;
      case 'D':
        this.out += '\\P{Nd}';
        return;
      case 's':
        this.out += '\\p{White_Space}';
        return;
      case 'S':
        this.out += '\\P{White_Space}';
        return;
      case 'w':
        this.out += inClass ? WORD : WORD_CLASS;
        return;
      case 'W':
        // a negated set cannot sit inside a unicode-mode class; JS's ASCII \W is the nearest
        this.out += inClass ? '\\W' : `[^${WORD}]`;
        return;
      case 'b':
        this.out += inClass ? '\\x08' : WORD_BOUNDARY;
        return;
      case 'B':
        if (inClass) invalid(src, '\\B in a character class');
        this.out += NOT_WORD_BOUNDARY;
        return;
      case 'A':
        this.out += '(?<![\\s\\S])';
        return;
      case 'z':
      case 'Z':
        this.out += '(?![\\s\\S])';
        return;
      case 'a':
        this.out += '\\x07';
        return;
      case 'x':
      case 'u':
      case 'U':
        this.codePointEscape(c);
        return;
      case 'p':
      case 'P':
        this.property(c === 'P');
        return;
    }
    if (/[0-9]/.test(c) || 'nrtfv0k'.includes(c)) {
      // backreferences, \k<name> and control escapes mean the same in both syntaxes
      this.out += '\\' + c;
      return;
    }
    if (JS_ESCAPABLE.has(c) || (inClass && c === '-')) {
      this.out += '\\' + c;
      return;
    }
    if (/[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/.test(c)) {
      this.out += hexEscape(c);
      return;
    }
    if (this.flags.x && /\s/.test(c)) {
      this.out += hexEscape(c);
      return;
    }
    invalid(src, `unrecognized escape sequence '\\${c}'`);
  }

  /** `\xHH`, `\x{H..}`, `\uHHHH`, `\u{H..}`, `\UHHHHHHHH`, `\U{H..}`. */
  private codePointEscape(kind: string): void {
    const rest = this.src.slice(this.pos);
    const width = kind === 'x' ? 2 : kind === 'u' ? 4 : 8;
    const m = /^\{([0-9A-Fa-f]{1,8})\}/.exec(rest) ?? new RegExp(`^([0-9A-Fa-f]{${width}})`).exec(rest);
    if (!m) invalid(this.src, `invalid \\${kind} escape`);
    const cp = parseInt(m[1], 16);
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) invalid(this.src, `invalid code point ${m[1]}`);
    this.out += `\\u{${cp.toString(16)}}`;
    this.pos += m[0].length;
  }

  private property(negated: boolean): void {
    const rest = this.src.slice(this.pos);
    const m = /^\{([^}]*)\}/.exec(rest) ?? /^([A-Za-z])/.exec(rest);
    if (!m) invalid(this.src, 'invalid Unicode property escape');
    const name = m[1].replace(/^\^/, '');
    const neg = negated !== m[1].startsWith('^');
    this.out += propertyEscape(neg, name.includes('=') || name.includes(':') ? name.replace(':', '=') : name);
    this.pos += m[0].length;
  }

  private charClass(): void {
    const src = this.src;
    this.out += '[';
    this.pos++;
    if (src[this.pos] === '^') {
      this.out += '^';
      this.pos++;
    }
    // a `]` right after the opening is a literal in Rust, an empty class in JS
    if (src[this.pos] === ']') {
      this.out += '\\]';
      this.pos++;
    }
    while (this.pos < src.length) {
      const c = src[this.pos];
      if (c === ']') {
        this.out += ']';
        this.pos++;
        return;
      }
      if (c === '\\') {
        this.escape(true);
        continue;
      }
      if (c === '[') {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(src.slice(this.pos));
        if (!posix) unsupported(src, 'a nested character class');
        const members = POSIX_CLASSES[posix[2]];
        if (members === undefined) invalid(src, `unknown POSIX class '${posix[2]}'`);
        if (posix[1]) unsupported(src, 'a negated POSIX class inside a class');
        this.out += members;
        this.pos += posix[0].length;
        continue;
      }
      const pair = src.slice(this.pos, this.pos + 2);
      if (pair === '&&' || pair === '--' || pair === '~~') unsupported(src, 'a character class set operation');
      this.out += c;
      this.pos++;
    }
    invalid(src, 'unclosed character class');
  }
}

/** Leading `(?flags)` groups become RegExp flags. */
function leadingFlags(pattern: string): { flags: Flags; body: string } {
  const flags: Flags = { i: false, m: false, s: false, x: false };
  let body = pattern;
  for (let m = /^\(\?([a-zA-Z-]+)\)/.exec(body); m; m = /^\(\?([a-zA-Z-]+)\)/.exec(body)) {
    let on = true;
    for (const f of m[1]) {
      if (f === '-') on = false;
      else if (f === 'i' || f === 'm' || f === 's' || f === 'x') flags[f] = on;
      else if (f !== 'u') unsupported(pattern, `the inline flag '${f}'`);
    }
    body = body.slice(m[0].length);
  }
  return { flags, body };
}

const cache = new Map<string, RegExp>();

/**
 * The pattern as a global unicode RegExp (callers set lastIndex); an invalid pattern raises an
 * EvaluationError, as fancy_regex's compile failure makes kcl panic.
 */
export function compileRegex(pattern: string): RegExp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const { flags, body } = leadingFlags(pattern);
  const source = new Translator(body, flags).run();
  let re: RegExp;
  try {
    re = new RegExp(source, 'gu' + (flags.i ? 'i' : '') + (flags.m ? 'm' : ''));
  } catch (e) {
    const why = e instanceof SyntaxError ? e.message.replace(/^Invalid regular expression: /, '') : String(e);
    return invalid(pattern, why);
  }
  if (cache.size > 256) cache.clear();
  cache.set(pattern, re);
  return re;
}

/** Whether kcl would accept the pattern; unsupported syntax still raises. */
export function isValidRegex(pattern: string): boolean {
  try {
    compileRegex(pattern);
    return true;
  } catch (e) {
    if (e instanceof KclError && e.diagnostic.note === UNSUPPORTED_NOTE) throw e;
    return false;
  }
}
