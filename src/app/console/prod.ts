/**
 * Which contexts the console treats as production: those the cluster layer calls prod (`prod`
 * or `production` as a word of the context's or its cluster's name), and those that a stack
 * named `prod…` names as its cluster in stack.yaml. The console paints them in the warning
 * colour and asks for a typed confirmation before a dangerous action touches them.
 */
import { isProdContext } from '../../cluster/prod.js';
import type { Stack } from '../../konfig/workspace.js';

export function prodContexts(
  contexts: readonly { name: string; cluster?: string }[],
  stacks: readonly Stack[],
): Set<string> {
  const prod = new Set(contexts.filter(isProdContext).map((c) => c.name));
  for (const s of stacks) if (s.cluster && /^prod/i.test(s.name)) prod.add(s.cluster);
  return prod;
}
