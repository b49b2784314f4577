/**
 * What `kdeck compile` does: compiles the stack and writes its Spec, to stdout or a file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { compileStack } from '../konfig/compile.js';
import { specToYaml } from '../konfig/spec-yaml.js';
import { UserError } from '../diagnostics/user-error.js';
import { runGuardsFrom } from '../kcl/run-guards.js';
import { compileOptions } from './command-flags.js';
import type { CompileFlags } from './compile.js';

export function runCompile(flags: CompileFlags, readOnly: boolean | undefined): void {
  const guards = runGuardsFrom(flags.evalTimeout, '--eval-timeout', readOnly);
  const compiled = compileStack(flags.workdir ?? process.cwd(), { ...compileOptions(flags), guards, keepParses: true });
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
}
