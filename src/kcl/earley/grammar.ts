/**
 * The grammar nearleyc compiles, and the same grammar prepared once for the runtime: symbols and
 * dotted rules ("positions") as integers, the nullable nonterminals and their empty derivations,
 * the terminals a token is looked up by, and the postprocessors recognised by their source.
 */
import { type Bundle, type PredState, predState } from './states.js';

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

/** How a rule's value is made when its postprocessor is one nearleyc or the grammar always uses. */
export const enum RuleKind {
  /** Every other rule: call the postprocessor. */
  CALL = 0,
  /** `(d) => d[0]` or nearleyc's `id`: the value is the first child's. */
  FIRST = 1,
  /** nearleyc's `x$ebnf$n -> x$ebnf$n item` with `d[0].concat([d[1]])`. */
  APPEND = 2,
  /** `(d) => [d[0]]` on a one-symbol rule: the data array is that new array already. */
  WRAP = 3,
  /** nearleyc's `() => null` for an absent `x:?`. */
  NULL = 4,
}

const FIRST_SOURCE = /^(?:function\w*\(d\)\{returnd\[0\];?\}|\(?d\)?=>d\[0\])$/;
const NULL_SOURCE = /^(?:function\w*\(d?\)\{returnnull;?\}|\(d?\)=>null)$/;
const WRAP_SOURCE = /^\(?d\)?=>\[d\[0\]\]$/;
const APPEND_SOURCE =
  /^(?:function\w*\(d\)\{returnd\[0\]\.concat\(\[d\[1\]\]\);?\}|\(?d\)?=>d\[0\]\.concat\(\[d\[1\]\]\))$/;

/** The grammar in integer form, plus scratch arrays recognition reuses from parse to parse. */
export interface Prepared<T extends EarleyToken> {
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
}

/** Prepares a grammar; the caller keeps the result, as this is done once per grammar. */
export function prepare<T extends EarleyToken>(grammar: CompiledGrammar<T>): Prepared<T> {
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
    if (r.symbols.length > 0 && FIRST_SOURCE.test(source)) ruleKind[i] = RuleKind.FIRST;
    else if (r.symbols.length === 1 && WRAP_SOURCE.test(source)) ruleKind[i] = RuleKind.WRAP;
    else if (r.symbols.length === 0 && NULL_SOURCE.test(source)) ruleKind[i] = RuleKind.NULL;
    else if (
      r.symbols.length === 2 &&
      r.symbols[0] === r.name &&
      r.name.includes('$ebnf$') &&
      APPEND_SOURCE.test(source)
    )
      ruleKind[i] = RuleKind.APPEND;
  });
  // appending in place is only safe when the list it starts from is a fresh array, as with
  // nearleyc's base rules (`x$ebnf$n ->` and `x$ebnf$n -> item`, no postprocessor)
  ruleKind.forEach((kind, i) => {
    if (kind === RuleKind.APPEND && rulesOf[ruleLhs[i]].some((r) => r !== i && rulePost[r] !== undefined))
      ruleKind[i] = RuleKind.CALL;
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
  for (let changed = true; changed;) {
    changed = false;
    for (let r = 0; r < ruleCount; r++) {
      if (!nullable[ruleLhs[r]] && ruleSyms[r].every((s) => s < ntCount && nullable[s] === 1)) {
        nullable[ruleLhs[r]] = 1;
        changed = true;
      }
    }
  }
  const emptyRules = rulesOf.map((rules) =>
    rules.filter((r) => ruleSyms[r].every((s) => s < ntCount && nullable[s] === 1)),
  );
  // how many empty derivations each nonterminal has, counting to 2 (a cycle makes infinitely many)
  const emptyCount = new Uint8Array(ntCount);
  for (let changed = true; changed;) {
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
  };
  // state 0: nothing predicted, where every column but the first starts
  predState(g, new Uint8Array(ntCount));
  return g;
}
