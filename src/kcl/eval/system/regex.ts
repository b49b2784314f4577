/**
 * The `regex` system module (kcl's crates/runtime/src/regex), over patterns translated by
 * regex-syntax.ts.
 *
 * Matches are found the way Rust's regex iterators find them: leftmost-first, never overlapping,
 * and an empty match right where the previous match ended is skipped. `replace` expands `$1`,
 * `${name}` and `$$` in the replacement, Rust's syntax, as kcl does.
 *
 * Where kcl's runtime and its documentation disagree, this follows the documentation:
 * - `match` tries the pattern at the start of the string only (Python's re.match); the runtime
 *   accepts a match anywhere.
 * - `split(s, p, maxsplit)` keeps the rest of the string after the last split, as Python does;
 *   the runtime drops it.
 */
import { expectInt, expectStr, optionalArg, requiredArg, type Impl, type Signature } from '../args.js';
import type { CallArgs, ModuleValue, Value } from '../values.js';
import { makeModule, sig } from './common.js';
import { compileRegex, isValidRegex } from './regex-syntax.js';

/** One past the code point at `i`, so that an empty match never splits a surrogate pair. */
function nextIndex(s: string, i: number): number {
  const cp = s.codePointAt(i);
  return i + (cp !== undefined && cp > 0xffff ? 2 : 1);
}

/** Up to `limit` matches (0 for all), in order. */
function matches(re: RegExp, s: string, limit = 0): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  let from = 0;
  let lastEnd = -1;
  while (from <= s.length && (limit <= 0 || out.length < limit)) {
    re.lastIndex = from;
    const m = re.exec(s);
    if (!m) break;
    const start = m.index;
    const end = start + m[0].length;
    if (start === end && start === lastEnd) {
      // Rust skips an empty match that touches the previous one and searches on from the next char
      if (start >= s.length) break;
      from = nextIndex(s, start);
      continue;
    }
    out.push(m);
    lastEnd = end;
    from = start === end ? (end >= s.length ? end + 1 : nextIndex(s, end)) : end;
  }
  return out;
}

function stringAndPattern(call: CallArgs, fn: string): [string, RegExp] {
  const s = expectStr(requiredArg(call, 0, 'string'), fn, 'string');
  const pattern = expectStr(requiredArg(call, 1, 'pattern'), fn, 'pattern');
  return [s, compileRegex(pattern)];
}

function match(call: CallArgs): Value {
  const [s, re] = stringAndPattern(call, 'match');
  re.lastIndex = 0;
  // the leftmost match starts at 0 exactly when some match starts at 0
  return re.exec(s)?.index === 0;
}

function search(call: CallArgs): Value {
  const [s, re] = stringAndPattern(call, 'search');
  re.lastIndex = 0;
  return re.exec(s) !== null;
}

/** Whole matches when the pattern has at most one group, else the list of groups per match. */
function findall(call: CallArgs): Value {
  const [s, re] = stringAndPattern(call, 'findall');
  return matches(re, s).map((m): Value => (m.length < 3 ? m[0] : m.slice(1).map((g) => g ?? '')));
}

function split(call: CallArgs): Value {
  const [s, re] = stringAndPattern(call, 'split');
  const max = optionalArg(call, 2, 'maxsplit');
  const limit = max === undefined ? 0 : Number(expectInt(max, 'split', 'maxsplit'));
  const out: Value[] = [];
  let last = 0;
  for (const m of matches(re, s, limit)) {
    out.push(s.slice(last, m.index));
    last = m.index + m[0].length;
  }
  out.push(s.slice(last));
  return out;
}

/** Rust's replacement syntax: `$$`, `$name` (the longest run of word characters) and `${name}`. */
function expand(template: string, m: RegExpExecArray): string {
  const group = (name: string): string => {
    const value = /^\d+$/.test(name) ? m[Number(name)] : m.groups?.[name];
    return value ?? '';
  };
  return template.replace(/\$(?:\$|\{([^}]*)\}|([0-9A-Za-z_]+))/g, (whole, braced?: string, bare?: string) => {
    if (whole === '$$') return '$';
    return group(braced ?? bare ?? '');
  });
}

function replace(call: CallArgs): Value {
  const [s, re] = stringAndPattern(call, 'replace');
  const template = expectStr(requiredArg(call, 2, 'replace'), 'replace', 'replace');
  const countArg = optionalArg(call, 3, 'count');
  const count = countArg === undefined ? 0 : Number(expectInt(countArg, 'replace', 'count'));
  let out = '';
  let last = 0;
  for (const m of matches(re, s, count)) {
    out += s.slice(last, m.index) + expand(template, m);
    last = m.index + m[0].length;
  }
  return out + s.slice(last);
}

function compile(call: CallArgs): Value {
  return isValidRegex(expectStr(requiredArg(call, 0, 'pattern'), 'compile', 'pattern'));
}

const DEFINITIONS: ReadonlyArray<readonly [Signature, Impl]> = [
  [sig('match', ['string', 'pattern'], 2), match],
  [sig('search', ['string', 'pattern'], 2), search],
  [sig('findall', ['string', 'pattern'], 2), findall],
  [sig('split', ['string', 'pattern', 'maxsplit'], 2), split],
  [sig('replace', ['string', 'pattern', 'replace', 'count'], 3), replace],
  [sig('compile', ['pattern'], 1), compile],
];

export function regexModule(): ModuleValue {
  return makeModule('regex', DEFINITIONS);
}
