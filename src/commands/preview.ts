/**
 * `kdeck preview`: what an apply would change, like `kusion preview`.
 */
import { Command, Option } from 'commander';
import { describeHolder } from '../state/backend.js';
import { planChanges } from '../workflows/plan.js';
import { changeDetails, changeJson, changeSummary, changeTable } from './change-output.js';
import { globalFlags, ignoreList, openStack, withStackOptions, type StackFlags } from './stack-session.js';

interface PreviewFlags extends StackFlags {
  detail?: boolean;
  output?: 'text' | 'json';
  showSecrets?: boolean;
}

export function previewCommand(): Command {
  const cmd = new Command('preview')
    .description('show what an apply of the stack would change: create, update, delete or unchanged, per resource and cluster')
    .option('-d, --detail', 'show the field-level diff of every change')
    .option('--ignore-fields <paths>', 'dotted paths left out of the comparison, comma-separated (e.g. metadata.annotations)')
    .option('--show-secrets', 'show Secret values in diffs instead of masking them')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'));
  return withStackOptions(cmd).action(async (flags: PreviewFlags, command: Command) => {
    const { compile, clusters, backend } = openStack(flags, globalFlags(command));
    const compiled = compile();
    const changeSet = await planChanges({ stack: compiled.stack, spec: compiled.spec, clusters, backend, ignoreFields: ignoreList(flags), showSecrets: flags.showSecrets });
    if (flags.output === 'json') {
      process.stdout.write(changeJson(changeSet));
      return;
    }
    process.stdout.write(changeTable(changeSet));
    for (const cluster of changeSet.states.keys()) {
      const holder = await backend.lockHolder({ project: changeSet.project, stack: changeSet.stack, cluster });
      if (holder) process.stdout.write(`Note: ${cluster} is locked by ${describeHolder(holder)}; an apply now would wait for it.\n`);
    }
    process.stdout.write(changeSummary(changeSet));
    if (flags.detail) {
      const details = changeDetails(changeSet);
      if (details) process.stdout.write(`\n${details}`);
    }
  });
}
