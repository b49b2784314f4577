/**
 * "Did you mean" as kcl offers it: the known names whose Jaro–Winkler similarity to the name
 * written is over 0.8, least similar first, which is the order kcl prints them in.
 *
 * The similarity is written here rather than taken from a package because which names kcl
 * offers follows the variant of Rust's strsim exactly (a match window of max/2 − 1, the prefix
 * boost only above 0.7 and over at most four characters); the JavaScript packages differ in
 * those details, and so would offer other names.
 */

const THRESHOLD = 0.8;

function jaro(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatched = new Array<boolean>(a.length).fill(false);
  const bMatched = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const end = Math.min(b.length, i + window + 1);
    for (let j = Math.max(0, i - window); j < end; j++) {
      if (bMatched[j] || a[i] !== b[j]) continue;
      aMatched[i] = bMatched[j] = true;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let outOfOrder = 0;
  for (let i = 0, j = 0; i < a.length; i++) {
    if (!aMatched[i]) continue;
    while (!bMatched[j]) j++;
    if (a[i] !== b[j]) outOfOrder++;
    j++;
  }
  const transpositions = Math.floor(outOfOrder / 2);
  return (matches / a.length + matches / b.length + (matches - transpositions) / matches) / 3;
}

/** Jaro–Winkler similarity, 0 (nothing alike) to 1 (equal), over characters (code points). */
export function jaroWinkler(first: string, second: string): number {
  const a = [...first];
  const b = [...second];
  const similarity = jaro(a, b);
  if (similarity <= 0.7) return similarity;
  let prefix = 0;
  while (prefix < 4 && prefix < a.length && a[prefix] === b[prefix]) prefix++;
  return similarity + 0.1 * prefix * (1 - similarity);
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

/** `, did you mean 'a'?` with the closest candidate alone, as kcl words it for a keyword argument. */
export function didYouMeanOne(name: string, candidates: Iterable<string>): string {
  const best = suggestions(name, candidates).at(-1);
  return best === undefined ? '' : `, did you mean '${best}'?`;
}
