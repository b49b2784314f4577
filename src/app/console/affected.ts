/**
 * Which stacks a batch of changed files concerns: those that read one of the files, or one of
 * whose folders gained or lost a file. A stack whose inputs are not known yet (never compiled)
 * is always concerned. Pure.
 */
import path from 'node:path';
import type { StackInputs } from '../../konfig/stack-inputs.js';
import { PROJECT_FILE, STACK_FILE } from '../../konfig/workspace.js';

export interface Affected {
  /** Keys of the stacks to recompile, in the order given. */
  stacks: string[];
  /** A stack or project file changed: the list of stacks may have changed. */
  layout: boolean;
}

export function affectedStacks(
  changed: readonly string[],
  inputs: ReadonlyMap<string, StackInputs | undefined>,
): Affected {
  const layout = changed.some((f) => path.basename(f) === STACK_FILE || path.basename(f) === PROJECT_FILE);
  const stacks: string[] = [];
  for (const [key, known] of inputs) {
    if (!known) {
      stacks.push(key);
      continue;
    }
    const files = new Set(known.files);
    const folders = new Set(known.folders);
    if (changed.some((f) => files.has(f) || folders.has(path.dirname(f)))) stacks.push(key);
  }
  return { stacks, layout };
}
