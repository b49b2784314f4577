/**
 * What is worked out once per grammar, lazily, as parses need it: the fresh items of a column per
 * set of predicted nonterminals (PredState), the bundles of fresh items that only scan, and the
 * plans of the items that span exactly one token.
 */
import { Back, growTo } from './chart.js';
import type { EarleyToken, Prepared } from './grammar.js';

/** A child in a plan's template, which does not know its columns: the scanned token, an empty derivation. */
export const enum PlanChild {
  TOKEN = -1,
  EMPTY = -2,
}

/** Fresh items advanced over the same symbol that all wait on a terminal: scanned, never completed. */
export interface Bundle {
  /** Per terminal: the positions advanced over it. */
  readonly scanOn: (Int32Array | undefined)[];
  /** The terminals that have an entry in scanOn, and those among them that are token tests. */
  readonly terms: Int32Array;
  readonly tests: Int32Array;
}

/** The fresh items of a column for one set of predicted nonterminals, grouped for their uses. */
export interface PredState {
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
export interface Plan {
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

/** The memoised state for the closure of `seed`, which this extends in place. */
export function predState<T extends EarleyToken>(g: Prepared<T>, seed: Uint8Array): number {
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
export function planFor<T extends EarleyToken>(g: Prepared<T>, from: number, t: number): Plan | null {
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
  if (scanned !== undefined) for (const q of scanned) add(q, Back.FRESH, PlanChild.TOKEN);
  if (st.scanBundle[t] >= 0) add(st.scanBundle[t], Back.FRESH, PlanChild.TOKEN);
  let state = 0;
  for (let e = 0; e < template.length / 3; e++) {
    const pos = template[e * 3];
    if (pos >= posCount) continue;
    const s = posNext[pos];
    if (s < 0) {
      const a = ruleLhs[posRule[pos]];
      completes.push(e, a);
      const fresh = st.waitItems[a];
      if (fresh !== undefined) for (const q of fresh) add(q, Back.FRESH, e);
      if (st.waitBundle[a] >= 0) add(st.waitBundle[a], Back.FRESH, e);
    } else if (s < ntCount) {
      waits.push(e, s);
      state = transition(g, state, s);
      if (nullable[s]) add(pos + 1, e, PlanChild.EMPTY);
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
export function transition<T extends EarleyToken>(g: Prepared<T>, from: number, a: number): number {
  const state = g.states[from];
  const known = state.next[a];
  if (known >= 0) return known;
  const to = state.predicted[a]
    ? from
    : predState(
        g,
        Uint8Array.from(state.predicted, (v, i) => (i === a ? 1 : v)),
      );
  state.next[a] = to;
  return to;
}
