/**
 * `kdeck preview`: what an apply would change, like `kusion preview`. What it does is in
 * preview-run.ts, loaded when it runs.
 */
import { Command, Option } from 'commander';
import { withStackOptions, type StackFlags } from './command-flags.js';

export interface PreviewFlags extends StackFlags {
  detail?: boolean;
  output?: 'text' | 'json';
  showSecrets?: boolean;
}

export function previewCommand(): Command {
  const cmd = new Command('preview')
    .description(
      'show what an apply of the stack would change: create, update, delete or unchanged, per resource and cluster',
    )
    .option('-d, --detail', 'show the field-level diff of every change')
    .option(
      '--ignore-fields <paths>',
      'dotted paths left out of the comparison, comma-separated (e.g. metadata.annotations)',
    )
    .option('--show-secrets', 'show Secret values in diffs instead of masking them')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'));
  return withStackOptions(cmd).action(async (flags: PreviewFlags, command: Command) => {
    const { runPreview } = await import('./preview-run.js');
    await runPreview(flags, command);
  });
}
