/**
 * The recogniser: Earley's scanner, completer and predictor over the prepared grammar, filling a
 * chart with back-pointers and running no postprocessor.
 */
import { Back, Chart, emptyChild, growTo, IDLE_CHART, Item, tokenChild } from './chart.js';
import type { EarleyToken, Prepared } from './grammar.js';
import { type Bundle, type Plan, PlanChild, type PredState, planFor, transition } from './states.js';
import { EarleySyntaxError, expectedAt } from './syntax-error.js';

/** Runs the recogniser over the tokens, filling a chart; throws EarleySyntaxError on a dead end. */
export class Recognizer<T extends EarleyToken> {
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
        if (items[x * Item.SIZE + Item.ORIGIN] === origin) {
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
    if (k * Item.SIZE === items.length) this.items = items = growTo(items, items.length + Item.SIZE);
    const i = k * Item.SIZE;
    items[i + Item.POS] = pos;
    items[i + Item.ORIGIN] = origin;
    items[i + Item.LEFT] = left;
    items[i + Item.CHILD] = child;
    this.c.count = k + 1;
  }

  /** Another derivation of item x: its back-pointers move to the link table on the first. */
  private link(x: number, left: number, child: number): void {
    const { c, items } = this;
    const i = x * Item.SIZE;
    let head = -2 - items[i + Item.LEFT];
    if (head < 0) {
      head = c.linkLeft.length;
      c.linkLeft.push(items[i + Item.LEFT]);
      c.linkChild.push(items[i + Item.CHILD]);
      c.linkNext.push(Back.NO_LINK);
      items[i + Item.LEFT] = -2 - head;
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
      const pos = this.items[k * Item.SIZE + Item.POS];
      if (pos >= posCount) continue; // a bundle only scans
      const s = posNext[pos];
      if (s < 0) {
        // complete, with origin < j: advance what waited on its nonterminal at the origin
        const origin = this.items[k * Item.SIZE + Item.ORIGIN];
        const a = ruleLhs[posRule[pos]];
        for (let w = c.colWaitStart[origin], end = c.colWaitEnd[origin]; w < end; w++) {
          if (c.waitSym[w] === a) {
            const x = c.waitItem[w] * Item.SIZE;
            this.add(this.items[x + Item.POS] + 1, this.items[x + Item.ORIGIN], c.waitItem[w], k);
          }
        }
        const st = states[c.colState[origin]];
        const fresh = st.waitItems[a];
        if (fresh !== undefined) for (let i = 0; i < fresh.length; i++) this.add(fresh[i], origin, Back.FRESH, k);
        const b = st.waitBundle[a];
        if (b >= 0) this.add(b, origin, Back.FRESH, k);
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
        if (nullable[s]) this.add(pos + 1, this.items[k * Item.SIZE + Item.ORIGIN], k, emptyChild(j));
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
      const pos = this.items[k * Item.SIZE + Item.POS];
      if (pos >= posCount) {
        this.scanBundle(g.bundles[pos - posCount], this.items[k * Item.SIZE + Item.ORIGIN], k, tokenChild(j));
        continue;
      }
      const s = posNext[pos];
      if (s >= ntCount && this.matches(s - ntCount))
        this.add(pos + 1, this.items[k * Item.SIZE + Item.ORIGIN], k, tokenChild(j));
    }
    return dynamic;
  }

  /** Writes a plan's items into the column being built, with origin j; returns the first after them. */
  private runPlan(plan: Plan, j: number): number {
    const c = this.c;
    const base = c.count;
    const end = base + plan.size;
    let items = this.items;
    if (end * Item.SIZE >= items.length) this.items = items = growTo(items, (end + 1) * Item.SIZE);
    const template = plan.template;
    const token = tokenChild(j);
    const empty = emptyChild(j + 1);
    for (let t = 0, i = base * Item.SIZE; t < template.length; t += 3, i += Item.SIZE) {
      items[i + Item.POS] = template[t];
      items[i + Item.ORIGIN] = j;
      const left = template[t + 1];
      items[i + Item.LEFT] = left < 0 ? left : left + base;
      const child = template[t + 2];
      items[i + Item.CHILD] = child >= 0 ? child + base : child === PlanChild.TOKEN ? token : empty;
    }
    c.count = end;
    const extra = plan.extra;
    for (let x = 0; x < extra.length; x += 3) {
      const left = extra[x + 1];
      const child = extra[x + 2];
      this.link(
        base + extra[x],
        left < 0 ? left : left + base,
        child >= 0 ? child + base : child === PlanChild.TOKEN ? token : empty,
      );
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
            const waiter = c.waitItem[w] * Item.SIZE;
            this.add(
              this.items[waiter + Item.POS] + 1,
              this.items[waiter + Item.ORIGIN],
              c.waitItem[w],
              base + completes[x],
            );
          }
        }
      }
    }
    return end;
  }

  private scanFresh(st: PredState, t: number, j: number): void {
    const items = st.scanItems[t];
    const token = tokenChild(j);
    if (items !== undefined) for (let i = 0; i < items.length; i++) this.add(items[i], j, Back.FRESH, token);
    const b = st.scanBundle[t];
    if (b >= 0) this.add(b, j, Back.FRESH, token);
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
