/**
 * One line for a stack that failed in a compatibility run: a compiler diagnostic with its place,
 * or anything else as the kdeck bug it is.
 */
import { KclError } from '../src/diagnostics/diagnostics.js';

/** The first line of what went wrong, with the place for a compiler diagnostic. */
export function failureLine(e: unknown): string {
  if (e instanceof KclError) {
    const { kind, message, position } = e.diagnostic;
    const where = position ? ` (${position.file}:${position.line}:${position.column})` : '';
    return `${kind}: ${message.split('\n')[0]}${where}`;
  }
  // anything else is a kdeck bug; it fails this stack and the run goes on
  return `internal error: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
}
