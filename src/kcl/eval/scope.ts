/**
 * Name scopes. A chain of scopes ends at a module's globals; a schema body adds a scope whose
 * misses are answered by the instance under construction (see SchemaFrame in schema.ts).
 */
import type { Value } from './values.js';

/** Answers lookups of schema attributes, evaluating them on demand. */
export interface AttributeSource {
  lookupAttr(name: string): Value | undefined;
  hasAttr(name: string): boolean;
  /** `set` replaces the attribute's value; `union` (the `|=` operator) merges into it. */
  assignAttr(name: string, value: Value, mode: 'set' | 'union'): void;
}

export class Scope {
  readonly vars = new Map<string, Value>();

  constructor(
    readonly parent: Scope | undefined,
    readonly kind: 'module' | 'lambda' | 'schema' | 'comprehension',
    /** Set on schema scopes. */
    readonly attrs?: AttributeSource,
  ) {}

  lookup(name: string): Value | undefined {
    for (let s: Scope | undefined = this; s; s = s.parent) {
      const v = s.vars.get(name);
      if (v !== undefined) return v;
      if (s.attrs?.hasAttr(name)) return s.attrs.lookupAttr(name);
    }
    return undefined;
  }

  /** The nearest scope of a schema body, if this scope is inside one. */
  schemaScope(): Scope | undefined {
    for (let s: Scope | undefined = this; s; s = s.parent) {
      if (s.kind === 'schema') return s;
      if (s.kind === 'lambda') return undefined;
    }
    return undefined;
  }

  moduleScope(): Scope {
    let s: Scope = this;
    while (s.parent) s = s.parent;
    return s;
  }
}
