/**
 * Which contexts are production: a context whose name says so (`prod` or `production` as a
 * word of it), or one that a stack named `prod…` names as its cluster in stack.yaml. The
 * console paints them in the warning colour and asks for a typed confirmation before a
 * dangerous action touches them.
 */
import type { Stack } from '../../konfig/workspace.js';

const PROD_WORD = /(^|[^a-z0-9])prod(uction)?([^a-z0-9]|$)/i;

export function prodContexts(contexts: readonly string[], stacks: readonly Stack[]): Set<string> {
  const prod = new Set(contexts.filter((c) => PROD_WORD.test(c)));
  for (const s of stacks) if (s.cluster && /^prod/i.test(s.name)) prod.add(s.cluster);
  return prod;
}
