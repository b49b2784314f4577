/** The error a parse with no derivation throws, and what it reports as expected. */
import { type Chart, Item } from './chart.js';
import type { EarleyToken, Prepared, TerminalSymbol } from './grammar.js';

export class EarleySyntaxError<T> extends Error {
  constructor(
    /** Index of the token that cannot be consumed; `tokens.length` when the input ends too early. */
    readonly tokenIndex: number,
    /** That token, or undefined at the end of the input. */
    readonly token: T | undefined,
    /** The terminals the grammar would have accepted there, as they appear in the grammar. */
    readonly expected: TerminalSymbol<T>[],
  ) {
    super(token === undefined ? 'unexpected end of input' : `unexpected token at index ${tokenIndex}`);
    this.name = 'EarleySyntaxError';
  }
}

/** The terminals some item of column j could have scanned, in grammar order. */
export function expectedAt<T extends EarleyToken>(g: Prepared<T>, c: Chart, j: number): TerminalSymbol<T>[] {
  const seen = new Set<number>();
  for (let k = c.colStart[j], end = c.colStart[j + 1]; k < end; k++) {
    const pos = c.items[k * Item.SIZE + Item.POS];
    if (pos >= g.posCount) for (const t of g.bundles[pos - g.posCount].terms) seen.add(t);
    else if (g.posNext[pos] >= g.ntCount) seen.add(g.posNext[pos] - g.ntCount);
  }
  for (const t of g.states[c.colState[j]].scanTerms) seen.add(t);
  return [...seen].sort((a, b) => a - b).map((t) => g.terminals[t]);
}
