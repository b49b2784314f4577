/**
 * Limits on one allocation, checked before it is made: `range(10000000000)` or `[0] * 10**12`
 * would otherwise make V8 abort the whole process ("invalid size error") rather than fail the
 * program. kcl has no such limit; these sit far above what any configuration makes.
 */
import v8 from 'node:v8';
import { kclError } from '../../diagnostics/diagnostics.js';

/** Items of one list made at once (10 million small ints are a few hundred MiB in V8). */
export const MAX_LIST_ITEMS = 10_000_000;
/** Characters of one string made at once (V8's own limit is about 512 million). */
export const MAX_STRING_LENGTH = 256 * 1024 * 1024;

/** Below this many items (or characters) an allocation is not worth a look at the heap. */
const LARGE = 65_536;
/** The share of V8's heap limit an allocation may fill, as the evaluator's budget allows. */
const HEAP_SHARE = 0.8;

/** Refuses a list of `count` items made by `what` (`range(...)`, `*`). */
export function checkListSize(count: bigint | number, what: string): void {
  if (BigInt(count) > BigInt(MAX_LIST_ITEMS)) {
    throw kclError(
      'EvaluationError',
      `${what} would make a list of ${count} items, more than the ${MAX_LIST_ITEMS} kdeck allows in one list`,
    );
  }
  // many lists each below the limit (in a comprehension) could still fill the heap between
  // two of the budget's looks at it: a large one looks itself (8 bytes a slot at least)
  if (Number(count) >= LARGE) checkHeap(Number(count) * 8, what);
}

function checkHeap(bytes: number, what: string): void {
  const heap = v8.getHeapStatistics();
  if (heap.used_heap_size + bytes > heap.heap_size_limit * HEAP_SHARE) {
    throw kclError(
      'EvaluationError',
      `${what} would outgrow the memory kdeck has (${Math.round(heap.used_heap_size / 2 ** 20)} MiB in use of ${Math.round(heap.heap_size_limit / 2 ** 20)} MiB)`,
    );
  }
}

/** Refuses a string of `length` characters made by `what`. */
export function checkStringSize(length: bigint | number, what: string): void {
  if (BigInt(length) > BigInt(MAX_STRING_LENGTH)) {
    throw kclError(
      'EvaluationError',
      `${what} would make a string of ${length} characters, more than the ${MAX_STRING_LENGTH} kdeck allows in one string`,
    );
  }
  if (Number(length) >= LARGE) checkHeap(Number(length), what);
}
