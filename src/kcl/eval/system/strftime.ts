/**
 * chrono's strftime, which kcl's datetime module formats and validates dates with: `formatDate`
 * writes local time, `parsesAs` tells whether a string reads as a date-time, a date or a time in
 * a format (chrono's parse_from_str on NaiveDateTime, NaiveDate, then NaiveTime).
 *
 * Parsing follows chrono's rules: a space in the format takes any run of whitespace, numbers may
 * have leading spaces and fewer digits than their width, names match without regard to case, the
 * whole input must be consumed, and the fields must make a real, consistent date.
 */

const SHORT_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** Composite specifiers, spelled out in their parts. */
const COMPOSITES: Readonly<Record<string, string>> = {
  D: '%m/%d/%y',
  x: '%m/%d/%y',
  F: '%Y-%m-%d',
  v: '%e-%b-%Y',
  R: '%H:%M',
  T: '%H:%M:%S',
  X: '%H:%M:%S',
  r: '%I:%M:%S %p',
  c: '%a %b %e %H:%M:%S %Y',
  '+': '%Y-%m-%dT%H:%M:%S%.f%:z',
  h: '%b',
};

interface Spec {
  /** `-` (no padding), `_` (spaces) or `0` (zeros), when given. */
  pad?: string;
  /** The specifier with its `.`, digit or `:` prefix: `Y`, `.3f`, `:z`. */
  name: string;
}

type Token = { literal: string } | { spec: Spec };

/** Splits a format into literals and specifiers; undefined when the format is malformed. */
function tokenize(format: string): Token[] | undefined {
  const out: Token[] = [];
  for (let i = 0; i < format.length;) {
    if (format[i] !== '%') {
      out.push({ literal: format[i] });
      i++;
      continue;
    }
    const m = /^%([-_0])?(\.?[369]?f|[369]f|:{1,3}z|#z|[A-Za-z%+])/.exec(format.slice(i));
    if (!m) return undefined;
    i += m[0].length;
    const composite = COMPOSITES[m[2]];
    if (composite !== undefined) {
      const inner = tokenize(composite);
      if (!inner) return undefined;
      out.push(...inner);
    } else if (m[2] === '%') out.push({ literal: '%' });
    else if (m[2] === 'n' || m[2] === 't') out.push({ literal: m[2] === 'n' ? '\n' : '\t' });
    else out.push({ spec: { pad: m[1], name: m[2] } });
  }
  return out;
}

// ---------------------------------------------------------------- formatting

function padded(n: number, width: number, spec: Spec, defaultPad = '0'): string {
  const pad = spec.pad === undefined ? defaultPad : spec.pad === '_' ? ' ' : spec.pad === '-' ? '' : '0';
  const digits = String(Math.abs(n));
  const body = pad === '' ? digits : digits.padStart(width, pad);
  return (n < 0 ? '-' : '') + body;
}

function dayOfYear(d: Date): number {
  const start = Date.UTC(d.getFullYear(), 0, 1);
  const today = Date.UTC(d.getFullYear(), d.getMonth(), d.getDate());
  return (today - start) / 86_400_000 + 1;
}

/** The ISO 8601 week-numbering year and week of a date. */
function isoWeek(year: number, month: number, day: number): { year: number; week: number } {
  const date = new Date(Date.UTC(year, month, day));
  const weekday = date.getUTCDay() || 7;
  date.setUTCDate(date.getUTCDate() + 4 - weekday);
  const isoYear = date.getUTCFullYear();
  const week = Math.ceil(((date.getTime() - Date.UTC(isoYear, 0, 1)) / 86_400_000 + 1) / 7);
  return { year: isoYear, week };
}

function offsetText(d: Date, colons: number): string {
  const minutes = -d.getTimezoneOffset();
  const sign = minutes < 0 ? '-' : '+';
  const hh = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0');
  const mm = String(Math.abs(minutes) % 60).padStart(2, '0');
  if (colons === 0) return `${sign}${hh}${mm}`;
  return colons === 3 && mm === '00' ? `${sign}${hh}` : `${sign}${hh}:${mm}${colons === 2 ? ':00' : ''}`;
}

function fraction(d: Date, name: string): string {
  const nanos = d.getMilliseconds() * 1_000_000;
  const nine = String(nanos).padStart(9, '0');
  const width = /[369]/.exec(name)?.[0];
  if (name === 'f') return nine;
  if (name === '.f') {
    if (nanos === 0) return '';
    return '.' + (nanos % 1_000_000 === 0 ? nine.slice(0, 3) : nanos % 1000 === 0 ? nine.slice(0, 6) : nine);
  }
  return (name.startsWith('.') ? '.' : '') + nine.slice(0, Number(width));
}

function formatSpec(d: Date, spec: Spec): string {
  const year = d.getFullYear();
  const hour = d.getHours();
  const weekday = d.getDay();
  const name = spec.name;
  if (name.endsWith('f')) return fraction(d, name);
  switch (name) {
    case 'Y':
      return year >= 0 && year <= 9999 ? padded(year, 4, spec) : (year > 9999 ? '+' : '') + String(year);
    case 'C':
      return padded(Math.floor(year / 100), 2, spec);
    case 'y':
      return padded(((year % 100) + 100) % 100, 2, spec);
    case 'm':
      return padded(d.getMonth() + 1, 2, spec);
    case 'b':
      return SHORT_MONTHS[d.getMonth()];
    case 'B':
      return LONG_MONTHS[d.getMonth()];
    case 'd':
      return padded(d.getDate(), 2, spec);
    case 'e':
      return padded(d.getDate(), 2, spec, ' ');
    case 'a':
      return SHORT_DAYS[weekday];
    case 'A':
      return LONG_DAYS[weekday];
    case 'w':
      return String(weekday);
    case 'u':
      return String(weekday || 7);
    case 'U':
      return padded(Math.floor((dayOfYear(d) + 6 - weekday) / 7), 2, spec);
    case 'W':
      return padded(Math.floor((dayOfYear(d) + 6 - ((weekday + 6) % 7)) / 7), 2, spec);
    case 'G':
      return String(isoWeek(year, d.getMonth(), d.getDate()).year);
    case 'g':
      return padded(isoWeek(year, d.getMonth(), d.getDate()).year % 100, 2, spec);
    case 'V':
      return padded(isoWeek(year, d.getMonth(), d.getDate()).week, 2, spec);
    case 'j':
      return padded(dayOfYear(d), 3, spec);
    case 'H':
      return padded(hour, 2, spec);
    case 'k':
      return padded(hour, 2, spec, ' ');
    case 'I':
      return padded(hour % 12 || 12, 2, spec);
    case 'l':
      return padded(hour % 12 || 12, 2, spec, ' ');
    case 'P':
      return hour < 12 ? 'am' : 'pm';
    case 'p':
      return hour < 12 ? 'AM' : 'PM';
    case 'M':
      return padded(d.getMinutes(), 2, spec);
    case 'S':
      return padded(d.getSeconds(), 2, spec);
    case 's':
      return String(Math.floor(d.getTime() / 1000));
    // chrono's Local has no zone names, so %Z prints the offset
    case 'Z':
      return offsetText(d, 1);
    case 'z':
      return offsetText(d, 0);
    case ':z':
      return offsetText(d, 1);
    case '::z':
      return offsetText(d, 2);
    case ':::z':
      return offsetText(d, 3);
    case '#z':
      return offsetText(d, 3);
  }
  return '%' + name;
}

/** `d` in local time per the format; undefined when the format is malformed. */
export function formatDate(d: Date, format: string): string | undefined {
  const tokens = tokenize(format);
  return tokens?.map((t) => ('literal' in t ? t.literal : formatSpec(d, t.spec))).join('');
}

// ---------------------------------------------------------------- parsing

interface Parsed {
  year?: number;
  yearDiv100?: number;
  yearMod100?: number;
  month?: number;
  day?: number;
  ordinal?: number;
  weekday?: number;
  hour?: number;
  hour12?: number;
  pm?: boolean;
  minute?: number;
  second?: number;
  nanos?: number;
  timestamp?: number;
  offset?: number;
}

/** Field widths and setters of numeric specifiers; names absent here cannot be parsed. */
const NUMERIC: Readonly<Record<string, [number, keyof Parsed]>> = {
  C: [2, 'yearDiv100'],
  y: [2, 'yearMod100'],
  m: [2, 'month'],
  d: [2, 'day'],
  e: [2, 'day'],
  j: [3, 'ordinal'],
  H: [2, 'hour'],
  k: [2, 'hour'],
  I: [2, 'hour12'],
  l: [2, 'hour12'],
  M: [2, 'minute'],
  S: [2, 'second'],
};

const RANGES: Partial<Record<keyof Parsed, readonly [number, number]>> = {
  yearDiv100: [0, Infinity],
  yearMod100: [0, 99],
  month: [1, 12],
  day: [1, 31],
  ordinal: [1, 366],
  weekday: [0, 6],
  hour: [0, 23],
  hour12: [1, 12],
  minute: [0, 59],
  second: [0, 60],
};

class Reader {
  pos = 0;
  readonly parsed: Parsed = {};

  constructor(private readonly s: string) {}

  done(): boolean {
    return this.pos >= this.s.length;
  }

  skipSpace(): void {
    while (this.pos < this.s.length && /\s/.test(this.s[this.pos])) this.pos++;
  }

  literal(text: string): boolean {
    if (!this.s.startsWith(text, this.pos)) return false;
    this.pos += text.length;
    return true;
  }

  number(maxDigits: number): number | undefined {
    this.skipSpace();
    const m = new RegExp(`^\\d{1,${maxDigits}}`).exec(this.s.slice(this.pos));
    if (!m) return undefined;
    this.pos += m[0].length;
    return Number(m[0]);
  }

  /** chrono's year: up to four digits, or any number of them after an explicit sign. */
  year(): number | undefined {
    this.skipSpace();
    const sign = this.s[this.pos];
    if (sign === '+' || sign === '-') {
      this.pos++;
      const m = /^\d+/.exec(this.s.slice(this.pos));
      if (!m) return undefined;
      this.pos += m[0].length;
      return (sign === '-' ? -1 : 1) * Number(m[0]);
    }
    return this.number(4);
  }

  /** The longest of the names (or their three-letter forms when `short` are allowed) at pos. */
  name(long: string[], short: string[], allowLong: boolean): number | undefined {
    const rest = this.s.slice(this.pos).toLowerCase();
    for (let i = 0; i < short.length; i++) {
      if (allowLong && rest.startsWith(long[i].toLowerCase())) {
        this.pos += long[i].length;
        return i;
      }
    }
    for (let i = 0; i < short.length; i++) {
      if (rest.startsWith(short[i].toLowerCase())) {
        this.pos += 3;
        return i;
      }
    }
    return undefined;
  }

  offset(): number | undefined {
    this.skipSpace();
    const m = /^([+-])(\d{2}):?(\d{2})?/.exec(this.s.slice(this.pos));
    if (!m) {
      if (this.s[this.pos] === 'Z' || this.s[this.pos] === 'z') {
        this.pos++;
        return 0;
      }
      return undefined;
    }
    this.pos += m[0].length;
    const minutes = Number(m[2]) * 60 + Number(m[3] ?? '0');
    return (m[1] === '-' ? -1 : 1) * minutes;
  }

  /** Reads one specifier into `parsed`; false when the input does not fit it. */
  spec(spec: Spec): boolean {
    const p = this.parsed;
    const set = (key: keyof Parsed, v: number | boolean | undefined): boolean => {
      if (v === undefined) return false;
      // chrono refuses a field out of its range as it reads it, whatever the other fields are
      const range = RANGES[key];
      if (range && typeof v === 'number' && (v < range[0] || v > range[1])) return false;
      const prior = p[key];
      if (prior !== undefined && prior !== v) return false;
      (p as Record<keyof Parsed, number | boolean | undefined>)[key] = v;
      return true;
    };
    const name = spec.name;
    const numeric = NUMERIC[name];
    if (numeric) return set(numeric[1], this.number(numeric[0]));
    switch (name) {
      case 'Y':
        return set('year', this.year());
      case 'b':
      case 'B': {
        const month0 = this.name(LONG_MONTHS, SHORT_MONTHS, name === 'B');
        return set('month', month0 === undefined ? undefined : month0 + 1);
      }
      case 'a':
        return set('weekday', this.name(LONG_DAYS, SHORT_DAYS, false));
      case 'A':
        return set('weekday', this.name(LONG_DAYS, SHORT_DAYS, true));
      case 'w':
        return set('weekday', this.number(1));
      case 'u': {
        const n = this.number(1);
        return set('weekday', n === undefined ? undefined : n % 7);
      }
      case 'p':
      case 'P': {
        const two = this.s.slice(this.pos, this.pos + 2).toLowerCase();
        if (two !== 'am' && two !== 'pm') return false;
        this.pos += 2;
        return set('pm', two === 'pm');
      }
      case 's': {
        this.skipSpace();
        const m = /^-?\d+/.exec(this.s.slice(this.pos));
        if (!m) return false;
        this.pos += m[0].length;
        return set('timestamp', Number(m[0]));
      }
      case 'z':
      case ':z':
      case '::z':
      case ':::z':
      case '#z':
        return set('offset', this.offset());
    }
    if (name.endsWith('f')) {
      if (name.startsWith('.') && !this.literal('.')) return name === '.f';
      const m = /^\d{1,9}/.exec(this.s.slice(this.pos));
      if (!m) return false;
      this.pos += m[0].length;
      return set('nanos', Number(m[0].padEnd(9, '0')));
    }
    // week numbers and ISO years are read but not used to resolve or cross-check the date
    if (name === 'U' || name === 'W' || name === 'V' || name === 'g') return this.number(2) !== undefined;
    if (name === 'G') return this.year() !== undefined;
    // chrono cannot parse a time zone name (%Z)
    return false;
  }
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysIn(year: number, month: number): number {
  return [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

function weekdayOf(year: number, month: number, day: number): number {
  const d = new Date(Date.UTC(2000, month - 1, day));
  d.setUTCFullYear(year);
  return d.getUTCDay();
}

function resolveYear(p: Parsed): number | undefined {
  if (p.year !== undefined) {
    if (p.yearDiv100 !== undefined && Math.floor(p.year / 100) !== p.yearDiv100) return undefined;
    if (p.yearMod100 !== undefined && ((p.year % 100) + 100) % 100 !== p.yearMod100) return undefined;
    return p.year;
  }
  if (p.yearMod100 === undefined) return undefined;
  if (p.yearDiv100 !== undefined) return p.yearDiv100 * 100 + p.yearMod100;
  return p.yearMod100 < 70 ? 2000 + p.yearMod100 : 1900 + p.yearMod100;
}

/** Whether the fields name a real date; consistency of a given weekday included. */
function hasDate(p: Parsed): boolean {
  const year = resolveYear(p);
  if (year === undefined) return false;
  let { month, day } = p;
  if (p.ordinal !== undefined) {
    if (p.ordinal > (isLeap(year) ? 366 : 365)) return false;
    let m = 1;
    let rest = p.ordinal;
    while (rest > daysIn(year, m)) rest -= daysIn(year, m++);
    if ((month !== undefined && month !== m) || (day !== undefined && day !== rest)) return false;
    month = m;
    day = rest;
  }
  if (month === undefined || day === undefined) return false;
  if (day > daysIn(year, month)) return false;
  return p.weekday === undefined || p.weekday === weekdayOf(year, month, day);
}

/** Whether an hour and a minute are there, and agree with an AM/PM when one is given. */
function hasTime(p: Parsed): boolean {
  let hour = p.hour;
  if (p.hour12 !== undefined) {
    if (p.pm === undefined) return false;
    const h = (p.hour12 % 12) + (p.pm ? 12 : 0);
    if (hour !== undefined && hour !== h) return false;
    hour = h;
  } else if (hour !== undefined && p.pm !== undefined && hour >= 12 !== p.pm) return false;
  return hour !== undefined && p.minute !== undefined;
}

/** Whether `text` parses in `format` as a date-time, a date or a time, as kcl's validate asks. */
export function parsesAs(text: string, format: string): boolean {
  const tokens = tokenize(format);
  if (!tokens) return false;
  const r = new Reader(text);
  for (const t of tokens) {
    if ('literal' in t) {
      if (/\s/.test(t.literal)) r.skipSpace();
      else if (!r.literal(t.literal)) return false;
    } else if (!r.spec(t.spec)) return false;
  }
  if (!r.done()) return false;
  const p = r.parsed;
  if (p.timestamp !== undefined) return true;
  // a date-time needs both; a date or a time alone ignores the other fields
  return hasDate(p) || hasTime(p);
}

/** RFC 3339 date-times, as chrono's parse_from_rfc3339 takes them. */
export function isRfc3339(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false;
  if (hour > 23 || minute > 59 || second > 60) return false;
  return m[9] === undefined || (Number(m[9]) <= 23 && Number(m[10]) <= 59);
}
