/**
 * Numbers as kcl's serde_json reads them. kcl builds serde_json without its `float_roundtrip`
 * feature, so a float is read as an integer significand times a power of ten, computed with one
 * f64 multiplication or division, which can land one unit in the last place away from the value
 * the text denotes. That is visible in kcl's output: `kcl run` and `yaml.encode` write a value as
 * JSON text and read it back before the YAML emitter sees it (`math.modf(100.12)` prints
 * 0.12000000000000456, not 0.12000000000000455), and `json.decode` reads floats this way.
 */

const U64_MAX = 2n ** 64n - 1n;
const U64_DIV_10 = U64_MAX / 10n;
const U64_MOD_10 = U64_MAX % 10n;
const I32_MAX = 2 ** 31 - 1;

/** serde_json's POW10 table: the f64 nearest to each 10^k, k ≤ 308. */
const POW10: readonly number[] = Array.from({ length: 309 }, (_, k) => Number(`1e${k}`));

/** serde_json's `overflow!(a * 10 + b, u64::MAX)`. */
function overflowsU64(a: bigint, b: bigint): boolean {
  return a >= U64_DIV_10 && (a > U64_DIV_10 || b > U64_MOD_10);
}

/** `f64_from_parts` without `float_roundtrip`; undefined where serde_json reports "number out of range". */
function fromParts(negative: boolean, significand: bigint, exponent: number): number | undefined {
  let f = Number(significand);
  for (;;) {
    const pow = POW10[Math.abs(exponent)];
    if (pow !== undefined) {
      if (exponent >= 0) {
        f *= pow;
        if (!Number.isFinite(f)) return undefined;
      } else {
        f /= pow;
      }
      break;
    }
    if (f === 0) break;
    if (exponent >= 0) return undefined;
    f /= 1e308;
    exponent += 308;
  }
  return negative ? -f : f;
}

/**
 * The float a JSON number text (`-?int(.frac)?([eE][+-]?exp)?`, already checked) stands for in
 * kcl, following serde_json's digit loop: digits past what a u64 holds are dropped (after the
 * point) or only scale the exponent (before it). Undefined when serde_json finds it out of range.
 */
export function readJsonFloat(text: string): number | undefined {
  let i = 0;
  const negative = text[0] === '-';
  if (negative) i++;
  const isDigit = (): boolean => i < text.length && text[i]! >= '0' && text[i]! <= '9';
  let significand = 0n;
  let exponent = 0;
  let overflowed = false;
  while (isDigit()) {
    const digit = BigInt(text.charCodeAt(i) - 48);
    if (overflowed || overflowsU64(significand, digit)) {
      overflowed = true;
      exponent++;
    } else {
      significand = significand * 10n + digit;
    }
    i++;
  }
  if (text[i] === '.') {
    i++;
    // serde_json's parse_decimal starts afresh: a digit that fits again is still taken
    let dropping = false;
    while (isDigit()) {
      const digit = BigInt(text.charCodeAt(i) - 48);
      if (!dropping && overflowsU64(significand, digit)) dropping = true;
      if (!dropping) {
        significand = significand * 10n + digit;
        exponent--;
      }
      i++;
    }
  }
  if (text[i] === 'e' || text[i] === 'E') {
    i++;
    const negativeExp = text[i] === '-';
    if (text[i] === '-' || text[i] === '+') i++;
    let exp = 0;
    while (isDigit()) {
      const digit = text.charCodeAt(i) - 48;
      if (exp > (I32_MAX - digit) / 10) {
        // parse_exponent_overflow: a huge positive exponent of a non-zero significand is out of range
        if (!negativeExp && significand !== 0n) return undefined;
        return negative ? -0 : 0;
      }
      exp = exp * 10 + digit;
      i++;
    }
    exponent = Math.max(-(2 ** 31), Math.min(I32_MAX, negativeExp ? exponent - exp : exponent + exp));
  }
  return fromParts(negative, significand, exponent);
}
