/**
 * What `kdeck preview` does: compile the stack, compare it three ways on every cluster it
 * targets, and print kusion's table (with the field diffs under -d) or its JSON.
 */
import type { Command } from 'commander';
import { describeLock } from '../state/backend.js';
import { planChanges } from '../workflows/plan.js';
import { changeDetails, changeJson, changeSummary, changeTable } from '../diff/change-text.js';
import { compileOptions, globalFlags, ignoreList } from './command-flags.js';
import type { PreviewFlags } from './preview.js';
import { openStack, type StackSession } from '../app/workspace.js';

export async function runPreview(flags: PreviewFlags, command: Command): Promise<void> {
  const session = await openStack(flags.workdir, compileOptions(flags), globalFlags(command));
  try {
    await preview(session, flags);
  } finally {
    await session.close();
  }
}

async function preview({ compile, clusters, backend }: StackSession, flags: PreviewFlags): Promise<void> {
  const compiled = compile();
  const changeSet = await planChanges({
    stack: compiled.stack,
    spec: compiled.spec,
    clusters,
    backend,
    ignoreFields: ignoreList(flags),
    showSecrets: flags.showSecrets,
  });
  if (flags.output === 'json') {
    process.stdout.write(changeJson(changeSet));
    return;
  }
  process.stdout.write(changeTable(changeSet));
  for (const cluster of changeSet.states.keys()) {
    const holder = await backend.lockHolder({ project: changeSet.project, stack: changeSet.stack, cluster });
    if (holder)
      process.stdout.write(
        `Note: ${cluster} is locked by ${describeLock(holder)}; an apply now would be refused until it is released.\n`,
      );
  }
  process.stdout.write(changeSummary(changeSet));
  if (flags.detail) {
    const details = changeDetails(changeSet);
    if (details) process.stdout.write(`\n${details}`);
  }
}
