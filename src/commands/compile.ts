/**
 * `kdeck compile`: a stack's Spec as YAML documents, like `kusion compile`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { compileStack } from '../konfig/compile.js';
import { specToYaml } from '../konfig/spec-yaml.js';
import { UserError } from '../user-error.js';

interface CompileFlags {
  workdir?: string;
  setting: string[];
  argument: string[];
  overrides: string[];
  output?: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];
/** `-Y a.yaml,b.yaml -Y c.yaml`: kusion takes both lists and repeats. */
const collectList = (value: string, previous: string[]) => [...previous, ...value.split(',').filter(Boolean)];

export function compileCommand(): Command {
  return new Command('compile')
    .alias('cl')
    .description("compile a stack into its Spec: the resources as YAML documents, sorted by id (like `kusion compile`)")
    .option('-w, --workdir <dir>', 'the stack folder (default: the current folder)')
    .option('-Y, --setting <files>', 'settings files, comma-separated or repeated (default: ci-test/settings.yaml if present, then kcl.yaml)', collectList, [])
    .option('-D, --argument <key=value>', 'a top-level argument, read with option("key")', collect, [])
    .option('-O, --overrides <spec>', 'change a value before running: path.to.key=value, or path.to.key-', collect, [])
    .option('-o, --output <file>', 'write the Spec to a file instead of stdout')
    .action((flags: CompileFlags) => {
      const compiled = compileStack(flags.workdir ?? process.cwd(), {
        settings: flags.setting,
        arguments: flags.argument,
        overrides: flags.overrides,
      });
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
        throw new UserError(`cannot write the Spec to ${flags.output}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, 1);
      }
    });
}
