/**
 * The written form of a config key: `a`, `"a"`, `a.b.c`, with where each part stands.
 */
import type * as A from '../ast.js';

export interface KeyPart {
  name: string;
  loc: { line: number; column: number };
}

/** The parts of a literal key, or undefined for a computed one (`[expr]`, `"${x}"`). */
export function lookupKeyPath(key: A.Expr | undefined): KeyPart[] | undefined {
  if (!key) return undefined;
  if (key.type === 'Identifier' && key.names.length === 1) return [{ name: key.names[0], loc: key }];
  if (key.type === 'StringLit' && !key.parts) return [{ name: key.value, loc: key }];
  if (key.type === 'Selector' && !key.optional && key.value.type !== 'StringLit') {
    const inner = lookupKeyPath(key.value);
    // the attribute name ends where the selector ends
    const loc = { line: key.endLine, column: key.endColumn - key.attr.length + 1 };
    return inner && [...inner, { name: key.attr, loc }];
  }
  return undefined;
}
