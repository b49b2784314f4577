/**
 * The methods of KCL's str type (`"a,b".split(",")`), bound to their receiver on attribute access.
 *
 * Semantics follow kcl's runtime (crates/runtime/src/value/val_str.rs and val_fmt.rs), which
 * mostly follows Python; the places where kcl departs from Python are kept and commented, since a
 * program must evaluate here as it does under kcl. Indices are JS string (UTF-16) indices.
 */
import { kclError } from '../../diagnostics/diagnostics.js';
import {
  argAt,
  defineFunction,
  expectInt,
  expectStr,
  iterate,
  optionalArg,
  requiredArg,
  type Signature,
} from './args.js';
import {
  floatRepr,
  isDict,
  isInt,
  isList,
  isStr,
  toStr,
  truthy,
  typeName,
  type CallArgs,
  type FunctionValue,
  type Value,
} from './values.js';

type Method = (s: string, call: CallArgs) => Value;

interface MethodDef {
  params: readonly string[];
  required: number;
  variadic?: boolean;
  impl: Method;
}

/** A bound str method, or undefined when str has no method of that name. */
export function stringMethod(s: string, name: string): FunctionValue | undefined {
  const def = METHODS.get(name);
  if (!def) return undefined;
  const sig: Signature = { name, params: def.params, required: def.required, variadic: def.variadic };
  return defineFunction(sig, (call) => def.impl(s, call));
}

/** The names of all str methods, for completion and `dir`-like listings. */
export function stringMethodNames(): string[] {
  return [...METHODS.keys()];
}

// ---------------------------------------------------------------- character classes

/** kcl's split() without a separator breaks on ASCII whitespace and \v only. */
const SPLIT_WHITESPACE = new Set([' ', '\t', '\n', '\v', '\f', '\r']);
/** Space separators plus the bidi whitespace, paragraph and segment separators, as kcl's isspace. */
// eslint-disable-next-line no-control-regex -- kcl counts the C0 separators \x1c-\x1f as space
const SPACE = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/u;
const ALPHA = /^\p{Alphabetic}+$/u;
const ALNUM = /^[\p{Alphabetic}\p{N}]+$/u;
/** ASCII digits and the superscript digits, the set kcl's isdigit accepts. */
const DIGITS = /^[0-9\u00b2\u00b3\u00b9\u2070\u2074-\u2079]+$/u;
const UPPER = /\p{Uppercase}/u;
const LOWER = /\p{Lowercase}/u;
const TITLE = /\p{Lt}/u;

const isUpper = (c: string) => UPPER.test(c);
const isLower = (c: string) => LOWER.test(c);
const isTitle = (c: string) => TITLE.test(c);

/** At least one cased character, and none of the opposite case. */
function isCase(s: string, is: (c: string) => boolean, opposite: (c: string) => boolean): boolean {
  let cased = false;
  for (const c of s) {
    if (opposite(c)) return false;
    if (is(c)) cased = true;
  }
  return cased;
}

function isTitleCased(s: string): boolean {
  let cased = false;
  let previousCased = false;
  for (const c of s) {
    if (isUpper(c) || isTitle(c)) {
      if (previousCased) return false;
      previousCased = cased = true;
    } else if (isLower(c)) {
      if (!previousCased) return false;
      previousCased = cased = true;
    } else {
      previousCased = false;
    }
  }
  return cased;
}

function titleCase(s: string): string {
  let out = '';
  let previousCased = false;
  for (const c of s) {
    if (isLower(c)) {
      out += previousCased ? c : c.toUpperCase();
      previousCased = true;
    } else if (isUpper(c) || isTitle(c)) {
      out += previousCased ? c.toLowerCase() : c;
      previousCased = true;
    } else {
      out += c;
      previousCased = false;
    }
  }
  return out;
}

function capitalize(s: string): string {
  const [first, ...rest] = Array.from(s);
  return first === undefined ? '' : first.toUpperCase() + rest.join('').toLowerCase();
}

// ---------------------------------------------------------------- searching

interface Range {
  start: number;
  end: number;
}

/**
 * The `[start:end]` window of count/find/startswith..., with slice rules for negative and
 * oversized bounds; undefined when the window is empty the wrong way round (start > end).
 */
function searchRange(s: string, call: CallArgs, fn: string): Range | undefined {
  const len = s.length;
  const startArg = optionalArg(call, 1, 'start');
  const endArg = optionalArg(call, 2, 'end');
  let start = startArg === undefined ? 0 : Number(expectInt(startArg, fn, 'start'));
  let end = endArg === undefined ? len : Number(expectInt(endArg, fn, 'end'));
  if (end > len) end = len;
  else if (end < 0) end = Math.max(0, end + len);
  if (start < 0) start = Math.max(0, start + len);
  return start <= end ? { start, end } : undefined;
}

function countOf(s: string, sub: string): number {
  if (sub === '') return s.length + 1;
  let n = 0;
  for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length)) n++;
  return n;
}

function search(fn: string, fromRight: boolean, mustFind: boolean): Method {
  return (s, call) => {
    const sub = expectStr(requiredArg(call, 0, 'sub'), fn, 'sub');
    const range = searchRange(s, call, fn);
    let found = -1;
    if (range) {
      const window = s.slice(range.start, range.end);
      const i = fromRight ? window.lastIndexOf(sub) : window.indexOf(sub);
      if (i >= 0) found = i + range.start;
    }
    if (found < 0 && mustFind) throw kclError('EvaluationError', 'substring not found');
    return BigInt(found);
  };
}

function affix(fn: string, atEnd: boolean): Method {
  return (s, call) => {
    const val = expectStr(requiredArg(call, 0, 'val'), fn, 'val');
    const range = searchRange(s, call, fn);
    if (!range) return false;
    const window = s.slice(range.start, range.end);
    return atEnd ? window.endsWith(val) : window.startsWith(val);
  };
}

// ---------------------------------------------------------------- stripping and replacing

function stripChars(s: string, call: CallArgs, fn: string, left: boolean, right: boolean): string {
  const charsArg = optionalArg(call, 0, 'chars');
  if (charsArg === undefined) {
    if (left && right) return s.trim();
    return left ? s.trimStart() : s.trimEnd();
  }
  const set = new Set(Array.from(expectStr(charsArg, fn, 'chars')));
  const cps = Array.from(s);
  let i = 0;
  let j = cps.length;
  if (left) while (i < j && set.has(cps[i])) i++;
  if (right) while (j > i && set.has(cps[j - 1])) j--;
  return cps.slice(i, j).join('');
}

/** Python's replace: an empty `old` matches between every character and at both ends. */
function replace(s: string, call: CallArgs): string {
  const old = expectStr(requiredArg(call, 0, 'old'), 'replace', 'old');
  const rep = expectStr(requiredArg(call, 1, 'new'), 'replace', 'new');
  const countArg = optionalArg(call, 2, 'count');
  const given = countArg === undefined ? -1 : Number(expectInt(countArg, 'replace', 'count'));
  const count = given < 0 ? Infinity : given;
  if (old === '') {
    const cps = Array.from(s);
    const n = Math.min(count, cps.length + 1);
    return (
      cps
        .slice(0, n)
        .map((c) => rep + c)
        .join('') +
      (n > cps.length ? rep : '') +
      cps.slice(n).join('')
    );
  }
  let out = '';
  let from = 0;
  for (let done = 0; done < count; done++) {
    const i = s.indexOf(old, from);
    if (i < 0) break;
    out += s.slice(from, i) + rep;
    from = i + old.length;
  }
  return out + s.slice(from);
}

// ---------------------------------------------------------------- splitting

function splitArgs(call: CallArgs, fn: string): { sep: string | undefined; maxsplit: number } {
  const sepArg = optionalArg(call, 0, 'sep');
  const maxArg = optionalArg(call, 1, 'maxsplit');
  const sep = sepArg === undefined ? undefined : expectStr(sepArg, fn, 'sep');
  if (sep === '') throw kclError('EvaluationError', 'empty separator');
  return { sep, maxsplit: maxArg === undefined ? -1 : Number(expectInt(maxArg, fn, 'maxsplit')) };
}

/** Runs of whitespace separate words; once maxsplit words are cut the rest is kept verbatim. */
function splitWhitespace(s: string, maxsplit: number): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    while (i < s.length && SPLIT_WHITESPACE.has(s[i])) i++;
    if (i >= s.length) return out;
    if (out.length === maxsplit) return [...out, s.slice(i)];
    let j = i;
    while (j < s.length && !SPLIT_WHITESPACE.has(s[j])) j++;
    out.push(s.slice(i, j));
    i = j;
  }
}

function rsplitWhitespace(s: string, maxsplit: number): string[] {
  const out: string[] = [];
  let j = s.length;
  for (;;) {
    while (j > 0 && SPLIT_WHITESPACE.has(s[j - 1])) j--;
    if (j <= 0) break;
    if (out.length === maxsplit) {
      out.push(s.slice(0, j));
      break;
    }
    let i = j;
    while (i > 0 && !SPLIT_WHITESPACE.has(s[i - 1])) i--;
    out.push(s.slice(i, j));
    j = i;
  }
  return out.reverse();
}

function splitSep(s: string, sep: string, maxsplit: number): string[] {
  const out: string[] = [];
  let from = 0;
  while (out.length !== maxsplit) {
    const i = s.indexOf(sep, from);
    if (i < 0) break;
    out.push(s.slice(from, i));
    from = i + sep.length;
  }
  out.push(s.slice(from));
  return out;
}

function rsplitSep(s: string, sep: string, maxsplit: number): string[] {
  const out: string[] = [];
  let end = s.length;
  while (out.length !== maxsplit && end - sep.length >= 0) {
    const i = s.lastIndexOf(sep, end - sep.length);
    if (i < 0) break;
    out.push(s.slice(i + sep.length, end));
    end = i;
  }
  out.push(s.slice(0, end));
  return out.reverse();
}

/** Only \n, \r and \r\n break lines in kcl (Python also breaks on \v, \f, \x1c.. and U+2028). */
function splitlines(s: string, keepends: boolean): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== '\n' && c !== '\r') continue;
    const width = c === '\r' && s[i + 1] === '\n' ? 2 : 1;
    out.push(s.slice(start, keepends ? i + width : i));
    i += width - 1;
    start = i + 1;
  }
  if (start < s.length) out.push(s.slice(start));
  return out;
}

/** kcl's join renders non-str items with str() rather than rejecting them as Python does. */
function join(s: string, call: CallArgs): string {
  return iterate(requiredArg(call, 0, 'iter'))
    .map(toStr)
    .join(s);
}

// ---------------------------------------------------------------- format

interface Field {
  name: string;
  spec: string;
}

function formatError(message: string): never {
  throw kclError('EvaluationError', message);
}

/** Splits a template into literal text and `{name!conv:spec}` fields; `{{` and `}}` are braces. */
function parseTemplate(t: string): Array<string | Field> {
  const parts: Array<string | Field> = [];
  let literal = '';
  let i = 0;
  while (i < t.length) {
    const c = t[i];
    if ((c === '{' || c === '}') && t[i + 1] === c) {
      literal += c;
      i += 2;
    } else if (c === '}') {
      formatError("Single '}' encountered in format string");
    } else if (c === '{') {
      const end = fieldEnd(t, i);
      if (literal) parts.push(literal);
      literal = '';
      parts.push(parseField(t.slice(i + 1, end)));
      i = end + 1;
    } else {
      literal += c;
      i++;
    }
  }
  if (literal) parts.push(literal);
  return parts;
}

/** The index of the `}` closing the field opened at `open`; one level of nested braces is allowed. */
function fieldEnd(t: string, open: number): number {
  let nested = false;
  for (let j = open + 1; j < t.length; j++) {
    if (t[j] === '{') {
      if (nested) formatError('Invalid format specifier');
      nested = true;
    } else if (t[j] === '}') {
      if (!nested) return j;
      nested = false;
    }
  }
  return formatError("Single '{' encountered in format string");
}

/** kcl parses but ignores a `!r`/`!s` conversion, so it is dropped here. */
function parseField(text: string): Field {
  const colon = text.indexOf(':');
  const head = colon < 0 ? text : text.slice(0, colon);
  const spec = colon < 0 ? '' : text.slice(colon + 1);
  const bang = head.indexOf('!');
  return { name: bang < 0 ? head : head.slice(0, bang), spec };
}

type Accessor = { attr: string } | { index: string };

function parseFieldName(name: string): { first: string; accessors: Accessor[] } {
  const firstEnd = name.search(/[.[]/);
  const first = firstEnd < 0 ? name : name.slice(0, firstEnd);
  const accessors: Accessor[] = [];
  let i = firstEnd < 0 ? name.length : firstEnd;
  while (i < name.length) {
    if (name[i] === '.') {
      const stop = name.slice(i + 1).search(/[.[]/);
      const end = stop < 0 ? name.length : i + 1 + stop;
      const attr = name.slice(i + 1, end);
      if (!attr) formatError('Empty attribute in format string');
      accessors.push({ attr });
      i = end;
    } else if (name[i] === '[') {
      const close = name.indexOf(']', i);
      if (close < 0) formatError("Missing ']' in format string");
      const index = name.slice(i + 1, close);
      if (!index) formatError('Empty attribute in format string');
      accessors.push({ index });
      i = close + 1;
    } else {
      formatError("Only '.' or '[' may follow ']' in format field specifier");
    }
  }
  return { first, accessors };
}

function access(v: Value, accessor: Accessor): Value {
  const key = 'attr' in accessor ? accessor.attr : accessor.index;
  if ('index' in accessor && /^\d+$/.test(key) && (isList(v) || isStr(v))) {
    const item = isList(v) ? v[Number(key)] : Array.from(v)[Number(key)];
    return item === undefined ? formatError(`${typeName(v)} index out of range`) : item;
  }
  const item = isDict(v) ? v.get(key) : undefined;
  return item === undefined ? formatError(`'${typeName(v)}' object has no attribute or key '${key}'`) : item;
}

/** Numbering state of one format() call: fields are either all automatic or all explicit. */
class FieldNumbering {
  private next = 0;
  private manual = false;

  positional(name: string): number {
    if (name !== '') {
      if (this.next > 0) formatError('cannot switch from automatic field numbering to manual field specification');
      this.manual = true;
      return Number(name);
    }
    if (this.manual) formatError('cannot switch from manual field specification to automatic field numbering');
    return this.next++;
  }
}

function lookupField(name: string, call: CallArgs, numbering: FieldNumbering): Value {
  const { first, accessors } = parseFieldName(name);
  let v: Value | undefined;
  if (first === '' || /^\d+$/.test(first)) {
    v = call.args[numbering.positional(first)];
    if (v === undefined) formatError('argument tuple index out of range');
  } else {
    v = call.kwargs.get(first);
    if (v === undefined) formatError(`keyword argument '${first}' not found`);
  }
  return accessors.reduce(access, v);
}

function format(s: string, call: CallArgs): string {
  const numbering = new FieldNumbering();
  let out = '';
  for (const part of parseTemplate(s)) {
    out += typeof part === 'string' ? part : renderField(lookupField(part.name, call, numbering), part.spec);
  }
  return out;
}

/** kcl applies a format spec to ints and floats only; other values print as str() whatever the spec. */
function renderField(v: Value, spec: string): string {
  if (isInt(v)) return formatInt(v, parseSpec(spec));
  if (typeof v === 'number') return formatFloat(v, parseSpec(spec));
  return toStr(v);
}

// ---------------------------------------------------------------- format specs

type Align = '<' | '>' | '=' | '^';

interface Spec {
  fill: string;
  align: Align;
  sign: string;
  alternate: boolean;
  width: number;
  grouping: string;
  precision?: number;
  type: string;
}

const ALIGNS = new Set(['<', '>', '=', '^']);
const TYPES = new Set(Array.from('sbcdoxXeEfFgGn%'));

/** `[[fill]align][sign][#][0][width][,|_][.precision][type]`, as Python's format mini-language. */
function parseSpec(text: string): Spec {
  let rest = Array.from(text);
  if (rest[0] === '!' && rest.length > 1 && 'rsab'.includes(rest[1])) rest = rest.slice(2);
  let fill: string | undefined;
  let align: Align | undefined;
  if (rest.length > 1 && ALIGNS.has(rest[1])) {
    fill = rest[0];
    align = rest[1] as Align;
    rest = rest.slice(2);
  } else if (ALIGNS.has(rest[0])) {
    align = rest[0] as Align;
    rest = rest.slice(1);
  }
  const take = (pattern: RegExp): string => {
    const m = pattern.exec(rest.join(''));
    if (!m) return '';
    rest = rest.slice(Array.from(m[0]).length);
    return m[0];
  };
  const sign = take(/^[-+ ]/);
  const alternate = take(/^#/) === '#';
  const zero = take(/^0/) === '0';
  const width = take(/^\d+/);
  const grouping = take(/^[,_]/);
  const precision = take(/^\.\d+/);
  const type = TYPES.has(rest[0]) ? take(/^./) : '';
  if (rest.length > 0) formatError('Invalid format specifier');
  if (zero && fill === undefined) {
    fill = '0';
    align ??= '=';
  }
  return {
    fill: fill ?? ' ',
    align: align ?? '>',
    sign: sign || '-',
    alternate,
    width: width ? Number(width) : 0,
    grouping,
    precision: precision ? Number(precision.slice(1)) : undefined,
    type,
  };
}

function pad(body: string, sign: string, spec: Spec): string {
  const needed = Math.max(0, spec.width - Array.from(body).length - sign.length);
  const fill = (n: number) => spec.fill.repeat(n);
  switch (spec.align) {
    case '<':
      return sign + body + fill(needed);
    case '=':
      return sign + fill(needed) + body;
    case '^':
      return fill(Math.floor(needed / 2)) + sign + body + fill(needed - Math.floor(needed / 2));
    default:
      return fill(needed) + sign + body;
  }
}

function signOf(negative: boolean, spec: Spec): string {
  if (negative) return '-';
  return spec.sign === '-' ? '' : spec.sign;
}

/** Separators go into the integer part only, every `interval` digits from the right. */
function group(digits: string, separator: string, interval: number): string {
  if (!separator) return digits;
  const dot = digits.indexOf('.');
  const int = dot < 0 ? digits : digits.slice(0, dot);
  let out = '';
  for (let i = 0; i < int.length; i++) {
    out += int[i];
    const remaining = int.length - i - 1;
    if (remaining > 0 && remaining % interval === 0) out += separator;
  }
  return out + (dot < 0 ? '' : digits.slice(dot));
}

const INT_RADIX: Record<string, number> = { b: 2, o: 8, x: 16, X: 16, d: 10, n: 10, '': 10 };
const INT_PREFIX: Record<string, string> = { b: '0b', o: '0o', x: '0x', X: '0x' };

/** Float presentation types format an int as the equal float. */
const FLOAT_TYPES = new Set(['e', 'E', 'f', 'F', '%']);
const UPPER_TYPES = new Set(['E', 'F', 'G']);

function formatInt(n: bigint, spec: Spec): string {
  if (FLOAT_TYPES.has(spec.type)) return formatFloat(Number(n), spec);
  const radix = INT_RADIX[spec.type];
  if (radix === undefined) formatError(`Unknown format code '${spec.type}' for object of type 'int'`);
  const magnitude = n < 0n ? -n : n;
  let digits = magnitude.toString(radix);
  if (spec.type === 'X') digits = digits.toUpperCase();
  const prefix = spec.alternate ? (INT_PREFIX[spec.type] ?? '') : '';
  const body = prefix + group(digits, spec.grouping, radix === 10 ? 3 : 4);
  return pad(body, signOf(n < 0n, spec), spec);
}

function formatFloat(x: number, spec: Spec): string {
  const magnitude = Math.abs(x);
  const body = group(floatBody(magnitude, spec, UPPER_TYPES.has(spec.type)), spec.grouping, 3);
  const negative = !Number.isNaN(x) && (x < 0 || Object.is(x, -0));
  return pad(body, signOf(negative, spec), spec);
}

function floatBody(m: number, spec: Spec, upper: boolean): string {
  const precision = spec.precision ?? 6;
  switch (spec.type) {
    case 'f':
    case 'F':
      return nonFinite(m, upper) ?? fixed(m, precision);
    case 'e':
    case 'E':
      return nonFinite(m, upper) ?? exponent(m, precision, upper);
    case 'g':
    case 'G':
      return nonFinite(m, upper) ?? general(m, Math.max(1, precision), upper);
    case '%':
      return `${nonFinite(m, false) ?? fixed(m * 100, precision)}%`;
    case '':
      return nonFinite(m, false) ?? floatRepr(m);
    case 'n':
      return formatError("Format code 'n' for object of type 'float' not implemented yet");
    default:
      return formatError(`Unknown format code '${spec.type}' for object of type 'float'`);
  }
}

function nonFinite(m: number, upper: boolean): string | undefined {
  if (Number.isNaN(m)) return upper ? 'NAN' : 'nan';
  if (!Number.isFinite(m)) return upper ? 'INF' : 'inf';
  return undefined;
}

/** toFixed, except that it switches to exponent notation from 1e21 and caps precision at 100. */
function fixed(m: number, precision: number): string {
  const p = Math.min(precision, 100);
  const zeros = '0'.repeat(precision - p);
  if (m < 1e21) return m.toFixed(p) + zeros;
  return BigInt(m).toString() + (precision > 0 ? '.' + '0'.repeat(precision) : '');
}

/** Python writes at least two exponent digits: 1e+05, not JS's 1e+5. */
function exponent(m: number, precision: number, upper: boolean): string {
  const [mantissa, exp] = m.toExponential(Math.min(precision, 100)).split('e');
  const e = Number(exp);
  return `${mantissa}${upper ? 'E' : 'e'}${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

function trimZeros(s: string): string {
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

function general(m: number, precision: number, upper: boolean): string {
  const p = Math.min(precision, 100);
  const exp = Number(m.toExponential(p - 1).split('e')[1]);
  if (exp < -4 || exp >= p) {
    const [mantissa, e] = exponent(m, p - 1, upper).split(upper ? 'E' : 'e');
    return `${trimZeros(mantissa)}${upper ? 'E' : 'e'}${e}`;
  }
  return trimZeros(m.toFixed(p - 1 - exp));
}

// ---------------------------------------------------------------- the method table

const none: readonly string[] = [];
const searchParams = ['sub', 'start', 'end'];
const affixParams = ['val', 'start', 'end'];

function plain(impl: (s: string) => Value): MethodDef {
  return { params: none, required: 0, impl };
}

const METHODS: ReadonlyMap<string, MethodDef> = new Map<string, MethodDef>([
  ['capitalize', plain(capitalize)],
  ['chars', plain((s) => Array.from(s))],
  [
    'count',
    {
      params: searchParams,
      required: 1,
      impl: (s, call) => {
        const sub = expectStr(requiredArg(call, 0, 'sub'), 'count', 'sub');
        const range = searchRange(s, call, 'count');
        return BigInt(range ? countOf(s.slice(range.start, range.end), sub) : 0);
      },
    },
  ],
  ['endswith', { params: affixParams, required: 1, impl: affix('endswith', true) }],
  ['find', { params: searchParams, required: 1, impl: search('find', false, false) }],
  ['format', { params: none, required: 0, variadic: true, impl: format }],
  ['index', { params: searchParams, required: 1, impl: search('index', false, true) }],
  ['isalnum', plain((s) => ALNUM.test(s))],
  ['isalpha', plain((s) => ALPHA.test(s))],
  ['isdigit', plain((s) => DIGITS.test(s))],
  ['islower', plain((s) => isCase(s, isLower, isUpper))],
  ['isspace', plain((s) => SPACE.test(s))],
  ['istitle', plain(isTitleCased)],
  ['isupper', plain((s) => isCase(s, isUpper, isLower))],
  ['join', { params: ['iter'], required: 1, impl: join }],
  ['lower', plain((s) => s.toLowerCase())],
  ['upper', plain((s) => s.toUpperCase())],
  ['lstrip', { params: ['chars'], required: 0, impl: (s, call) => stripChars(s, call, 'lstrip', true, false) }],
  ['rstrip', { params: ['chars'], required: 0, impl: (s, call) => stripChars(s, call, 'rstrip', false, true) }],
  ['strip', { params: ['chars'], required: 0, impl: (s, call) => stripChars(s, call, 'strip', true, true) }],
  ['replace', { params: ['old', 'new', 'count'], required: 2, impl: replace }],
  [
    'removeprefix',
    {
      params: ['prefix'],
      required: 1,
      impl: (s, call) => {
        const prefix = expectStr(requiredArg(call, 0, 'prefix'), 'removeprefix', 'prefix');
        return s.startsWith(prefix) ? s.slice(prefix.length) : s;
      },
    },
  ],
  [
    'removesuffix',
    {
      params: ['suffix'],
      required: 1,
      impl: (s, call) => {
        const suffix = expectStr(requiredArg(call, 0, 'suffix'), 'removesuffix', 'suffix');
        return suffix && s.endsWith(suffix) ? s.slice(0, s.length - suffix.length) : s;
      },
    },
  ],
  ['rfind', { params: searchParams, required: 1, impl: search('rfind', true, false) }],
  ['rindex', { params: searchParams, required: 1, impl: search('rindex', true, true) }],
  [
    'rsplit',
    {
      params: ['sep', 'maxsplit'],
      required: 0,
      impl: (s, call) => {
        const { sep, maxsplit } = splitArgs(call, 'rsplit');
        return sep === undefined ? rsplitWhitespace(s, maxsplit) : rsplitSep(s, sep, maxsplit);
      },
    },
  ],
  [
    'split',
    {
      params: ['sep', 'maxsplit'],
      required: 0,
      impl: (s, call) => {
        const { sep, maxsplit } = splitArgs(call, 'split');
        return sep === undefined ? splitWhitespace(s, maxsplit) : splitSep(s, sep, maxsplit);
      },
    },
  ],
  [
    'splitlines',
    {
      params: ['keepends'],
      required: 0,
      impl: (s, call) => splitlines(s, truthy(argAt(call, 0, 'keepends') ?? false)),
    },
  ],
  ['startswith', { params: affixParams, required: 1, impl: affix('startswith', false) }],
  ['title', plain(titleCase)],
]);
