/**
 * The recognised chart: the items that consumed at least one token, four integers each in one
 * typed array, with their back-pointers, and the per-column bookkeeping the recogniser needs.
 */

// The constants of this folder's hot loops are const enums, which tsc writes into the code as
// numbers: V8 folds a module's own constants into optimised code, but not imported bindings, and
// an `items[k * SIZE + POS]` with SIZE loaded from memory is twice as slow.

/**
 * Back-pointer encodings: a left of FRESH means the item advanced from a fresh item of its origin
 * column (everything before the dot derived empty); NO_LINK ends a chain of links. A child is an
 * item index, or a token or an empty derivation encoded with where it is, so that building needs
 * no column bookkeeping (and no reading of other items for it): -2 - 2t for token t, -3 - 2c for
 * an empty one at column c.
 */
export const enum Back {
  FRESH = -1,
  // an item's first link slot doubles as the chain's end: both read as "nothing yet"
  // eslint-disable-next-line @typescript-eslint/no-duplicate-enum-values
  NO_LINK = -1,
}
export const tokenChild = (t: number): number => -2 - 2 * t;
export const emptyChild = (column: number): number => -3 - 2 * column;

/** An item is four consecutive numbers of Chart.items, so that reading one is one cache line. */
export const enum Item {
  /** Its position (rule and dot), or a bundle. */
  POS = 0,
  /** The column it started in. */
  ORIGIN = 1,
  /** The item it advanced from, Back.FRESH, or -2 - link when derived in several ways. */
  LEFT = 2,
  /** What it advanced over: an item, or an encoded token or empty derivation. */
  CHILD = 3,
  SIZE = 4,
}

export function growTo(a: Int32Array, min: number): Int32Array {
  const b = new Int32Array(Math.max(min, a.length * 2));
  b.set(a);
  return b;
}

/** Charts up to this many items go back to the pool after a parse; bigger ones are left to the GC. */
export const POOLED_ITEMS = 1 << 16;
export const POOL_SIZE = 8;

/** Six or seven items a token on the KCL grammar; growing is a copy, so start near it. */
export const chartCapacity = (tokenCount: number): number => 256 + tokenCount * 8;

/** The recognised chart: every token-consuming item with its back-pointers. */
export class Chart {
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
    this.items = new Int32Array(chartCapacity(tokenCount) * Item.SIZE);
    this.waitSym = new Int32Array(64 + tokenCount * 2);
    this.waitItem = new Int32Array(64 + tokenCount * 2);
    this.colStart = new Int32Array(tokenCount + 2);
    this.colWaitStart = new Int32Array(tokenCount + 1);
    this.colWaitEnd = new Int32Array(tokenCount + 1);
    this.colState = new Int32Array(tokenCount + 1);
  }

  get capacity(): number {
    return this.items.length / Item.SIZE;
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
export const IDLE_CHART = new Chart(0);
