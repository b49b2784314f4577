/**
 * `kdeck compile`: a stack's Spec as YAML documents, like `kusion compile`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { compileStack } from '../konfig/compile.js';
import { specToYaml } from '../konfig/spec-yaml.js';
import { UserError } from '../diagnostics/user-error.js';
import { runGuardsFrom } from '../kcl/run-guards.js';
import { compileOptions, globalFlags, withStackOptions, type StackFlags } from './command-flags.js';

interface CompileFlags extends StackFlags {
  output?: string;
  evalTimeout?: string;
}

export function compileCommand(): Command {
  const cmd = new Command('compile')
    .alias('cl')
    .description('compile a stack into its Spec: the resources as YAML documents, sorted by id (like `kusion compile`)')
    .option('-o, --output <file>', 'write the Spec to a file instead of stdout')
    .option('--eval-timeout <duration>', 'stop evaluating the KCL after this long: 500ms, 10s, 2m (off by default)');
  return withStackOptions(cmd).action((flags: CompileFlags, command: Command) => {
    const guards = runGuardsFrom(flags.evalTimeout, '--eval-timeout', globalFlags(command).readOnly);
    const compiled = compileStack(flags.workdir ?? process.cwd(), { ...compileOptions(flags), guards });
    // print() output goes to stderr so that stdout stays a clean Spec for pipes
    if (compiled.printed) process.stderr.write(compiled.printed);
    const yaml = specToYaml(compiled.spec);
    if (!flags.output || flags.output === 'stdout') {
      process.stdout.write(yaml);
      return;
    }
    try {
      fs.mkdirSync(path.dirname(path.resolve(flags.output)), { recursive: true });
      fs.writeFileSync(flags.output, yaml);
    } catch (e) {
      throw new UserError(
        `cannot write the Spec to ${flags.output}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
        1,
      );
    }
  });
}
