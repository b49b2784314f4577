/**
 * Cron schedules as CronJobs write them: five fields (minute, hour, day of month, month, day of
 * week) with `*`, lists, ranges, steps and names, or a macro (`@hourly`, `@daily`, …). Times are
 * UTC. Pure: a parse and a search for the latest time a schedule fired.
 */

export interface Schedule {
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  days: ReadonlySet<number>;
  months: ReadonlySet<number>;
  weekdays: ReadonlySet<number>;
  /** Both day fields restricted: a day matches either, as in cron. */
  eitherDay: boolean;
}

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

function value(text: string, names: readonly string[], base: number): number {
  const named = names.indexOf(text.toLowerCase());
  if (named >= 0) return named + base;
  if (!/^[0-9]+$/.test(text)) throw new Error(`"${text}" is not a number`);
  return Number(text);
}

function field(text: string, min: number, max: number, names: readonly string[] = [], base = min): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new Error(`bad step in "${part}"`);
    let lo = min;
    let hi = max;
    if (range !== '*' && range !== '?') {
      const [a, b] = range!.split('-');
      lo = value(a!, names, base);
      hi = b === undefined ? (stepText === undefined ? lo : max) : value(b, names, base);
    }
    if (lo < min || hi > max || lo > hi) throw new Error(`"${part}" is out of range ${min}-${max}`);
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

/** Parses a schedule; throws an Error saying what is wrong. */
export function parseSchedule(text: string): Schedule {
  const expanded = MACROS[text.trim()] ?? text.trim();
  const parts = expanded.split(/\s+/);
  if (parts.length !== 5) throw new Error(`expected exactly 5 fields, found ${parts.length}: ${text}`);
  const [mi, h, dom, mon, dow] = parts as [string, string, string, string, string];
  const weekdays = field(dow, 0, 7, WEEKDAYS, 0);
  // 7 is Sunday too
  if (weekdays.has(7)) weekdays.add(0);
  return {
    minutes: field(mi, 0, 59),
    hours: field(h, 0, 23),
    days: field(dom, 1, 31),
    months: field(mon, 1, 12, MONTHS, 1),
    weekdays,
    eitherDay: dom !== '*' && dom !== '?' && dow !== '*' && dow !== '?',
  };
}

function dayMatches(s: Schedule, d: Date): boolean {
  const dom = s.days.has(d.getUTCDate());
  const dow = s.weekdays.has(d.getUTCDay());
  return s.eitherDay ? dom || dow : dom && dow;
}

const MINUTE = 60_000;

/** The first time after `from` the schedule fires, skipping whole months, days and hours that cannot match. */
export function nextFiring(s: Schedule, from: number): number | undefined {
  let t = (Math.floor(from / MINUTE) + 1) * MINUTE;
  const end = from + 5 * 366 * 86_400_000;
  while (t <= end) {
    const d = new Date(t);
    const [y, mo, day, h] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours()];
    if (!s.months.has(mo + 1)) t = Date.UTC(y, mo + 1, 1);
    else if (!dayMatches(s, d)) t = Date.UTC(y, mo, day + 1);
    else if (!s.hours.has(h)) t = Date.UTC(y, mo, day, h + 1);
    else if (!s.minutes.has(d.getUTCMinutes())) t += MINUTE;
    else return t;
  }
  return undefined;
}

/**
 * The latest time in (after, now] the schedule fired, if any. Like the CronJob controller, it
 * looks at a bounded number of missed times.
 */
export function lastFiring(s: Schedule, after: number, now: number): number | undefined {
  let last: number | undefined;
  let t = after;
  for (let i = 0; i < 1000; i++) {
    const n = nextFiring(s, t);
    if (n === undefined || n > now) return last;
    last = n;
    t = n;
  }
  return last;
}
