/**
 * Building the derivation after recognition: the back-pointers of the complete start item are
 * followed bottom-up and the postprocessors run on what survives, so dead branches never pay for
 * theirs.
 */
import { Back, type Chart, IDLE_CHART, Item } from './chart.js';
import { type EarleyToken, type Postprocessor, type Prepared, RuleKind } from './grammar.js';

/**
 * The most values kept for one ambiguous node. Ambiguity can grow exponentially with the input;
 * past this bound the count is only a lower bound, which still tells 1 from more.
 */
export const MAX_ALTERNATIVES = 64;

/** The sentinel postprocessors return to reject a derivation; nearley passes its own `Parser.fail`. */
export const REJECT: object = Object.freeze({});

/** The values of a node derived in several ways that survived `reject`; always at least two. */
export class Alternatives {
  constructor(readonly values: unknown[]) {}
}

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

/** Builds values from a recognised chart; one per parse in progress, reused between parses. */
export class Builder<T extends EarleyToken> {
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
    if (this.ruleKind[rule] === RuleKind.NULL) return null;
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
        const i = a * Item.SIZE;
        const pos = items[i + Item.POS];
        if (ruleKind[posRule[pos]] !== RuleKind.FIRST || posDot[pos] !== 1 || items[i + Item.LEFT] !== Back.FRESH)
          break;
        const child = items[i + Item.CHILD];
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
        let pos = items[a * Item.SIZE + Item.POS];
        for (;;) {
          const left = items[cur * Item.SIZE + Item.LEFT];
          if (left < Back.FRESH) break; // derived in several ways
          const child = items[cur * Item.SIZE + Item.CHILD];
          if (child >= 0) {
            kids[kidTop++] = child;
            kids[kidTop++] = 0;
          } else {
            const at = -2 - child;
            kids[kidTop++] = (at & 1) === 0 ? -1 : -2 - posPrev[pos];
            kids[kidTop++] = at >> 1;
          }
          if (left === Back.FRESH) {
            // the symbols before are empty, at the origin
            const syms = ruleSyms[posRule[pos]];
            const origin = items[a * Item.SIZE + Item.ORIGIN];
            for (let i = posDot[pos] - 2; i >= 0; i--) {
              kids[kidTop++] = -2 - syms[i];
              kids[kidTop++] = origin;
            }
            cur = Back.FRESH;
            break;
          }
          // the item advanced from is at the previous dot; a bundle holds it without its position
          cur = left;
          pos--;
        }
        if (cur === Back.FRESH) {
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
        const rule = posRule[items[k * Item.SIZE + Item.POS]];
        const origin = items[k * Item.SIZE + Item.ORIGIN];
        const kind = ruleKind[rule];
        let v: unknown;
        if (flags & SPECIAL) {
          // what was only possibly special may be plain; expand deals with either
          v = this.expand(rule, vals.slice(base, valTop), origin);
        } else if (kind === RuleKind.FIRST) {
          v = vals[base];
        } else if (kind === RuleKind.APPEND && flags === 0 && Array.isArray(vals[base])) {
          // the list so far was built by this very chain and is referenced nowhere else, so
          // appending in place gives the same value as nearleyc's concat without the copying
          v = vals[base];
          (v as unknown[]).push(vals[base + 1]);
        } else if (kind === RuleKind.WRAP) {
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
    const rule = this.posRule[this.c.items[k * Item.SIZE + Item.POS]];
    const origin = this.c.items[k * Item.SIZE + Item.ORIGIN];
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
    const origin = items[k * Item.SIZE + Item.ORIGIN];
    const out: [number, number][][] = [];
    const follow = (pos: number, left: number, child: number, suffix: [number, number][]): void => {
      let desc: [number, number];
      if (child >= 0) {
        desc = [child, 0];
      } else {
        const at = -2 - child;
        desc = [(at & 1) === 0 ? -1 : -2 - posPrev[pos], at >> 1];
      }
      if (left === Back.FRESH) {
        const syms = ruleSyms[posRule[pos]];
        const prefix: [number, number][] = [];
        for (let i = 0; i < posDot[pos] - 1; i++) prefix.push([-2 - syms[i], origin]);
        out.push([...prefix, desc, ...suffix]);
      } else {
        walk(left, pos - 1, [desc, ...suffix]);
      }
    };
    const walk = (cur: number, pos: number, suffix: [number, number][]): void => {
      const left = items[cur * Item.SIZE + Item.LEFT];
      if (left >= Back.FRESH) {
        follow(pos, left, items[cur * Item.SIZE + Item.CHILD], suffix);
        return;
      }
      for (let link = -2 - left; link !== Back.NO_LINK && out.length < MAX_ALTERNATIVES; link = c.linkNext[link]) {
        follow(pos, c.linkLeft[link], c.linkChild[link], suffix);
      }
    };
    walk(k, items[k * Item.SIZE + Item.POS], []);
    return out;
  }
}
