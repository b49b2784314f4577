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
 */

/** What a token must provide: nearley matches `{type}` on `type` and `{literal}` on `text` (else `value`). */
export interface EarleyToken {
  type?: string;
  text?: string;
  value?: unknown;
}

/** A terminal as nearleyc emits it; nearley tries `test`, then `type`, then `literal`. */
export interface TerminalSymbol<T> {
  type?: string;
  literal?: string;
  test?: (token: T) => boolean;
}

export type GrammarSymbol<T> = string | TerminalSymbol<T>;

export type Postprocessor = (data: unknown[], reference: number, reject: object) => unknown;

export interface CompiledRule<T> {
  name: string;
  symbols: readonly GrammarSymbol<T>[];
  postprocess?: Postprocessor;
}

/** The object a nearleyc-compiled grammar module exports. */
export interface CompiledGrammar<T> {
  Lexer?: unknown;
  ParserRules: readonly CompiledRule<T>[];
  ParserStart: string;
}

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

export interface EarleyResult {
  /** One postprocessed value per complete parse (at most MAX_ALTERNATIVES). */
  results: unknown[];
}

/**
 * The most values kept for one ambiguous node. Ambiguity can grow exponentially with the input;
 * past this bound the count is only a lower bound, which still tells 1 from more.
 */
export const MAX_ALTERNATIVES = 64;

/** The sentinel postprocessors return to reject a derivation; nearley passes its own `Parser.fail`. */
const REJECT: object = Object.freeze({});

/** The values of a node derived in several ways that survived `reject`; always at least two. */
class Alternatives {
  constructor(readonly values: unknown[]) {}
}

// back-pointer encodings: a left of FRESH means the item advanced from a fresh item of its origin
// column (everything before the dot derived empty). A child is an item index, or a token or an
// empty derivation encoded with where it is, so that building needs no column bookkeeping (and
// no reading of other items for it): -2 - 2t for token t, -3 - 2c for an empty one at column c
const FRESH = -1;
const NO_LINK = -1;
const tokenChild = (t: number): number => -2 - 2 * t;
const emptyChild = (column: number): number => -3 - 2 * column;
// in a plan's template, which does not know its columns: the scanned token, an empty derivation
const PLAN_TOKEN = -1;
const PLAN_EMPTY = -2;

// how a rule's value is made when its postprocessor is one nearleyc or the grammar always uses;
// 0 for every other rule: call the postprocessor
/** `(d) => d[0]` or nearleyc's `id`: the value is the first child's. */
const RULE_FIRST = 1;
/** nearleyc's `x$ebnf$n -> x$ebnf$n item` with `d[0].concat([d[1]])`. */
const RULE_APPEND = 2;
/** `(d) => [d[0]]` on a one-symbol rule: the data array is that new array already. */
const RULE_WRAP = 3;
/** nearleyc's `() => null` for an absent `x:?`. */
const RULE_NULL = 4;

const FIRST_SOURCE = /^(?:function\w*\(d\)\{returnd\[0\];?\}|\(?d\)?=>d\[0\])$/;
const NULL_SOURCE = /^(?:function\w*\(d?\)\{returnnull;?\}|\(d?\)=>null)$/;
const WRAP_SOURCE = /^\(?d\)?=>\[d\[0\]\]$/;
const APPEND_SOURCE = /^(?:function\w*\(d\)\{returnd\[0\]\.concat\(\[d\[1\]\]\);?\}|\(?d\)?=>d\[0\]\.concat\(\[d\[1\]\]\))$/;

/** Fresh items advanced over the same symbol that all wait on a terminal: scanned, never completed. */
interface Bundle {
  /** Per terminal: the positions advanced over it. */
  readonly scanOn: (Int32Array | undefined)[];
  /** The terminals that have an entry in scanOn, and those among them that are token tests. */
  readonly terms: Int32Array;
  readonly tests: Int32Array;
}

/** The fresh items of a column for one set of predicted nonterminals, grouped for their uses. */
interface PredState {
  /** Which nonterminals are predicted (the closure). */
  readonly predicted: Uint8Array;
  /** The state for this set plus one nonterminal; -1 until first needed. */
  readonly next: Int32Array;
  /** Per nonterminal A: positions advanced over A to add as items when A completes here. */
  readonly waitItems: (Int32Array | undefined)[];
  /** Per nonterminal A: the bundle position of those that then wait on a terminal, or -1. */
  readonly waitBundle: Int32Array;
  /** Per terminal: likewise when a token matching it is scanned here. */
  readonly scanItems: (Int32Array | undefined)[];
  readonly scanBundle: Int32Array;
  /** The token-test terminals with an entry, which have to be asked; the others are looked up. */
  readonly scanTests: Int32Array;
  /** Every terminal with an entry, for error messages. */
  readonly scanTerms: Int32Array;
  /** Per terminal: what scanning it here makes, once first needed; null when nothing. */
  readonly plans: (Plan | null | undefined)[];
}

/**
 * Every item that spans exactly the one token scanned from a column: they come from that
 * column's fresh items only, so they depend on nothing but its PredState and the terminal, and
 * are written from this template without deduplication or a pass of the completer.
 */
interface Plan {
  readonly size: number;
  /** Per item: position, left, child; an item reference is an index into the template. */
  readonly template: Int32Array;
  /** (item, left, child) back-pointer pairs of items derived in several ways within the plan. */
  readonly extra: Int32Array;
  /** (item, nonterminal) of its complete items: kernel items at the origin may wait on them. */
  readonly completes: Int32Array;
  /** (item, nonterminal) of its items waiting on a nonterminal. */
  readonly waits: Int32Array;
  /** The PredState of the new column with only these waits. */
  readonly state: number;
}

/** The grammar in integer form, plus scratch arrays recognition reuses from parse to parse. */
interface Prepared<T extends EarleyToken> {
  readonly ntCount: number;
  readonly start: number;
  readonly terminals: TerminalSymbol<T>[];
  readonly typeTerm: Map<string, number>;
  readonly literalTerm: Map<string, number>;
  /** The length of the longest literal: longer texts (most names) need no lookup. */
  readonly literalMax: number;
  /** Per terminal: its test function, for token-test terminals. */
  readonly termTest: (((token: T) => boolean) | undefined)[];
  readonly rulesOf: number[][];
  /** Per rule: its symbols, nonterminals as their id, terminals as ntCount + terminal id. */
  readonly ruleSyms: Int32Array[];
  readonly ruleLhs: Int32Array;
  readonly ruleBase: Int32Array;
  readonly rulePost: (Postprocessor | undefined)[];
  readonly ruleKind: Uint8Array;
  /** The number of positions; position ids from here on are bundles. */
  readonly posCount: number;
  /** Per position: the encoded symbol after the dot, -1 when complete. */
  readonly posNext: Int32Array;
  /** Per position: the encoded symbol before the dot (dot > 0). */
  readonly posPrev: Int32Array;
  readonly posRule: Int32Array;
  readonly posDot: Int32Array;
  readonly nullable: Uint8Array;
  /** Per nullable nonterminal: its rules whose symbols are all nullable. */
  readonly emptyRules: number[][];
  /** Per nonterminal: the rule of its one empty derivation, or -1 (not nullable, or several). */
  readonly emptyRule: Int32Array;
  readonly states: PredState[];
  readonly stateByKey: Map<string, number>;
  readonly bundles: Bundle[];
  readonly bundleByKey: Map<string, number>;
  // scratch for recognition, which is never re-entered (postprocessors run only when building);
  // indexed by position or bundle, so they grow with the bundles
  posStamp: Int32Array;
  posHead: Int32Array;
  readonly testStamp: Int32Array;
  readonly testResult: Uint8Array;
  stamp: number;
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

const prepared = new WeakMap<object, unknown>();

function prepare<T extends EarleyToken>(grammar: CompiledGrammar<T>): Prepared<T> {
  const cached = prepared.get(grammar) as Prepared<T> | undefined;
  if (cached) return cached;

  const ntIds = new Map<string, number>();
  const nt = (name: string): number => {
    let id = ntIds.get(name);
    if (id === undefined) {
      id = ntIds.size;
      ntIds.set(name, id);
    }
    return id;
  };
  for (const r of grammar.ParserRules) nt(r.name);
  for (const r of grammar.ParserRules) for (const s of r.symbols) if (typeof s === 'string') nt(s);
  const start = nt(grammar.ParserStart);
  const ntCount = ntIds.size;

  const terminals: TerminalSymbol<T>[] = [];
  const typeTerm = new Map<string, number>();
  const literalTerm = new Map<string, number>();
  const testTerm = new Map<(token: T) => boolean, number>();
  const termTest: (((token: T) => boolean) | undefined)[] = [];
  // one terminal per distinct test function, token type or literal
  const terminal = (s: TerminalSymbol<T>): number => {
    const test = s.test;
    const map = typeof test === 'function' ? testTerm : s.type ? typeTerm : literalTerm;
    const key = typeof test === 'function' ? test : s.type ? s.type : String(s.literal);
    const known = (map as Map<typeof key, number>).get(key);
    if (known !== undefined) return known;
    (map as Map<typeof key, number>).set(key, terminals.length);
    terminals.push(s);
    termTest.push(typeof test === 'function' ? test : undefined);
    return terminals.length - 1;
  };

  const ruleCount = grammar.ParserRules.length;
  const rulesOf: number[][] = Array.from({ length: ntCount }, () => []);
  const ruleSyms: Int32Array[] = [];
  const ruleLhs = new Int32Array(ruleCount);
  const ruleBase = new Int32Array(ruleCount);
  const rulePost: (Postprocessor | undefined)[] = [];
  const ruleKind = new Uint8Array(ruleCount);
  let posCount = 0;
  grammar.ParserRules.forEach((r, i) => {
    const lhs = nt(r.name);
    ruleLhs[i] = lhs;
    rulesOf[lhs].push(i);
    ruleSyms.push(Int32Array.from(r.symbols, (s) => (typeof s === 'string' ? nt(s) : ntCount + terminal(s))));
    rulePost.push(r.postprocess);
    ruleBase[i] = posCount;
    posCount += r.symbols.length + 1;
    // recognised by their source: the value is the same, made without an array or a copy
    const source = r.postprocess?.toString().replace(/\s+/g, '') ?? '';
    if (r.symbols.length > 0 && FIRST_SOURCE.test(source)) ruleKind[i] = RULE_FIRST;
    else if (r.symbols.length === 1 && WRAP_SOURCE.test(source)) ruleKind[i] = RULE_WRAP;
    else if (r.symbols.length === 0 && NULL_SOURCE.test(source)) ruleKind[i] = RULE_NULL;
    else if (r.symbols.length === 2 && r.symbols[0] === r.name && r.name.includes('$ebnf$') && APPEND_SOURCE.test(source)) ruleKind[i] = RULE_APPEND;
  });
  // appending in place is only safe when the list it starts from is a fresh array, as with
  // nearleyc's base rules (`x$ebnf$n ->` and `x$ebnf$n -> item`, no postprocessor)
  ruleKind.forEach((kind, i) => {
    if (kind === RULE_APPEND && rulesOf[ruleLhs[i]].some((r) => r !== i && rulePost[r] !== undefined)) ruleKind[i] = 0;
  });

  const posNext = new Int32Array(posCount);
  const posPrev = new Int32Array(posCount);
  const posRule = new Int32Array(posCount);
  const posDot = new Int32Array(posCount);
  for (let r = 0; r < ruleCount; r++) {
    const syms = ruleSyms[r];
    for (let d = 0; d <= syms.length; d++) {
      const p = ruleBase[r] + d;
      posNext[p] = d < syms.length ? syms[d] : -1;
      posPrev[p] = d > 0 ? syms[d - 1] : -1;
      posRule[p] = r;
      posDot[p] = d;
    }
  }

  const nullable = new Uint8Array(ntCount);
  for (let changed = true; changed; ) {
    changed = false;
    for (let r = 0; r < ruleCount; r++) {
      if (!nullable[ruleLhs[r]] && ruleSyms[r].every((s) => s < ntCount && nullable[s] === 1)) {
        nullable[ruleLhs[r]] = 1;
        changed = true;
      }
    }
  }
  const emptyRules = rulesOf.map((rules) => rules.filter((r) => ruleSyms[r].every((s) => s < ntCount && nullable[s] === 1)));
  // how many empty derivations each nonterminal has, counting to 2 (a cycle makes infinitely many)
  const emptyCount = new Uint8Array(ntCount);
  for (let changed = true; changed; ) {
    changed = false;
    for (let a = 0; a < ntCount; a++) {
      let sum = 0;
      for (const r of emptyRules[a]) sum += ruleSyms[r].reduce((product, sym) => product * emptyCount[sym], 1);
      if (Math.min(sum, 2) > emptyCount[a]) {
        emptyCount[a] = Math.min(sum, 2);
        changed = true;
      }
    }
  }
  const emptyRule = Int32Array.from(emptyRules, (rules, a) => {
    if (emptyCount[a] !== 1) return -1;
    return rules.find((r) => ruleSyms[r].every((sym) => emptyCount[sym] === 1)) ?? -1;
  });

  const g: Prepared<T> = {
    ntCount,
    start,
    terminals,
    typeTerm,
    literalTerm,
    literalMax: Math.max(0, ...[...literalTerm.keys()].map((l) => l.length)),
    termTest,
    rulesOf,
    ruleSyms,
    ruleLhs,
    ruleBase,
    rulePost,
    ruleKind,
    posCount,
    posNext,
    posPrev,
    posRule,
    posDot,
    nullable,
    emptyRules,
    emptyRule,
    states: [],
    stateByKey: new Map(),
    bundles: [],
    bundleByKey: new Map(),
    posStamp: new Int32Array(posCount + 64),
    posHead: new Int32Array(posCount + 64),
    testStamp: new Int32Array(terminals.length),
    testResult: new Uint8Array(terminals.length),
    stamp: 0,
    pool: [],
    recognizer: undefined,
    builders: [],
  };
  // state 0: nothing predicted, where every column but the first starts
  predState(g, new Uint8Array(ntCount));
  prepared.set(grammar, g);
  return g;
}

/** The memoised state for the closure of `seed`, which this extends in place. */
function predState<T extends EarleyToken>(g: Prepared<T>, seed: Uint8Array): number {
  const { ntCount, rulesOf, ruleSyms, ruleBase, nullable } = g;
  const predicted = seed;
  const queue: number[] = [];
  for (let a = 0; a < ntCount; a++) if (predicted[a]) queue.push(a);
  const waitOn: number[][] = [];
  const scanOn: number[][] = [];
  for (let qi = 0; qi < queue.length; qi++) {
    for (const r of rulesOf[queue[qi]]) {
      const syms = ruleSyms[r];
      // a fresh item at each dot reachable over nullable symbols
      for (let d = 0; d < syms.length; d++) {
        const s = syms[d];
        const advanced = ruleBase[r] + d + 1;
        if (s >= ntCount) {
          (scanOn[s - ntCount] ??= []).push(advanced);
          break;
        }
        (waitOn[s] ??= []).push(advanced);
        if (!predicted[s]) {
          predicted[s] = 1;
          queue.push(s);
        }
        if (!nullable[s]) break;
      }
    }
  }
  let key = '';
  for (let a = 0; a < ntCount; a++) if (predicted[a]) key += `${a},`;
  const known = g.stateByKey.get(key);
  if (known !== undefined) return known;

  const termCount = g.terminals.length;
  const waitItems: (Int32Array | undefined)[] = new Array<Int32Array | undefined>(ntCount).fill(undefined);
  const waitBundle = new Int32Array(ntCount).fill(-1);
  const scanItems: (Int32Array | undefined)[] = new Array<Int32Array | undefined>(termCount).fill(undefined);
  const scanBundle = new Int32Array(termCount).fill(-1);
  const split = (positions: number[], items: (Int32Array | undefined)[], bundles: Int32Array, at: number): void => {
    const single = positions.filter((p) => g.posNext[p] < ntCount);
    const scanning = positions.filter((p) => g.posNext[p] >= ntCount);
    // a bundle of one would save nothing and cost a lookup
    if (scanning.length < 2) single.push(...scanning);
    else bundles[at] = bundle(g, scanning);
    if (single.length > 0) items[at] = Int32Array.from(single);
  };
  waitOn.forEach((positions, a) => split(positions, waitItems, waitBundle, a));
  scanOn.forEach((positions, t) => split(positions, scanItems, scanBundle, t));
  const scanTerms: number[] = [];
  scanOn.forEach((_, t) => scanTerms.push(t));
  g.states.push({
    predicted,
    next: new Int32Array(ntCount).fill(-1),
    waitItems,
    waitBundle,
    scanItems,
    scanBundle,
    scanTests: Int32Array.from(scanTerms.filter((t) => g.termTest[t] !== undefined)),
    scanTerms: Int32Array.from(scanTerms),
    plans: new Array<Plan | null | undefined>(termCount).fill(undefined),
  });
  g.stateByKey.set(key, g.states.length - 1);
  return g.states.length - 1;
}

/** The bundle position for a set of fresh positions that wait on terminals. */
function bundle<T extends EarleyToken>(g: Prepared<T>, positions: number[]): number {
  const key = positions.join(',');
  const known = g.bundleByKey.get(key);
  if (known !== undefined) return known;
  const scanOn: number[][] = [];
  for (const p of positions) (scanOn[g.posNext[p] - g.ntCount] ??= []).push(p + 1);
  const terms: number[] = [];
  scanOn.forEach((_, t) => terms.push(t));
  g.bundles.push({
    scanOn: Array.from({ length: g.terminals.length }, (_, t) => (scanOn[t] ? Int32Array.from(scanOn[t]) : undefined)),
    terms: Int32Array.from(terms),
    tests: Int32Array.from(terms.filter((t) => g.termTest[t] !== undefined)),
  });
  const id = g.posCount + g.bundles.length - 1;
  if (id >= g.posStamp.length) {
    g.posStamp = growTo(g.posStamp, id + 64);
    g.posHead = growTo(g.posHead, id + 64);
  }
  g.bundleByKey.set(key, id);
  return id;
}

/** The plan for scanning terminal t from a column in state `from`: the Earley closure of its fresh items. */
function planFor<T extends EarleyToken>(g: Prepared<T>, from: number, t: number): Plan | null {
  const st = g.states[from];
  const known = st.plans[t];
  if (known !== undefined) return known;
  const { posCount, posNext, posRule, ruleLhs, ntCount, nullable } = g;
  const template: number[] = [];
  const extra: number[] = [];
  const completes: number[] = [];
  const waits: number[] = [];
  const entry = new Map<number, number>();
  // the same steps as the recogniser's, on items whose origin is the column scanned from
  const add = (pos: number, left: number, child: number): void => {
    const e = entry.get(pos);
    if (e !== undefined) {
      extra.push(e, left, child);
      return;
    }
    entry.set(pos, template.length / 3);
    template.push(pos, left, child);
  };
  const scanned = st.scanItems[t];
  if (scanned !== undefined) for (const q of scanned) add(q, FRESH, PLAN_TOKEN);
  if (st.scanBundle[t] >= 0) add(st.scanBundle[t], FRESH, PLAN_TOKEN);
  let state = 0;
  for (let e = 0; e < template.length / 3; e++) {
    const pos = template[e * 3];
    if (pos >= posCount) continue;
    const s = posNext[pos];
    if (s < 0) {
      const a = ruleLhs[posRule[pos]];
      completes.push(e, a);
      const fresh = st.waitItems[a];
      if (fresh !== undefined) for (const q of fresh) add(q, FRESH, e);
      if (st.waitBundle[a] >= 0) add(st.waitBundle[a], FRESH, e);
    } else if (s < ntCount) {
      waits.push(e, s);
      state = transition(g, state, s);
      if (nullable[s]) add(pos + 1, e, PLAN_EMPTY);
    }
  }
  const plan =
    template.length === 0
      ? null
      : {
          size: template.length / 3,
          template: Int32Array.from(template),
          extra: Int32Array.from(extra),
          completes: Int32Array.from(completes),
          waits: Int32Array.from(waits),
          state,
        };
  st.plans[t] = plan;
  return plan;
}

/** The state for the nonterminals of `from` plus `a`. */
function transition<T extends EarleyToken>(g: Prepared<T>, from: number, a: number): number {
  const state = g.states[from];
  const known = state.next[a];
  if (known >= 0) return known;
  const to = state.predicted[a] ? from : predState(g, Uint8Array.from(state.predicted, (v, i) => (i === a ? 1 : v)));
  state.next[a] = to;
  return to;
}

function growTo(a: Int32Array, min: number): Int32Array {
  const b = new Int32Array(Math.max(min, a.length * 2));
  b.set(a);
  return b;
}

/** Charts up to this many items go back to the pool after a parse; bigger ones are left to the GC. */
const POOLED_ITEMS = 1 << 16;
const POOL_SIZE = 8;

/** About seven items a token on the KCL grammar; growing is a copy, so start near it. */
const chartCapacity = (tokenCount: number): number => 256 + tokenCount * 8;

// an item is four consecutive numbers of Chart.items, so that reading one is one cache line:
const POS = 0; // its position (rule and dot), or a bundle
const ORIGIN = 1; // the column it started in
const LEFT = 2; // the item it advanced from, FRESH, or -2 - link when derived in several ways
const CHILD = 3; // what it advanced over: an item, or an encoded token or empty derivation
const ITEM = 4;

/** The recognised chart: every token-consuming item with its back-pointers. */
class Chart {
  items: Int32Array;
  count = 0;
  /**
   * The back-pointer pairs of items derived in several ways, chained: such an item's LEFT is
   * -2 - its first link. Rare, so plain arrays.
   */
  linkLeft: number[] = [];
  linkChild: number[] = [];
  linkNext: number[] = [];
  /** Per column: its kernel items waiting on a nonterminal, as (nonterminal, item) pairs. */
  waitSym: Int32Array;
  waitItem: Int32Array;
  waitCount = 0;
  colStart: Int32Array;
  colWaitStart: Int32Array;
  colWaitEnd: Int32Array;
  colState: Int32Array;

  constructor(tokenCount: number) {
    this.items = new Int32Array(chartCapacity(tokenCount) * ITEM);
    this.waitSym = new Int32Array(64 + tokenCount * 2);
    this.waitItem = new Int32Array(64 + tokenCount * 2);
    this.colStart = new Int32Array(tokenCount + 2);
    this.colWaitStart = new Int32Array(tokenCount + 1);
    this.colWaitEnd = new Int32Array(tokenCount + 1);
    this.colState = new Int32Array(tokenCount + 1);
  }

  get capacity(): number {
    return this.items.length / ITEM;
  }

  reset(tokenCount: number): void {
    this.count = 0;
    this.waitCount = 0;
    if (this.linkLeft.length > 0) {
      this.linkLeft = [];
      this.linkChild = [];
      this.linkNext = [];
    }
    if (this.colStart.length < tokenCount + 2) {
      this.colStart = new Int32Array(tokenCount + 2);
      this.colWaitStart = new Int32Array(tokenCount + 1);
      this.colWaitEnd = new Int32Array(tokenCount + 1);
      this.colState = new Int32Array(tokenCount + 1);
    }
  }

  growWaits(): void {
    this.waitSym = growTo(this.waitSym, this.waitCount + 1);
    this.waitItem = growTo(this.waitItem, this.waitCount + 1);
  }
}

/** What the reused recogniser and builders point at between parses, so they hold on to nothing. */
const IDLE_CHART = new Chart(0);

/** Runs the recogniser over the tokens, filling a chart; throws EarleySyntaxError on a dead end. */
class Recognizer<T extends EarleyToken> {
  private readonly posNext: Int32Array;
  private readonly posRule: Int32Array;
  private readonly ruleLhs: Int32Array;
  private readonly nullable: Uint8Array;
  private readonly ntCount: number;
  private readonly posCount: number;
  private posStamp: Int32Array;
  private posHead: Int32Array;
  private c: Chart = IDLE_CHART;
  /** The chart's items, refreshed when they grow. */
  private items: Int32Array = IDLE_CHART.items;
  /** Per item of the column being built, from its first: the previous one with the same position. */
  private same: Int32Array = new Int32Array(256);
  /** The first item of the column being built. */
  private columnBase = 0;
  /** The PredState the plans of the column being built lead to. */
  private planState = 0;
  /** The stamp of the column being built: positions stamped with it have an item in it. */
  private stamp = 0;
  // the terminals the current token matches by type and by text; tests are asked when needed
  private typeTerm = -1;
  private literalTerm = -1;
  private token: T | undefined;
  /** Per token: its type's terminal and its text's, or -1. */
  private typeTerms: Int32Array = new Int32Array(0);
  private literalTerms: Int32Array = new Int32Array(0);
  private readonly small = new Int32Array(256);
  private readonly smallLiterals = new Int32Array(256);

  constructor(private readonly g: Prepared<T>) {
    this.posNext = g.posNext;
    this.posRule = g.posRule;
    this.ruleLhs = g.ruleLhs;
    this.nullable = g.nullable;
    this.ntCount = g.ntCount;
    this.posCount = g.posCount;
    this.posStamp = g.posStamp;
    this.posHead = g.posHead;
  }

  /** Fills chart c from the tokens. */
  run(c: Chart, tokens: readonly T[]): void {
    this.c = c;
    this.items = c.items;
    this.refresh();
    try {
      this.recognize(tokens);
    } finally {
      // the items array is replaced when it grows; the chart gets the last one
      c.items = this.items;
      this.c = IDLE_CHART;
      this.items = IDLE_CHART.items;
      this.token = undefined;
      this.typeTerms = this.literalTerms = IDLE_CHART.colState;
      // an input with a huge column (massive ambiguity) should not keep its scratch forever
      if (this.same.length > 1 << 16) this.same = new Int32Array(256);
    }
  }

  private recognize(tokens: readonly T[]): void {
    const { g, c } = this;
    const n = tokens.length;
    // stamps only ever grow, so the scratch arrays never need clearing, except on wrap-around
    if (g.stamp + n + 2 > 0x3fffffff) {
      g.stamp = 0;
      g.posStamp.fill(0);
      g.testStamp.fill(0);
    }
    const base = g.stamp + 1;
    g.stamp += n + 1;
    this.stamp = base;
    this.classify(tokens);
    this.begin(0);
    const first = transition(g, 0, g.start);
    this.refresh();
    this.column(0, first, 0);
    this.columns(tokens, base);
    // the end of the last column, so that every column j spans colStart[j] to colStart[j + 1]
    c.colStart[n + 1] = c.count;
  }

  /**
   * Looks up the terminals of every token's type and text up front, in a loop of its own: code
   * that reads token objects depends on their maps, and V8 discards it when those maps die (the
   * tokens of string interpolations are short-lived copies), which would otherwise hit the main
   * loop's optimised code.
   */
  private classify(tokens: readonly T[]): void {
    const n = tokens.length;
    const { typeTerm, literalTerm, literalMax } = this.g;
    // small parses (string interpolations, a few tokens each) reuse the same two arrays
    if (n > this.small.length) {
      this.typeTerms = new Int32Array(n);
      this.literalTerms = new Int32Array(n);
    } else {
      this.typeTerms = this.small;
      this.literalTerms = this.smallLiterals;
    }
    const types = this.typeTerms;
    const literals = this.literalTerms;
    for (let j = 0; j < n; j++) {
      const token = tokens[j];
      types[j] = token.type !== undefined ? (typeTerm.get(token.type) ?? -1) : -1;
      const text = token.text !== undefined ? token.text : token.value;
      literals[j] = typeof text === 'string' && text.length <= literalMax ? (literalTerm.get(text) ?? -1) : -1;
    }
  }

  /**
   * The loop over the tokens, alone in its method: V8 compiles a long loop on the stack (OSR)
   * and reuses that code when a small parse enters the loop again; code after the loop would
   * then have no type feedback and fall back to the interpreter at every small parse.
   */
  private columns(tokens: readonly T[], base: number): void {
    const c = this.c;
    for (let j = 0; j < tokens.length; j++) {
      this.stamp = base + j + 1;
      const dynamic = this.scan(j, tokens[j]);
      if (c.count === c.colStart[j + 1]) {
        c.items = this.items;
        throw new EarleySyntaxError(j, tokens[j], expectedAt(this.g, c, j));
      }
      this.column(j + 1, this.planState, dynamic);
    }
  }

  private begin(j: number): void {
    const c = this.c;
    c.colStart[j] = this.columnBase = c.count;
    c.colWaitStart[j] = c.waitCount;
  }

  /** New states may have made bundles, and grown the scratch arrays for them. */
  private refresh(): void {
    this.posStamp = this.g.posStamp;
    this.posHead = this.g.posHead;
  }

  /**
   * Adds item (pos, origin) to the column being built, or, when the column has it already,
   * records the new back-pointer pair as another derivation of it.
   */
  private add(pos: number, origin: number, left: number, child: number): void {
    const k = this.c.count;
    let items = this.items;
    const at = k - this.columnBase;
    if (this.posStamp[pos] === this.stamp) {
      for (let x = this.posHead[pos]; x >= 0; x = this.same[x - this.columnBase]) {
        if (items[x * ITEM + ORIGIN] === origin) {
          this.link(x, left, child);
          return;
        }
      }
      if (at === this.same.length) this.same = growTo(this.same, at + 1);
      this.same[at] = this.posHead[pos];
    } else {
      this.posStamp[pos] = this.stamp;
      if (at === this.same.length) this.same = growTo(this.same, at + 1);
      this.same[at] = -1;
    }
    this.posHead[pos] = k;
    if (k * ITEM === items.length) this.items = items = growTo(items, items.length + ITEM);
    const i = k * ITEM;
    items[i + POS] = pos;
    items[i + ORIGIN] = origin;
    items[i + LEFT] = left;
    items[i + CHILD] = child;
    this.c.count = k + 1;
  }

  /** Another derivation of item x: its back-pointers move to the link table on the first. */
  private link(x: number, left: number, child: number): void {
    const { c, items } = this;
    const i = x * ITEM;
    let head = -2 - items[i + LEFT];
    if (head < 0) {
      head = c.linkLeft.length;
      c.linkLeft.push(items[i + LEFT]);
      c.linkChild.push(items[i + CHILD]);
      c.linkNext.push(NO_LINK);
      items[i + LEFT] = -2 - head;
    }
    c.linkLeft.push(left);
    c.linkChild.push(child);
    c.linkNext.push(c.linkNext[head]);
    c.linkNext[head] = c.linkLeft.length - 1;
  }

  /**
   * Runs the completer and predictor over the items of column j from `first` on (the ones before
   * came from a plan, which did their part), then fixes the column's PredState.
   */
  private column(j: number, initialState: number, first: number): void {
    const { c, g, posNext, posRule, ruleLhs, nullable, ntCount, posCount } = this;
    const states = g.states;
    let state = initialState;
    for (let k = first; k < c.count; k++) {
      const pos = this.items[k * ITEM + POS];
      if (pos >= posCount) continue; // a bundle only scans
      const s = posNext[pos];
      if (s < 0) {
        // complete, with origin < j: advance what waited on its nonterminal at the origin
        const origin = this.items[k * ITEM + ORIGIN];
        const a = ruleLhs[posRule[pos]];
        for (let w = c.colWaitStart[origin], end = c.colWaitEnd[origin]; w < end; w++) {
          if (c.waitSym[w] === a) {
            const x = c.waitItem[w] * ITEM;
            this.add(this.items[x + POS] + 1, this.items[x + ORIGIN], c.waitItem[w], k);
          }
        }
        const st = states[c.colState[origin]];
        const fresh = st.waitItems[a];
        if (fresh !== undefined) for (let i = 0; i < fresh.length; i++) this.add(fresh[i], origin, FRESH, k);
        const b = st.waitBundle[a];
        if (b >= 0) this.add(b, origin, FRESH, k);
      } else if (s < ntCount) {
        if (c.waitCount === c.waitSym.length) c.growWaits();
        c.waitSym[c.waitCount] = s;
        c.waitItem[c.waitCount] = k;
        c.waitCount++;
        const next = states[state].next[s];
        if (next >= 0) state = next;
        else {
          state = transition(g, state, s);
          this.refresh();
        }
        if (nullable[s]) this.add(pos + 1, this.items[k * ITEM + ORIGIN], k, emptyChild(j));
      }
    }
    c.colWaitEnd[j] = c.waitCount;
    c.colState[j] = state;
  }

  private matches(t: number): boolean {
    if (t === this.typeTerm || t === this.literalTerm) return true;
    const test = this.g.termTest[t];
    if (test === undefined) return false;
    const g = this.g;
    if (g.testStamp[t] !== this.stamp) {
      g.testStamp[t] = this.stamp;
      g.testResult[t] = test(this.token as T) ? 1 : 0;
    }
    return g.testResult[t] === 1;
  }

  /**
   * Scans token j from column j into column j + 1: the items spanning just this token from the
   * column's plan, then the kernel items. Returns the first item the completer still has to see.
   */
  private scan(j: number, token: T): number {
    const { c, g, posNext, ntCount, posCount } = this;
    this.token = token;
    this.typeTerm = this.typeTerms[j];
    this.literalTerm = this.literalTerms[j];
    this.begin(j + 1);
    this.planState = 0;
    const from = c.colState[j];
    const st = g.states[from];
    // the terminals this token is scanned as by fresh items; one is the rule, and has a plan
    let only = -1;
    let several = false;
    const scanItems = st.scanItems;
    const scanBundle = st.scanBundle;
    const tests = st.scanTests;
    for (let i = -2; i < tests.length; i++) {
      const t = i === -2 ? this.typeTerm : i === -1 ? this.literalTerm : this.matches(tests[i]) ? tests[i] : -1;
      if (t < 0 || (scanItems[t] === undefined && scanBundle[t] < 0)) continue;
      if (only >= 0) several = true;
      else only = t;
    }
    let dynamic = c.count;
    if (several) {
      // plans of several terminals could meet on an item; the general way merges them
      if (this.typeTerm >= 0) this.scanFresh(st, this.typeTerm, j);
      if (this.literalTerm >= 0) this.scanFresh(st, this.literalTerm, j);
      for (let i = 0; i < tests.length; i++) if (this.matches(tests[i])) this.scanFresh(st, tests[i], j);
    } else if (only >= 0) {
      const plan = planFor(g, from, only);
      this.refresh();
      if (plan !== null) dynamic = this.runPlan(plan, j);
    }
    for (let k = c.colStart[j], end = c.colStart[j + 1]; k < end; k++) {
      const pos = this.items[k * ITEM + POS];
      if (pos >= posCount) {
        this.scanBundle(g.bundles[pos - posCount], this.items[k * ITEM + ORIGIN], k, tokenChild(j));
        continue;
      }
      const s = posNext[pos];
      if (s >= ntCount && this.matches(s - ntCount)) this.add(pos + 1, this.items[k * ITEM + ORIGIN], k, tokenChild(j));
    }
    return dynamic;
  }

  /** Writes a plan's items into the column being built, with origin j; returns the first after them. */
  private runPlan(plan: Plan, j: number): number {
    const c = this.c;
    const base = c.count;
    const end = base + plan.size;
    let items = this.items;
    if (end * ITEM >= items.length) this.items = items = growTo(items, (end + 1) * ITEM);
    const template = plan.template;
    const token = tokenChild(j);
    const empty = emptyChild(j + 1);
    for (let t = 0, i = base * ITEM; t < template.length; t += 3, i += ITEM) {
      items[i + POS] = template[t];
      items[i + ORIGIN] = j;
      const left = template[t + 1];
      items[i + LEFT] = left < 0 ? left : left + base;
      const child = template[t + 2];
      items[i + CHILD] = child >= 0 ? child + base : child === PLAN_TOKEN ? token : empty;
    }
    c.count = end;
    const extra = plan.extra;
    for (let x = 0; x < extra.length; x += 3) {
      const left = extra[x + 1];
      const child = extra[x + 2];
      this.link(base + extra[x], left < 0 ? left : left + base, child >= 0 ? child + base : child === PLAN_TOKEN ? token : empty);
    }
    const waits = plan.waits;
    for (let w = 0; w < waits.length; w += 2) {
      if (c.waitCount === c.waitSym.length) c.growWaits();
      c.waitSym[c.waitCount] = waits[w + 1];
      c.waitItem[c.waitCount] = base + waits[w];
      c.waitCount++;
    }
    this.planState = plan.state;
    // what kernel items of the origin column waited on: the one part a plan cannot know
    const completes = plan.completes;
    const waitStart = c.colWaitStart[j];
    const waitEnd = c.colWaitEnd[j];
    if (waitStart < waitEnd) {
      for (let x = 0; x < completes.length; x += 2) {
        const a = completes[x + 1];
        for (let w = waitStart; w < waitEnd; w++) {
          if (c.waitSym[w] === a) {
            const waiter = c.waitItem[w] * ITEM;
            this.add(this.items[waiter + POS] + 1, this.items[waiter + ORIGIN], c.waitItem[w], base + completes[x]);
          }
        }
      }
    }
    return end;
  }

  private scanFresh(st: PredState, t: number, j: number): void {
    const items = st.scanItems[t];
    const token = tokenChild(j);
    if (items !== undefined) for (let i = 0; i < items.length; i++) this.add(items[i], j, FRESH, token);
    const b = st.scanBundle[t];
    if (b >= 0) this.add(b, j, FRESH, token);
  }

  private scanBundle(b: Bundle, origin: number, k: number, token: number): void {
    const scanOn = b.scanOn;
    if (this.typeTerm >= 0) {
      const ps = scanOn[this.typeTerm];
      if (ps !== undefined) for (let i = 0; i < ps.length; i++) this.add(ps[i], origin, k, token);
    }
    if (this.literalTerm >= 0) {
      const ps = scanOn[this.literalTerm];
      if (ps !== undefined) for (let i = 0; i < ps.length; i++) this.add(ps[i], origin, k, token);
    }
    const tests = b.tests;
    for (let i = 0; i < tests.length; i++) {
      if (!this.matches(tests[i])) continue;
      const ps = scanOn[tests[i]] as Int32Array;
      for (let p = 0; p < ps.length; p++) this.add(ps[p], origin, k, token);
    }
  }
}

function expectedAt<T extends EarleyToken>(g: Prepared<T>, c: Chart, j: number): TerminalSymbol<T>[] {
  const seen = new Set<number>();
  for (let k = c.colStart[j], end = c.colStart[j + 1]; k < end; k++) {
    const pos = c.items[k * ITEM + POS];
    if (pos >= g.posCount) for (const t of g.bundles[pos - g.posCount].terms) seen.add(t);
    else if (g.posNext[pos] >= g.ntCount) seen.add(g.posNext[pos] - g.ntCount);
  }
  for (const t of g.states[c.colState[j]].scanTerms) seen.add(t);
  return [...seen].sort((a, b) => a - b).map((t) => g.terminals[t]);
}

// ------------------------------------------------------------------ building the derivation

// frame flags; the build loop sets them from where a value came from and from identity with
// REJECT, never by inspecting the value: a type check on values (AST nodes of every shape) would
// tie the loop's optimised code to their maps, and V8 throws such code away when they die
const SPECIAL = 1; // a child value may be REJECT or Alternatives
const SHARED = 2; // a child value may be referenced elsewhere, so it must not be appended to

function collapse(values: unknown[]): unknown {
  if (values.length === 0) return REJECT;
  if (values.length === 1) return values[0];
  return new Alternatives(values.slice(0, MAX_ALTERNATIVES));
}

class Builder<T extends EarleyToken> {
  private c: Chart = IDLE_CHART;
  private tokens: readonly T[] = [];
  /** Results of items reached through an ambiguous node, shared by every use. */
  private memo: Map<number, unknown> | undefined;
  private emptyBusy: Set<number> | undefined;
  private readonly posRule: Int32Array;
  private readonly posDot: Int32Array;
  private readonly posPrev: Int32Array;
  private readonly ruleSyms: Int32Array[];
  private readonly rulePost: (Postprocessor | undefined)[];
  private readonly ruleKind: Uint8Array;

  constructor(private readonly g: Prepared<T>) {
    this.posRule = g.posRule;
    this.posDot = g.posDot;
    this.posPrev = g.posPrev;
    this.ruleSyms = g.ruleSyms;
    this.rulePost = g.rulePost;
    this.ruleKind = g.ruleKind;
  }

  /** Starts building from a recognised chart. */
  open(c: Chart, tokens: readonly T[]): void {
    this.c = c;
    this.tokens = tokens;
  }

  /** Lets go of the chart, the tokens and every value. */
  close(): void {
    this.c = IDLE_CHART;
    this.tokens = [];
    this.memo = undefined;
    this.emptyBusy = undefined;
  }

  /** Runs a postprocessor over every combination of alternatives in `data`. */
  private expand(rule: number, data: unknown[], reference: number): unknown {
    const post = this.rulePost[rule];
    const out: unknown[] = [];
    const d: unknown[] = new Array<unknown>(data.length);
    const walk = (i: number): void => {
      if (out.length >= MAX_ALTERNATIVES) return;
      if (i === data.length) {
        const copy = d.slice();
        const v = post ? post(copy, reference, REJECT) : copy;
        if (v !== REJECT) out.push(v);
        return;
      }
      const v = data[i];
      if (v === REJECT) return;
      if (v instanceof Alternatives) {
        for (const alt of v.values) {
          d[i] = alt;
          walk(i + 1);
        }
      } else {
        d[i] = v;
        walk(i + 1);
      }
    };
    walk(0);
    return collapse(out);
  }

  /** The value(s) of an empty derivation of nullable nonterminal a at column `col`. */
  empty(a: number, col: number): unknown {
    const rule = this.g.emptyRule[a];
    if (rule < 0) return this.emptyAll(a, col);
    if (this.ruleKind[rule] === RULE_NULL) return null;
    const syms = this.ruleSyms[rule];
    const data = new Array<unknown>(syms.length);
    for (let i = 0; i < syms.length; i++) {
      const v = this.empty(syms[i], col);
      // a rejected part: the general way sorts it out
      if (v === REJECT) return this.emptyAll(a, col);
      data[i] = v;
    }
    const post = this.rulePost[rule];
    return post ? post(data, col, REJECT) : data;
  }

  /** Every empty derivation of a: several, or one with a rejecting part. Kept out of the hot path. */
  private emptyAll(a: number, col: number): unknown {
    const g = this.g;
    const rules = g.emptyRules[a];
    // a cycle of nullable rules would derive ε in infinitely many ways; only acyclic ones count
    const busy = (this.emptyBusy ??= new Set());
    if (busy.has(a)) return REJECT;
    busy.add(a);
    const out: unknown[] = [];
    for (const r of rules) {
      const data = Array.from(g.ruleSyms[r], (s) => this.emptyAll(s, col));
      const v = this.expand(r, data, col);
      if (v instanceof Alternatives) out.push(...v.values);
      else if (v !== REJECT) out.push(v);
    }
    busy.delete(a);
    return collapse(out);
  }

  /**
   * The value of complete item `root`: bottom-up over an explicit stack, as left-recursive lists
   * are as deep as they are long.
   */
  build(root: number): unknown {
    const { c, tokens, posRule, posDot, posPrev, ruleSyms, rulePost, ruleKind } = this;
    const emptyRule = this.g.emptyRule;
    const items = c.items;
    // three stacks with explicit tops, as truncating an array by its length is a slow call:
    // frames, four numbers each: item, where its children start on `kids`, where its values
    // start on `vals`, flags;
    // kids, the children still to build, two numbers each, first child on top: (item, 0),
    // (-1, token index), or (-2 - nonterminal, column) for an empty derivation;
    // vals, the values built, until their frame takes them
    const frames: number[] = [];
    const kids: number[] = [];
    const vals: unknown[] = [];
    let frameTop = 0;
    let kidTop = 0;
    let valTop = 0;
    let a = root;
    for (;;) {
      // build child item a: unit `first` rules pass their child's value on, so they need no frame
      let pending = true;
      for (;;) {
        const i = a * ITEM;
        const pos = items[i + POS];
        if (ruleKind[posRule[pos]] !== RULE_FIRST || posDot[pos] !== 1 || items[i + LEFT] !== FRESH) break;
        const child = items[i + CHILD];
        if (child >= 0) {
          a = child;
          continue;
        }
        const at = -2 - child;
        if ((at & 1) === 0) {
          vals[valTop++] = tokens[at >> 1];
        } else {
          const v = this.empty(posPrev[pos], at >> 1);
          vals[valTop++] = v;
          if (frameTop > 0 && (v === REJECT || emptyRule[posPrev[pos]] < 0)) frames[frameTop - 1] |= SPECIAL;
        }
        pending = false;
        break;
      }
      if (pending) {
        // walk the back-pointers from the complete item to the rule's start: the children come
        // out last first, which leaves the first on top of the stack
        const kidBase = kidTop;
        let cur = a;
        let pos = items[a * ITEM + POS];
        for (;;) {
          const left = items[cur * ITEM + LEFT];
          if (left < FRESH) break; // derived in several ways
          const child = items[cur * ITEM + CHILD];
          if (child >= 0) {
            kids[kidTop++] = child;
            kids[kidTop++] = 0;
          } else {
            const at = -2 - child;
            kids[kidTop++] = (at & 1) === 0 ? -1 : -2 - posPrev[pos];
            kids[kidTop++] = at >> 1;
          }
          if (left === FRESH) {
            // the symbols before are empty, at the origin
            const syms = ruleSyms[posRule[pos]];
            const origin = items[a * ITEM + ORIGIN];
            for (let i = posDot[pos] - 2; i >= 0; i--) {
              kids[kidTop++] = -2 - syms[i];
              kids[kidTop++] = origin;
            }
            cur = FRESH;
            break;
          }
          // the item advanced from is at the previous dot; a bundle holds it without its position
          cur = left;
          pos--;
        }
        if (cur === FRESH) {
          frames[frameTop++] = a;
          frames[frameTop++] = kidBase;
          frames[frameTop++] = valTop;
          frames[frameTop++] = 0;
        } else {
          kidTop = kidBase;
          const v = this.general(a);
          vals[valTop++] = v;
          if (frameTop > 0) frames[frameTop - 1] |= SHARED | SPECIAL;
        }
      }
      // run the frames whose children are all built, then go down into the next child item
      for (;;) {
        if (frameTop === 0) return vals[0];
        const f = frameTop - 4;
        if (kidTop > frames[f + 1]) {
          const b = kids[--kidTop];
          a = kids[--kidTop];
          if (a >= 0) break;
          if (a === -1) {
            vals[valTop++] = tokens[b];
          } else {
            const v = this.empty(-2 - a, b);
            vals[valTop++] = v;
            if (v === REJECT || emptyRule[-2 - a] < 0) frames[f + 3] |= SPECIAL;
          }
          continue;
        }
        const k = frames[f];
        const base = frames[f + 2];
        const flags = frames[f + 3];
        frameTop = f;
        const rule = posRule[items[k * ITEM + POS]];
        const origin = items[k * ITEM + ORIGIN];
        const kind = ruleKind[rule];
        let v: unknown;
        if (flags & SPECIAL) {
          // what was only possibly special may be plain; expand deals with either
          v = this.expand(rule, vals.slice(base, valTop), origin);
        } else if (kind === RULE_FIRST) {
          v = vals[base];
        } else if (kind === RULE_APPEND && flags === 0 && Array.isArray(vals[base])) {
          // the list so far was built by this very chain and is referenced nowhere else, so
          // appending in place gives the same value as nearleyc's concat without the copying
          v = vals[base];
          (v as unknown[]).push(vals[base + 1]);
        } else if (kind === RULE_WRAP) {
          v = vals.slice(base, valTop);
        } else {
          const data = vals.slice(base, valTop);
          const post = rulePost[rule];
          v = post ? post(data, origin, REJECT) : data;
        }
        valTop = base;
        vals[valTop++] = v;
        // after a special frame the value may be Alternatives; else only a postprocessor's REJECT
        if (frameTop > 0 && ((flags & SPECIAL) !== 0 || v === REJECT)) frames[frameTop - 1] |= SPECIAL;
      }
    }
  }

  /** The value(s) of an item with several derivations: every combination, rejected ones dropped. */
  private general(k: number): unknown {
    const memo = (this.memo ??= new Map());
    if (memo.has(k)) return memo.get(k);
    // a derivation that contains itself is infinite; it is not counted (nearley would not end)
    memo.set(k, REJECT);
    const rule = this.posRule[this.c.items[k * ITEM + POS]];
    const origin = this.c.items[k * ITEM + ORIGIN];
    const out: unknown[] = [];
    for (const seq of this.sequences(k)) {
      const data = seq.map(([a, b]) => (a >= 0 ? this.child(a) : a === -1 ? this.tokens[b] : this.empty(-2 - a, b)));
      const v = this.expand(rule, data, origin);
      if (v instanceof Alternatives) out.push(...v.values);
      else if (v !== REJECT) out.push(v);
      if (out.length >= MAX_ALTERNATIVES) break;
    }
    const v = collapse(out);
    memo.set(k, v);
    return v;
  }

  private child(k: number): unknown {
    const memo = this.memo as Map<number, unknown>;
    if (memo.has(k)) return memo.get(k);
    const v = this.build(k);
    memo.set(k, v);
    return v;
  }

  /** Every sequence of children (descriptor pairs, as in build) by which item k was derived. */
  private sequences(k: number): [number, number][][] {
    const { c, posRule, posDot, posPrev, ruleSyms } = this;
    const items = c.items;
    const origin = items[k * ITEM + ORIGIN];
    const out: [number, number][][] = [];
    const follow = (pos: number, left: number, child: number, suffix: [number, number][]): void => {
      let desc: [number, number];
      if (child >= 0) {
        desc = [child, 0];
      } else {
        const at = -2 - child;
        desc = [(at & 1) === 0 ? -1 : -2 - posPrev[pos], at >> 1];
      }
      if (left === FRESH) {
        const syms = ruleSyms[posRule[pos]];
        const prefix: [number, number][] = [];
        for (let i = 0; i < posDot[pos] - 1; i++) prefix.push([-2 - syms[i], origin]);
        out.push([...prefix, desc, ...suffix]);
      } else {
        walk(left, pos - 1, [desc, ...suffix]);
      }
    };
    const walk = (cur: number, pos: number, suffix: [number, number][]): void => {
      const left = items[cur * ITEM + LEFT];
      if (left >= FRESH) {
        follow(pos, left, items[cur * ITEM + CHILD], suffix);
        return;
      }
      for (let link = -2 - left; link !== NO_LINK && out.length < MAX_ALTERNATIVES; link = c.linkNext[link]) {
        follow(pos, c.linkLeft[link], c.linkChild[link], suffix);
      }
    };
    walk(k, items[k * ITEM + POS], []);
    return out;
  }
}

/**
 * Parses a token array with a nearleyc-compiled grammar and returns every complete parse's
 * postprocessed value; throws EarleySyntaxError when no parse exists.
 */
export function earleyParse<T extends EarleyToken>(grammar: CompiledGrammar<T>, tokens: readonly T[]): EarleyResult {
  const g = prepare(grammar);
  const n = tokens.length;
  // a pooled chart that would have to grow is no saving
  const pooled = g.pool.length > 0 && g.pool[g.pool.length - 1].capacity >= chartCapacity(n) ? g.pool.pop() : undefined;
  const chart = pooled ?? new Chart(n);
  chart.reset(n);
  const builder = g.builders.pop() ?? new Builder(g);
  try {
    (g.recognizer ??= new Recognizer(g)).run(chart, tokens);

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
        const pos = chart.items[k * ITEM + POS];
        if (pos < g.posCount && g.posNext[pos] < 0 && chart.items[k * ITEM + ORIGIN] === 0 && g.ruleLhs[g.posRule[pos]] === g.start) {
          add(builder.build(k));
        }
      }
    }
    if (results.length === 0) throw new EarleySyntaxError<T>(n, undefined, expectedAt(g, chart, n));
    return { results: results.slice(0, MAX_ALTERNATIVES) };
  } finally {
    builder.close();
    g.builders.push(builder);
    if (chart.capacity <= POOLED_ITEMS && g.pool.length < POOL_SIZE) g.pool.push(chart);
  }
}
