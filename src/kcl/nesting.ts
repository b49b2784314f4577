/**
 * A limit on how deeply a file's syntax may nest. The phases after the parser (resolver,
 * evaluator, config merge, YAML output) walk the tree recursively, and JavaScript's stack is
 * small: 4,000 nested parentheses or 5,000 nested dicts would overflow it. kcl has no such limit
 * (Rust's larger stack lets it go further), so the wording is kdeck's own, in the spirit of
 * Python's "too many nested parentheses": one diagnostic at the node that goes past the limit.
 *
 * A chain of binary operators (`1 + 1 + … + 1`) is flat in the source though its tree is deep
 * on the left: its left spine does not count, and the resolver and evaluator walk such a chain
 * in a loop.
 */
import type * as A from './ast.js';
import { kclError, type KclError } from '../diagnostics/diagnostics.js';
import { CLOSERS, OPENERS, type Token } from './lexer.js';

/** Deep enough for any hand-written configuration, shallow enough that every recursive phase
 * has stack to spare (evaluation of 1,000 nested dicts already overflows it). */
export const MAX_NESTING = 400;

interface Located {
  type: string;
  line?: number;
  column?: number;
}

const isNode = (x: object): x is Located => typeof (x as { type?: unknown }).type === 'string';

function tooDeep(file: string, line: number, column: number): KclError {
  return kclError(
    'InvalidSyntax',
    `this is nested more than ${MAX_NESTING} levels deep (brackets, operators, conditions or blocks), which kdeck does not support; split it into named parts`,
    { file, line, column },
  );
}

/**
 * The same limit seen in the tokens, before parsing: open brackets, and `x if c else y` chains
 * (each `else` nests the rest). The parser's work on a right-nested chain grows with the square
 * of its length (5,000 chained `else`s take a minute), so such input is refused before it is
 * parsed. Every level counted here is a level of the tree too, so nothing the tree check would
 * accept is refused.
 */
export function tokenNestingProblem(tokens: readonly Token[], file: string): KclError | undefined {
  // `else`s since the last separator, per open bracket
  const elses: number[] = [0];
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === 'op' && OPENERS.has(t.text)) {
      elses.push(0);
      depth++;
    } else if (t.type === 'op' && CLOSERS.has(t.text)) {
      if (elses.length > 1) depth -= 1 + elses.pop()!;
    } else if (t.type === 'NEWLINE' || t.text === ',' || t.text === ':') {
      depth -= elses[elses.length - 1];
      elses[elses.length - 1] = 0;
    } else if (t.type === 'keyword' && t.text === 'else' && tokens[i + 1]?.text !== ':') {
      elses[elses.length - 1]++;
      depth++;
    }
    if (depth > MAX_NESTING) return tooDeep(file, t.line, t.col);
  }
  return undefined;
}

/**
 * What bounds the depth of a statement's tree, read from its tokens: every node on a path down
 * the tree consumes a token that the node below it does not (a character, inside a string with
 * `${...}` parts, whose expressions are parsed from it), except an expression statement, which
 * spans exactly its expression and is never directly inside another. So a statement whose tokens
 * weigh W is at most 2W + 1 nodes deep.
 */
const tokenWeight = (t: Token): number => (t.type === 'string' && t.text.includes('${') ? t.text.length : 1);

/** Kept between calls: a typed array made per run of tokens cost more than filling it. */
let weightBuffer = new Float64Array(1024);

/** The sums of the tokens' weights before each index; valid until the next call. */
function prefixWeights(tokens: readonly Token[]): Float64Array {
  if (weightBuffer.length <= tokens.length) weightBuffer = new Float64Array(2 * tokens.length + 2);
  const weights = weightBuffer;
  weights[0] = 0;
  for (let i = 0; i < tokens.length; i++) weights[i + 1] = weights[i] + tokenWeight(tokens[i]);
  return weights;
}

/** The index of the first token at or after line:column. */
function tokenAt(tokens: readonly Token[], line: number, column: number): number {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const t = tokens[mid];
    if (t.line < line || (t.line === line && t.col < column)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The problem with the first node (in walking order) nested deeper than MAX_NESTING. Only
 * statements whose tokens could hold such a node are walked, which in nearly every file is none.
 * A statement's span lies within its own tokens, so its tokens are among those from where the
 * statement before it ends to where the one after it starts.
 */
export function nestingProblem(module: A.Module, tokens: readonly Token[]): KclError | undefined {
  const body = module.body;
  const weights = prefixWeights(tokens);
  let from = 0;
  for (let i = 0; i < body.length; i++) {
    const to = i + 1 < body.length ? tokenAt(tokens, body[i + 1].line, body[i + 1].column) : tokens.length;
    if (2 * (weights[to] - weights[from]) + 1 > MAX_NESTING) {
      const problem = deepNode(module.file, body[i]);
      if (problem) return problem;
    }
    from = tokenAt(tokens, body[i].endLine, body[i].endColumn);
  }
  return undefined;
}

/** The problem with the first node under `root` (a statement, at depth 1) nested too deep. */
function deepNode(file: string, root: A.Stmt): KclError | undefined {
  // an explicit stack, so that measuring the depth cannot overflow the one it protects
  const objects: object[] = [root];
  const depths: number[] = [0];
  while (objects.length > 0) {
    const node = objects.pop()!;
    let depth = depths.pop()!;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) push(node[i], depth);
      continue;
    }
    if (isNode(node)) {
      depth++;
      if (depth > MAX_NESTING) return tooDeep(file, node.line ?? 1, node.column ?? 1);
    }
    const record = node as Record<string, unknown>;
    for (const key in record) {
      const child = record[key];
      if (child === null || typeof child !== 'object') continue;
      // the left operand of `a + b` is the same chain when it is itself a binary operation
      const sameChain =
        key === 'left' && isNode(node) && node.type === 'Binary' && (child as Located).type === 'Binary';
      push(child, sameChain ? depth - 1 : depth);
    }
  }
  return undefined;

  function push(child: unknown, depth: number): void {
    if (child !== null && typeof child === 'object') {
      objects.push(child);
      depths.push(depth);
    }
  }
}

/**
 * The left spine of a chain of binary operations, `((a + b) * c) - d`: the innermost left
 * operand (`a`) and the operations from the innermost out, so that a phase can walk it in a loop.
 */
export function binaryChain(e: A.BinaryExpr): { first: A.Expr; links: A.BinaryExpr[] } {
  const links: A.BinaryExpr[] = [];
  let cur: A.Expr = e;
  while (cur.type === 'Binary') {
    links.push(cur);
    cur = cur.left;
  }
  links.reverse();
  return { first: cur, links };
}
