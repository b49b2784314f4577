/**
 * One stack compiled for the console: the Spec or the failure as text, how long it took, and
 * the files it read (for watch mode). Runs in the compile worker; tests call it directly.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { KclError, renderDiagnostic } from '../../diagnostics/diagnostics.js';
import { compileStack, type CompileOptions } from '../../konfig/compile.js';
import { stackInputs, type StackInputs } from '../../konfig/stack-inputs.js';
import { findWorkspaceRoot, loadStack } from '../../konfig/workspace.js';
import { UserError, errorMessage } from '../../diagnostics/user-error.js';
import type { CompileFailure, CompileOutcome, CompileSettings } from './compile-protocol.js';

/** `main.k` for a file of the stack, `base/pkg/x.k` for one elsewhere in the workspace. */
function shortPath(file: string, stackDir: string): string {
  const inStack = path.relative(stackDir, file);
  if (!inStack.startsWith('..') && !path.isAbsolute(inStack)) return inStack;
  try {
    return path.relative(findWorkspaceRoot(stackDir), file);
  } catch {
    return file;
  }
}

const readSource = (file: string) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

export function failureOf(e: unknown, stackDir: string): CompileFailure {
  if (e instanceof KclError) {
    const d = e.diagnostic;
    const where = d.position ? `${shortPath(d.position.file, stackDir)}:${d.position.line}:${d.position.column} ` : '';
    return { summary: `${where}${d.message.split('\n')[0]}`, text: renderDiagnostic(d, readSource) };
  }
  if (e instanceof UserError) return { summary: e.message, text: e.message };
  const message = `internal error while compiling: ${errorMessage(e)} (a bug in kdeck, not in the configuration; please report it)`;
  return { summary: message, text: message };
}

function inputsOf(dir: string): StackInputs {
  try {
    return stackInputs(loadStack(dir).stack);
  } catch {
    // not even the stack file reads: watching its folder notices the fix
    return { files: [], folders: [dir] };
  }
}

/** When the parses go to disk: at the compile's end, or (`writeParsesLater`) when the caller
 * calls writeKeptParses once its answer is out. */
type ParsesWrite = Pick<CompileOptions, 'writeParsesLater'>;

/** The console's compile of a stack, as the commands compile it (parses kept on disk). */
export function compileForConsole(dir: string, settings: CompileSettings, parses: ParsesWrite = {}) {
  return compileStack(dir, { ...parses, keepParses: true, guards: { readOnly: settings.readOnly } });
}

/** A compile's outcome, and whether compiling the stack again only computes (see
 * CompiledStack.repeatable): a failure is not repeated. */
export function compileOutcome(
  dir: string,
  settings: CompileSettings,
  parses: ParsesWrite = {},
): { outcome: CompileOutcome; repeatable: boolean } {
  const start = performance.now();
  try {
    const { stack, spec, repeatable } = compileForConsole(dir, settings, parses);
    const ms = performance.now() - start;
    return { outcome: { ok: true, spec, ms, inputs: stackInputs(stack) }, repeatable };
  } catch (e) {
    const ms = performance.now() - start;
    return { outcome: { ok: false, failure: failureOf(e, dir), ms, inputs: inputsOf(dir) }, repeatable: false };
  }
}
