/**
 * Resource quantities (`500m`, `2`, `1Gi`, `128974848`, `1e3`): parsed to numbers of base units
 * to compare and add them, and written back in the canonical form the API server prints.
 */

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/** The value of a quantity in base units, or undefined when it does not parse. */
export function parseQuantity(q: unknown): number | undefined {
  if (typeof q === 'number') return Number.isFinite(q) ? q : undefined;
  if (typeof q !== 'string') return undefined;
  const m = /^([+-]?[0-9]*\.?[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?$/.exec(q.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const suffix = m[2] ?? '';
  if (suffix in BINARY) return n * BINARY[suffix]!;
  if (suffix in DECIMAL) return n * DECIMAL[suffix]!;
  return n * 10 ** Number(suffix.slice(1));
}

/** Whether a string is a quantity the API server would accept. */
export function isQuantity(q: unknown): boolean {
  return parseQuantity(q) !== undefined;
}

/**
 * The canonical form of a value: whole numbers as they are, fractions in milli-units (`500m`),
 * and byte-sized values with the largest binary suffix that divides them (`1Gi`, `512Mi`).
 */
export function formatQuantity(v: number, binary = false): string {
  const milli = Math.round(v * 1000);
  if (milli % 1000 !== 0) return `${milli}m`;
  const whole = milli / 1000;
  if (binary && whole !== 0) {
    for (const s of ['Ei', 'Pi', 'Ti', 'Gi', 'Mi', 'Ki'])
      if (whole % BINARY[s]! === 0) return `${whole / BINARY[s]!}${s}`;
  }
  return String(whole);
}

/** Memory and storage print with binary suffixes; cpu and counts do not. */
export function formatFor(resource: string, v: number): string {
  return formatQuantity(v, /memory|storage/.test(resource));
}
