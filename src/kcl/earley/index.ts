/**
 * A fast Earley parser for grammars compiled by nearleyc, with nearley's semantics: the same
 * parses, the same postprocessor calls on them (`postprocess(data, reference, reject)`), the same
 * result count for ambiguous input. What differs is how the work is done:
 *
 * - The grammar is preprocessed once (cached per grammar object): symbols and dotted rules
 *   ("positions") become integers, nullable nonterminals are found up front, and a token finds
 *   the terminals it matches by a map lookup on its type and on its text (token tests are asked
 *   only where one could be scanned).
 * - Nullable nonterminals follow Aycock and Horspool: whenever an item waits on a nullable
 *   nonterminal, the item advanced over it is added too. So an empty completion never has to be
 *   propagated inside its own column, and complete items whose origin is their own column are
 *   never needed.
 * - Predicted items are not materialised. The items of a column that have not consumed a token
 *   ("fresh" items: at a rule's start, or advanced over nullable symbols only) depend only on the
 *   set of nonterminals predicted there, so they are precomputed per such set (a `PredState`,
 *   memoised, reached from the empty set one nonterminal at a time).
 * - Only items that consumed at least one token are stored: four integers each in one typed
 *   array, deduplicated per column on (position, origin). Fresh items advanced together over the
 *   same child and then waiting on a terminal (the `x → x · "." …` continuations after every
 *   operand, nearly always dead) are stored as one "bundle" item that only the scanner opens.
 * - The items that span exactly one token (over half of them) depend only on the PredState they
 *   were scanned from and the terminal, so they are worked out once as a `Plan` and copied in.
 * - Postprocessors do not run during recognition. Each item keeps back-pointers (the item it
 *   advanced from, and the token, complete child item or empty nullable it advanced over); after
 *   the last token the derivation of the complete start item is built bottom-up, so dead
 *   branches never pay for their postprocessors. An item derived in several ways keeps every
 *   back-pointer pair, so ambiguity is counted and `reject` can discard one derivation in favour
 *   of another. Two postprocessors nearleyc and grammars use all the time are recognised by their
 *   source and evaluated without the call: `d[0]`, and the `concat` of `:*`/`:+` lists, which is
 *   done as an in-place append where the list cannot be seen by anyone else.
 *
 * The parts: grammar.ts prepares the grammar, states.ts works out the PredStates, bundles and
 * plans as parses need them, chart.ts stores the items, recognizer.ts fills a chart, builder.ts
 * builds the values from it, and syntax-error.ts reports a parse that cannot go on.
 */
import { Alternatives, Builder, MAX_ALTERNATIVES, REJECT } from './builder.js';
import { Chart, chartCapacity, Item, POOL_SIZE, POOLED_ITEMS } from './chart.js';
import { type CompiledGrammar, type EarleyToken, prepare, type Prepared } from './grammar.js';
import { Recognizer } from './recognizer.js';
import { EarleySyntaxError, expectedAt } from './syntax-error.js';

export type {
  CompiledGrammar,
  CompiledRule,
  EarleyToken,
  GrammarSymbol,
  Postprocessor,
  TerminalSymbol,
} from './grammar.js';
export { EarleySyntaxError } from './syntax-error.js';
export { MAX_ALTERNATIVES } from './builder.js';

export interface EarleyResult {
  /** One postprocessed value per complete parse (at most MAX_ALTERNATIVES). */
  results: unknown[];
}

/** A prepared grammar and what its parses reuse. */
interface Runtime<T extends EarleyToken> {
  readonly g: Prepared<T>;
  /** Charts of finished small parses, kept so interpolation sub-parses do not allocate. */
  readonly pool: Chart[];
  /**
   * The recogniser and builders, reused from parse to parse. Not for the allocation: V8 ties
   * optimised code to the hidden classes of the objects it works on, and when the last instance
   * of a class dies, it collects those and throws the code away, to compile it again on the next
   * parse. Recognition is never re-entered, so one recogniser does; builders nest (a
   * postprocessor may parse), so there is a pool.
   */
  recognizer: Recognizer<T> | undefined;
  readonly builders: Builder<T>[];
}

const runtimes = new WeakMap<object, unknown>();

function runtimeOf<T extends EarleyToken>(grammar: CompiledGrammar<T>): Runtime<T> {
  const known = runtimes.get(grammar) as Runtime<T> | undefined;
  if (known) return known;
  const runtime: Runtime<T> = { g: prepare(grammar), pool: [], recognizer: undefined, builders: [] };
  runtimes.set(grammar, runtime);
  return runtime;
}

/**
 * Parses a token array with a nearleyc-compiled grammar and returns every complete parse's
 * postprocessed value; throws EarleySyntaxError when no parse exists.
 */
export function earleyParse<T extends EarleyToken>(grammar: CompiledGrammar<T>, tokens: readonly T[]): EarleyResult {
  const rt = runtimeOf(grammar);
  const g = rt.g;
  const n = tokens.length;
  // a pooled chart that would have to grow is no saving
  const pooled =
    rt.pool.length > 0 && rt.pool[rt.pool.length - 1].capacity >= chartCapacity(n) ? rt.pool.pop() : undefined;
  const chart = pooled ?? new Chart(n);
  chart.reset(n);
  const builder = rt.builders.pop() ?? new Builder(g);
  try {
    (rt.recognizer ??= new Recognizer(g)).run(chart, tokens);

    builder.open(chart, tokens);
    const results: unknown[] = [];
    const add = (v: unknown): void => {
      if (v instanceof Alternatives) results.push(...v.values);
      else if (v !== REJECT) results.push(v);
    };
    if (n === 0) {
      if (g.nullable[g.start]) add(builder.empty(g.start, 0));
    } else {
      for (let k = chart.colStart[n]; k < chart.colStart[n + 1]; k++) {
        const pos = chart.items[k * Item.SIZE + Item.POS];
        if (
          pos < g.posCount &&
          g.posNext[pos] < 0 &&
          chart.items[k * Item.SIZE + Item.ORIGIN] === 0 &&
          g.ruleLhs[g.posRule[pos]] === g.start
        ) {
          add(builder.build(k));
        }
      }
    }
    if (results.length === 0) throw new EarleySyntaxError<T>(n, undefined, expectedAt(g, chart, n));
    return { results: results.slice(0, MAX_ALTERNATIVES) };
  } finally {
    builder.close();
    rt.builders.push(builder);
    if (chart.capacity <= POOLED_ITEMS && rt.pool.length < POOL_SIZE) rt.pool.push(chart);
  }
}
