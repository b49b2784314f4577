/**
 * "Did you mean" as kcl offers it: the known names whose Jaro–Winkler similarity to the name
 * written is over 0.8, least similar first, which is the order kcl prints them in.
 *
 * The similarity is written here rather than taken from a package because which names kcl
 * offers follows the Rust crate it calls exactly: `suggestions` 0.1.1, over strsim 0.10 (its
 * `^0.10` admits no later release). strsim 0.10 counts a transposition each time a match lies
 * before the one matched last, and boosts every common prefix, however long and however unlike
 * the rest; strsim 0.11 and the JavaScript packages count and boost otherwise, and so would offer
 * other names (`ErrOther` would not get `Other`).
 */

const THRESHOLD = 0.8;

function jaro(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  if (a.length === 1 && b.length === 1) return a[0] === b[0] ? 1 : 0;
  const range = Math.floor(Math.max(a.length, b.length) / 2) - 1;
  const consumed = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  let transpositions = 0;
  let lastMatch = 0;
  for (let i = 0; i < a.length; i++) {
    const last = Math.min(b.length - 1, i + range);
    for (let j = Math.max(0, i - range); j <= last; j++) {
      if (consumed[j] || a[i] !== b[j]) continue;
      consumed[j] = true;
      matches++;
      if (j < lastMatch) transpositions++;
      lastMatch = j;
      break;
    }
  }
  if (matches === 0) return 0;
  return (matches / a.length + matches / b.length + (matches - transpositions) / matches) / 3;
}

/** Jaro–Winkler similarity, 0 (nothing alike) to 1 (equal), over characters (code points). */
export function jaroWinkler(first: string, second: string): number {
  const a = [...first];
  const b = [...second];
  const similarity = jaro(a, b);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return Math.min(1, similarity + 0.1 * prefix * (1 - similarity));
}

/** The candidates close enough to `name`, least similar first (ties keep the candidates' order). */
export function suggestions(name: string, candidates: Iterable<string>): string[] {
  // a name bound in two scopes is one candidate
  return [...new Set(candidates)]
    .map((candidate) => ({ candidate, similarity: jaroWinkler(name, candidate) }))
    .filter((c) => c.similarity > THRESHOLD)
    .sort((x, y) => x.similarity - y.similarity)
    .map((c) => c.candidate);
}

/** `, did you mean '["a", "b"]'?` as kcl appends it to a message, or nothing without a candidate. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const found = suggestions(name, candidates);
  return found.length ? `, did you mean '[${found.map((s) => JSON.stringify(s)).join(', ')}]'?` : '';
}

/** `, did you mean 'a or b'?` as kcl words it for a keyword argument, or nothing without a candidate. */
export function didYouMeanAny(name: string, candidates: Iterable<string>): string {
  const found = suggestions(name, candidates);
  return found.length ? `, did you mean '${found.join(' or ')}'?` : '';
}
