/**
 * The order in which Go's YAML encoders (gopkg.in/yaml.v2 and v3, sorter.go `keyList.Less`)
 * write the keys of a map: kusion v0.8 read each KCL document into a Resource whose attributes and
 * extensions are `map[string]interface{}` and printed the Spec with yaml.v3, so every mapping
 * inside them comes out in this order, not in the order KCL wrote it.
 *
 * Strings compare rune by rune; at the first difference two letters compare by code point, a
 * letter and a non-letter put the non-letter first unless the runes before were digits, and
 * otherwise the runs of digits starting there compare as numbers ("a2" before "a10").
 */

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

const isLetter = (r: string): boolean => LETTER.test(r);
const isDigit = (r: string): boolean => DIGIT.test(r);
const digitValue = (r: string): number => r.codePointAt(0)! - 48;

export function goYamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  let digits = false;
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) {
      digits = isDigit(ar[i]);
      continue;
    }
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return ar[i] < br[i];
    if (al || bl) return digits ? al : bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      // a run of zeros after a non-zero digit is part of a number, not padding
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + digitValue(ar[ai]);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + digitValue(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i] < br[i];
  }
  return ar.length < br.length;
}

/** A value with the keys of every mapping in it (documents are loaded as Maps) in Go's order. */
export function withGoKeyOrder(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(withGoKeyOrder);
  if (!(x instanceof Map)) return x;
  const keys = [...x.keys()].sort((p, q) => {
    const [a, b] = [String(p), String(q)];
    return goYamlKeyLess(a, b) ? -1 : goYamlKeyLess(b, a) ? 1 : 0;
  });
  return new Map(keys.map((k) => [k, withGoKeyOrder(x.get(k))]));
}
