/**
 * YAML and JSON text for KCL values, byte-for-byte as `kcl run`, `yaml.encode` and `json.encode`
 * print them.
 *
 * kcl turns a value into JSON data first (dropping Undefined and functions), then hands that to
 * its fork of serde_yaml, which picks a scalar style per string and lets libyaml's emitter write
 * the text. The emitter below follows libyaml's decisions (plain/quoted/literal choice, escapes,
 * block scalar headers, `? ` keys past 128 bytes, the `...` after a keep-chomped scalar) with the
 * settings serde_yaml uses: indent 2, unicode output, no line width. The `yaml` package cannot be
 * configured into those decisions (it analyses scalars, escapes and picks explicit keys its own
 * way), so only the small block-style subset kcl produces is written here by hand.
 */
import { DictValue, UNDEFINED, UnitValue, type Value } from './eval/values.js';
import { readJsonFloat } from './json-number.js';

export interface EncodeOptions {
  /** Sort dict keys (by code point, as Rust orders strings) at every level. */
  sortKeys?: boolean;
  /** Drop entries whose key starts with `_` at every level (`kcl run` does unless --show_hidden). */
  ignorePrivate?: boolean;
  /** Drop None entries and None list items (`--disable_none`, `ignore_none=True`). */
  ignoreNone?: boolean;
}

export interface YamlStreamOptions extends EncodeOptions {
  /** The document separator line, `---` unless `manifests.yaml_stream` was given another. */
  sep?: string;
}

export interface JsonOptions extends EncodeOptions {
  /** Spaces per nesting level; 0 keeps everything on one line with `, ` and `: ` separators. */
  indent?: number;
}

// ---------------------------------------------------------------- data model

/** A value reduced to what JSON can carry, which is all kcl ever serialises. */
type Data = null | boolean | bigint | number | string | Data[] | DataMap;

interface DataMap {
  readonly kind: 'map';
  readonly entries: [string, Data][];
}

function isDataMap(d: Data): d is DataMap {
  return typeof d === 'object' && d !== null && !Array.isArray(d);
}

/** Functions, schema types and modules: kcl leaves them out of dicts and lists alike. */
function isNonData(v: Value): boolean {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof DictValue) &&
    !(v instanceof UnitValue) &&
    v !== UNDEFINED
  );
}

/** Rust orders `String` keys by UTF-8 bytes, i.e. by code point; UTF-16 order differs above U+D7FF. */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate unit stands for a code point above U+FFFF, so it outranks any other BMP unit.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Whether kcl writes `item` as a list item or a dict value. */
function isWritten(item: Value, opts: EncodeOptions): boolean {
  return item !== UNDEFINED && !isNonData(item) && !(item === null && opts.ignoreNone);
}

/** A dict's entries as kcl writes them: in order (sorted if asked), without the ones it drops. */
function writtenEntries(v: DictValue, opts: EncodeOptions): [string, Value][] {
  // one pass, not a copy then a filter: a Spec of 300 resources has thousands of dicts
  const entries: [string, Value][] = [];
  for (const entry of v.entries) {
    if (!(opts.ignorePrivate && entry[0].startsWith('_')) && isWritten(entry[1], opts)) entries.push(entry);
  }
  if (opts.sortKeys) entries.sort(([a], [b]) => compareCodePoints(a, b));
  return entries;
}

/** A scalar's data; undefined for a list, dict or non-data value. */
function scalarData(v: Value): Data | undefined {
  if (v === null || v === UNDEFINED) return null;
  switch (typeof v) {
    case 'boolean':
    case 'bigint':
    case 'string':
      return v;
    case 'number':
      // serde_json has no NaN or infinity and writes null in their place.
      return Number.isFinite(v) ? v : null;
  }
  // a number multiplier is output as its real value, a float, as in kcl
  if (v instanceof UnitValue) return Number.isFinite(v.value) ? v.value : null;
  return undefined;
}

/** What one walk over a value builds: `Data` for the writers here, or plain JS data. */
interface DataForm<T> {
  scalar(d: Data): T;
  list(items: T[]): T;
  map(entries: [string, T][]): T;
}

function walkData<T>(v: Value, opts: EncodeOptions, form: DataForm<T>): T {
  const scalar = scalarData(v);
  if (scalar !== undefined) return form.scalar(scalar);
  if (Array.isArray(v)) {
    const items: T[] = [];
    for (const item of v) if (isWritten(item, opts)) items.push(walkData(item, opts, form));
    return form.list(items);
  }
  if (v instanceof DictValue)
    return form.map(writtenEntries(v, opts).map(([key, item]) => [key, walkData(item, opts, form)]));
  // A bare function, schema type or module has no data form; null is the closest thing.
  return form.scalar(null);
}

const DATA: DataForm<Data> = { scalar: (d) => d, list: (items) => items, map: (entries) => ({ kind: 'map', entries }) };

const PLAIN: DataForm<unknown> = {
  scalar: (d) => {
    if (typeof d !== 'bigint') return d;
    const n = Number(d);
    return Number.isSafeInteger(n) ? n : d;
  },
  list: (items) => items,
  map: (entries) => {
    const obj: Record<string, unknown> = {};
    for (const [key, value] of entries) {
      // a `__proto__` key is data, not a prototype swap; defined rather than assigned (the slow
      // way) only for it
      if (key === '__proto__')
        Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
      else obj[key] = value;
    }
    return obj;
  },
};

function toData(v: Value, opts: EncodeOptions): Data {
  return walkData(v, opts, DATA);
}

/**
 * Plain JS data (arrays and ordinary objects, no Maps) with kcl's filtering applied. Ints become
 * numbers when they fit exactly and stay bigints otherwise; NaN and infinities become null. Object
 * keys that look like array indices are enumerated first by JS itself, so use `toYaml`/`toJson`
 * where key order matters. Made by the same walk as `Data`, not from it: a compiled stack's whole
 * spec goes this way.
 */
export function plainData(v: Value, opts: EncodeOptions = {}): unknown {
  return walkData(v, opts, PLAIN);
}

// ---------------------------------------------------------------- numbers

/**
 * A float as Rust's `ryu` prints it (serde_json and serde_yaml both use it): the shortest digits
 * that round-trip, `.0` on integral values up to 16 digits, and otherwise exponent form without a
 * `+` or zero padding (`1e16`, `1.5e-7`).
 */
function formatFloat(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  // String() yields the same shortest round-trip digits as ryu; only the layout differs.
  const [mant = '', expPart] = String(Math.abs(x)).split('e');
  const dot = mant.indexOf('.');
  const intPart = dot < 0 ? mant : mant.slice(0, dot);
  let digits = intPart + (dot < 0 ? '' : mant.slice(dot + 1));
  // The value is 0.<digits> × 10^point.
  let point = intPart.length + (expPart === undefined ? 0 : Number(expPart));
  const lead = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(lead).replace(/0+$/, '');
  point -= lead;
  const len = digits.length;
  let body: string;
  if (point >= len && point <= 16) body = digits + '0'.repeat(point - len) + '.0';
  else if (point > 0 && point <= 16) body = `${digits.slice(0, point)}.${digits.slice(point)}`;
  else if (point > -5 && point <= 0) body = `0.${'0'.repeat(-point)}${digits}`;
  else if (len === 1) body = `${digits}e${point - 1}`;
  else body = `${digits[0]}.${digits.slice(1)}e${point - 1}`;
  return sign + body;
}

/**
 * A finite float after kcl's trip through JSON text: it hands serde_yaml a value written as JSON
 * and read back by serde_json (whose reading can move it by one unit in the last place), and
 * yaml.decode passes what serde_yaml read through the same trip.
 */
export function viaJsonText(x: number): number {
  // every float kcl writes is in range when read back; the value itself is the safe fallback
  return readJsonFloat(formatFloat(x)) ?? x;
}

// ---------------------------------------------------------------- JSON

/**
 * JSON as `json.encode` and `${x: #json}` write it: serde_json with kcl's formatter, which puts a
 * space after `,` and `:` on one line, or breaks lines and indents when `indent` is positive.
 */
export function toJson(value: Value, options: JsonOptions = {}): string {
  const indent = ' '.repeat(Math.max(0, Math.trunc(options.indent ?? 0)));
  return jsonText(toData(value, options), indent, 0);
}

function jsonText(d: Data, indent: string, level: number): string {
  if (d === null) return 'null';
  switch (typeof d) {
    case 'boolean':
    case 'bigint':
      return String(d);
    case 'number':
      return formatFloat(d);
    case 'string':
      // JSON.stringify escapes exactly serde_json's set: `"`, `\` and C0 controls, in lowercase hex.
      return JSON.stringify(d);
  }
  const parts = Array.isArray(d)
    ? d.map((x) => jsonText(x, indent, level + 1))
    : d.entries.map(([k, x]) => `${JSON.stringify(k)}: ${jsonText(x, indent, level + 1)}`);
  const [open, close] = Array.isArray(d) ? ['[', ']'] : ['{', '}'];
  if (parts.length === 0) return open + close;
  if (indent === '') return open + parts.join(', ') + close;
  const inner = '\n' + indent.repeat(level + 1);
  return open + inner + parts.join(',' + inner) + '\n' + indent.repeat(level) + close;
}

// ---------------------------------------------------------------- YAML

/** One YAML document for a value, as `kcl run` prints it (always ending with a newline). */
export function toYaml(value: Value, options: EncodeOptions = {}): string {
  return new Emitter().document(toData(value, options));
}

/**
 * Several documents as kcl prints a stream: each document loses one trailing newline and they are
 * joined with `\n---\n` (or the given separator).
 */
export function toYamlStream(docs: Value[], options: YamlStreamOptions = {}): string {
  if (docs.length === 0) return '';
  const sep = options.sep ?? '---';
  const texts = docs.map((d) => {
    const text = toYaml(d, options);
    return text.endsWith('\n') ? text.slice(0, -1) : text;
  });
  return texts.join(`\n${sep}\n`) + '\n';
}

type Style = 'any' | 'plain' | 'single' | 'double' | 'literal';

/**
 * Words and leading characters that some YAML parser would read as a non-string. kcl's serde_yaml
 * fork single-quotes these (YAML 1.1 booleans included, the "Norway problem").
 */
const AMBIGUOUS_WORDS = new Set(['y', 'yes', 'n', 'no', 'on', 'off', 'true', 'false', 'null', 'nil', '~', 'nan']);
const MAX_AMBIGUOUS_LENGTH = 5;

/**
 * The style serde_yaml asks for. Numbers, bools and null in string form already start with a
 * digit, sign or dot or are in the word list, so the ambiguity test covers its earlier checks.
 */
function requestedStyle(s: string): Style {
  if (s.includes('\n')) return 'literal';
  if (s === '' || /^[0-9+\-.]/.test(s)) return 'single';
  // only short strings can be one of the words; a long one need not be copied to lower case
  if (s.length <= MAX_AMBIGUOUS_LENGTH && AMBIGUOUS_WORDS.has(s.toLowerCase())) return 'single';
  return 'any';
}

const BREAKS = /[\n\r\u0085\u2028\u2029]/;
const BREAKS_GLOBAL = new RegExp(BREAKS.source, 'g');
/** What libyaml escapes inside double quotes: not printable, a break, `"` or `\`. */
const NEEDS_DOUBLE_ESCAPE = /[^\x20-\x21\x23-\x5b\x5d-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]/g;
const isBreak = (c: string | undefined): boolean =>
  c === '\n' || c === '\r' || c === '\u0085' || c === '\u2028' || c === '\u2029';

/** libyaml's IS_BLANKZ: blank, break, NUL, or the end of the string. */
const isBlankz = (c: string | undefined): boolean =>
  c === undefined || c === ' ' || c === '\t' || c === '\0' || isBreak(c);

/** libyaml's IS_PRINTABLE (tab, CR and DEL are not); unicode output keeps the rest unescaped. */
function isPrintable(c: string): boolean {
  const cp = c.codePointAt(0) ?? 0;
  return (
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff) ||
    cp >= 0x10000
  );
}

interface ScalarAnalysis {
  multiline: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

/**
 * A scalar's characters (code points): the string itself when it holds no surrogate pair, so
 * that each UTF-16 unit is one character and a 20 MB string needs no array of 20 million strings.
 */
type Chars = string | string[];

const SURROGATE = /[\uD800-\uDFFF]/;
const charsOf = (text: string): Chars => (SURROGATE.test(text) ? Array.from(text) : text);
const headOf = (chars: Chars): string => (typeof chars === 'string' ? chars.slice(0, 3) : chars.slice(0, 3).join(''));

/** What libyaml allows for a scalar in block context (yaml_emitter_analyze_scalar). */
function analyzeScalar(chars: Chars): ScalarAnalysis {
  if (chars.length === 0) {
    return { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  }
  const head = headOf(chars);
  let blockIndicators = head === '---' || head === '...';
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  let precededByWhitespace = true;
  let followedByWhitespace = isBlankz(chars[1]);
  const last = chars.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = chars[i];
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) blockIndicators = true;
      if ((c === '?' || c === ':' || c === '-') && followedByWhitespace) blockIndicators = true;
    } else {
      if (c === ':' && followedByWhitespace) blockIndicators = true;
      if (c === '#' && precededByWhitespace) blockIndicators = true;
    }
    if (!isPrintable(c)) special = true;
    if (isBreak(c)) lineBreaks = true;
    if (c === ' ') {
      if (i === 0) leadingSpace = true;
      if (i === last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      if (i === 0) leadingBreak = true;
      if (i === last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankz(c);
    if (i < last) followedByWhitespace = isBlankz(chars[i + 2]);
  }
  let blockPlainAllowed = !(leadingSpace || leadingBreak || trailingSpace || trailingBreak);
  let singleQuotedAllowed = true;
  let blockAllowed = !trailingSpace;
  if (breakSpace) blockPlainAllowed = singleQuotedAllowed = false;
  if (spaceBreak || special) blockPlainAllowed = singleQuotedAllowed = blockAllowed = false;
  if (lineBreaks || blockIndicators) blockPlainAllowed = false;
  return { multiline: lineBreaks, blockPlainAllowed, singleQuotedAllowed, blockAllowed };
}

/** Escapes libyaml writes inside double quotes; other characters use \x, \u or \U. */
const DOUBLE_ESCAPES: Record<number, string> = {
  0x00: '0',
  0x07: 'a',
  0x08: 'b',
  0x09: 't',
  0x0a: 'n',
  0x0b: 'v',
  0x0c: 'f',
  0x0d: 'r',
  0x1b: 'e',
  0x22: '"',
  0x5c: '\\',
  0x85: 'N',
  0xa0: '_',
  0x2028: 'L',
  0x2029: 'P',
};

function doubleEscape(c: string): string {
  const cp = c.codePointAt(0) ?? 0;
  const named = DOUBLE_ESCAPES[cp];
  if (named !== undefined) return '\\' + named;
  const hex = cp.toString(16).toUpperCase();
  if (cp <= 0xff) return '\\x' + hex.padStart(2, '0');
  if (cp <= 0xffff) return '\\u' + hex.padStart(4, '0');
  return '\\U' + hex.padStart(8, '0');
}

const BEST_INDENT = 2;
/** libyaml writes keys longer than this many UTF-8 bytes as explicit `? key` entries. */
const MAX_SIMPLE_KEY_BYTES = 128;

/**
 * The part of libyaml's emitter kcl output reaches: block mappings and sequences, empty flow
 * collections, and the four scalar styles. Field names follow libyaml so the rules can be checked
 * against it. The line width is unlimited, so no scalar is ever folded.
 */
class Emitter {
  private out = '';
  private column = 0;
  private indent = -1;
  private readonly indents: number[] = [];
  /** The last thing written was whitespace (or nothing), so an indicator needs no space before. */
  private whitespace = true;
  /** Only indentation has been written on the current line so far. */
  private indention = true;
  /** 2 after a keep-chomped (`|+`) block scalar: the stream then ends with `...`. */
  private openEnded = 0;
  private mappingContext = false;
  private simpleKeyContext = false;

  document(root: Data): string {
    this.node(root, false, false);
    this.writeIndent();
    if (this.openEnded === 2) {
      this.writeIndicator('...', true, false, false);
      this.openEnded = 0;
      this.writeIndent();
    }
    return this.out;
  }

  private node(d: Data, mapping: boolean, simpleKey: boolean): void {
    this.mappingContext = mapping;
    this.simpleKeyContext = simpleKey;
    if (Array.isArray(d)) {
      if (d.length === 0) this.emptyFlow('[', ']');
      else this.sequence(d);
    } else if (isDataMap(d)) {
      if (d.entries.length === 0) this.emptyFlow('{', '}');
      else this.mapping(d.entries);
    } else if (typeof d === 'string') {
      this.scalar(d, requestedStyle(d));
    } else {
      this.scalar(d === null ? 'null' : typeof d === 'number' ? formatFloat(viaJsonText(d)) : String(d), 'plain');
    }
  }

  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }

  private popIndent(): void {
    this.indent = this.indents.pop() ?? -1;
  }

  private emptyFlow(open: string, close: string): void {
    this.writeIndicator(open, true, true, false);
    this.writeIndicator(close, false, false, false);
  }

  private sequence(items: Data[]): void {
    // A sequence that is a mapping value starts on the key's column (`key:\n- a`).
    this.increaseIndent(false, this.mappingContext && !this.indention);
    for (const item of items) {
      this.writeIndent();
      this.writeIndicator('-', true, false, true);
      this.node(item, false, false);
    }
    this.popIndent();
  }

  private mapping(entries: [string, Data][]): void {
    this.increaseIndent(false, false);
    for (const [key, value] of entries) {
      this.writeIndent();
      const simple = !analyzeScalar(charsOf(key)).multiline && utf8Length(key) <= MAX_SIMPLE_KEY_BYTES;
      if (simple) {
        this.node(key, true, true);
        this.writeIndicator(':', false, false, false);
      } else {
        this.writeIndicator('?', true, false, true);
        this.node(key, true, false);
        this.writeIndent();
        this.writeIndicator(':', true, false, true);
      }
      this.node(value, true, false);
    }
    this.popIndent();
  }

  private scalar(text: string, requested: Style): void {
    const chars = charsOf(text);
    const a = analyzeScalar(chars);
    let style: Style = requested === 'any' ? 'plain' : requested;
    if (this.simpleKeyContext && a.multiline) style = 'double';
    if (style === 'plain' && (!a.blockPlainAllowed || (chars.length === 0 && this.simpleKeyContext))) {
      style = 'single';
    }
    if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
    if (style === 'literal' && (!a.blockAllowed || this.simpleKeyContext)) style = 'double';
    this.increaseIndent(true, false);
    switch (style) {
      case 'single':
        this.writeSingleQuoted(chars);
        break;
      case 'double':
        this.writeDoubleQuoted(chars);
        break;
      case 'literal':
        this.writeLiteral(chars);
        break;
      default:
        this.writePlain(chars);
    }
    this.popIndent();
  }

  // -------------------------------------------------------------- low-level writes

  private put(s: string): void {
    this.out += s;
    this.column += 1;
  }

  private putBreak(): void {
    this.out += '\n';
    this.column = 0;
  }

  /** A line break taken from the scalar: `\n` is normalised, other breaks are copied as they are. */
  private writeBreak(c: string): void {
    if (c === '\n') this.putBreak();
    else {
      this.out += c;
      this.column = 0;
    }
  }

  private writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) {
      this.putBreak();
    }
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }

  private writeIndicator(
    indicator: string,
    needWhitespace: boolean,
    isWhitespace: boolean,
    isIndention: boolean,
  ): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    for (const c of indicator) this.put(c);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  private writePlain(chars: Chars): void {
    if (!this.whitespace && chars.length > 0) this.put(' ');
    this.writeFolded(chars, '');
    this.whitespace = false;
    this.indention = false;
  }

  private writeSingleQuoted(chars: Chars): void {
    this.writeIndicator("'", true, false, false);
    if (this.writeFolded(chars, "'")) this.writeIndent();
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  /** The body of a plain or single-quoted scalar: line breaks doubled as YAML folds them,
   * `quote` doubled where it occurs. Returns whether it ended in a line break. */
  private writeFolded(chars: Chars, quote: string): boolean {
    // a line without breaks or quotes to double is written as it is, not character by character
    if (typeof chars === 'string' && !BREAKS.test(chars) && !(quote && chars.includes(quote))) {
      if (chars.length > 0) {
        this.out += chars;
        this.column += chars.length;
        this.indention = false;
      }
      return false;
    }
    let breaks = false;
    for (const c of chars) {
      if (isBreak(c)) {
        if (!breaks && c === '\n') this.putBreak();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (quote && c === quote) this.put(quote);
        this.put(c);
        this.indention = false;
        breaks = false;
      }
    }
    return breaks;
  }

  private writeDoubleQuoted(chars: Chars): void {
    this.writeIndicator('"', true, false, false);
    if (typeof chars === 'string') {
      this.writeRuns(chars, NEEDS_DOUBLE_ESCAPE, (c) => {
        for (const e of doubleEscape(c)) this.put(e);
      });
      this.writeIndicator('"', false, false, false);
      this.whitespace = false;
      this.indention = false;
      return;
    }
    for (const c of chars) {
      if (!isPrintable(c) || isBreak(c) || c === '"' || c === '\\') {
        for (const e of doubleEscape(c)) this.put(e);
      } else {
        this.put(c);
      }
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeLiteral(chars: Chars): void {
    this.writeIndicator('|', true, false, false);
    this.writeBlockScalarHints(chars);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    if (typeof chars === 'string') {
      this.writeRuns(
        chars,
        BREAKS_GLOBAL,
        (c) => {
          this.writeBreak(c);
          this.indention = true;
          breaks = true;
        },
        () => {
          if (breaks) this.writeIndent();
          breaks = false;
        },
      );
      return;
    }
    for (const c of chars) {
      if (isBreak(c)) {
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.put(c);
        this.indention = false;
        breaks = false;
      }
    }
  }

  /**
   * Writes a string of one-unit characters as runs: the characters `special` matches (a global
   * RegExp) one by one through `one`, the runs between them whole, after `beforeRun`. A long
   * scalar then costs a few appends instead of one per character.
   */
  private writeRuns(text: string, special: RegExp, one: (c: string) => void, beforeRun?: () => void): void {
    let at = 0;
    special.lastIndex = 0;
    for (let m = special.exec(text); ; m = special.exec(text)) {
      const end = m ? m.index : text.length;
      if (end > at) {
        beforeRun?.();
        this.out += text.slice(at, end);
        this.column += end - at;
        this.indention = false;
      }
      if (!m) return;
      one(m[0]);
      at = end + 1;
    }
  }

  /** The indentation indicator for content starting with a space or break, then the chomping mode. */
  private writeBlockScalarHints(chars: Chars): void {
    const first = chars[0];
    if (first === ' ' || isBreak(first)) this.writeIndicator(String(BEST_INDENT), false, false, false);
    this.openEnded = 0;
    const last = chars[chars.length - 1];
    let chomp = '';
    if (!isBreak(last)) chomp = '-';
    else if (chars.length === 1 || isBreak(chars[chars.length - 2])) {
      chomp = '+';
      this.openEnded = 2;
    }
    if (chomp) this.writeIndicator(chomp, false, false, false);
  }
}

function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}
