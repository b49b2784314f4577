/**
 * The `datetime` system module (kcl's crates/runtime/src/datetime), in local time with chrono's
 * strftime specifiers (strftime.ts). The functions that read the clock say they reach outside the
 * program: a package whose value depends on the time is not reused by a later run.
 */
import { expectStr, optionalArg, requiredArg, type Impl, type Signature } from '../args.js';
import type { CallArgs, ModuleValue, Value } from '../values.js';
import { evalError, makeModule, outside, sig } from './common.js';
import { formatDate, isRfc3339, parsesAs } from './strftime.js';

const DEFAULT_NOW_FORMAT = '%a %b %d %H:%M:%S %Y';

function format(d: Date, fmt: string, fn: string): string {
  const text = formatDate(d, fmt);
  return text ?? evalError(`${fn}() invalid date format '${fmt}'`);
}

function now(call: CallArgs): Value {
  const fmt = optionalArg(call, 0, 'format');
  return format(new Date(), fmt === undefined ? DEFAULT_NOW_FORMAT : expectStr(fmt, 'now', 'format'), 'now');
}

/** kcl's "%{ticks}" after the dot is the Unix time in whole seconds, not a fraction. */
function today(): Value {
  const d = new Date();
  return `${format(d, '%Y-%m-%d %H:%M:%S', 'today')}.${Math.floor(d.getTime() / 1000)}`;
}

function date(): Value {
  return format(new Date(), '%Y-%m-%d %H:%M:%S', 'date');
}

function ticks(): Value {
  return Date.now() / 1000;
}

function validate(call: CallArgs): Value {
  const text = expectStr(requiredArg(call, 0, 'date'), 'validate', 'date');
  return parsesAs(text, expectStr(requiredArg(call, 1, 'format'), 'validate', 'format'));
}

function isRfc3339Date(call: CallArgs): Value {
  return isRfc3339(expectStr(requiredArg(call, 0, 'date'), 'is_rfc3339', 'date'));
}

const DECIMAL = String.raw`\d+(?:\.\d+)?`;
const amounts = (units: string): string => [...units].map((u) => `(?:${DECIMAL}${u})?`).join('');
/** An ISO 8601 duration such as P3Y6M4DT12H30M5S: at least one amount, and one after a T. */
const ISO_DURATION = new RegExp(`^P(?=.)${amounts('YMWD')}(?:T(?=\\d)${amounts('HMS')})?$`);

/** An RFC 3339 date-time or an ISO 8601 duration. */
function isIso8601(call: CallArgs): Value {
  const text = expectStr(requiredArg(call, 0, 'date'), 'is_iso8601', 'date');
  return isRfc3339(text) || ISO_DURATION.test(text);
}

const DEFINITIONS: ReadonlyArray<readonly [Signature, Impl]> = [
  [sig('today', [], 0), outside(today)],
  [sig('now', ['format'], 0), outside(now)],
  [sig('ticks', [], 0), outside(ticks)],
  [sig('date', [], 0), outside(date)],
  [sig('validate', ['date', 'format'], 2), validate],
  [sig('is_rfc3339', ['date'], 1), isRfc3339Date],
  [sig('is_iso8601', ['date'], 1), isIso8601],
];

export function datetimeModule(): ModuleValue {
  return makeModule('datetime', DEFINITIONS);
}
