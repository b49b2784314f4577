/**
 * Name scopes. A chain of scopes ends at a module's globals. A scope may have a source that is
 * asked first: the module's lazy statements, the instance a schema body builds, or the config
 * under construction (whose earlier keys its later values may read).
 */
import type { Env } from './env.js';
import type { SchemaDef } from './schema-def.js';
import type { CallArgs, DictValue, Value } from './values.js';

export interface NameSource {
  /** The value of `name` if this source binds it, evaluating it on demand; else undefined. */
  lookupName(name: string): Value | undefined;
}

/** The instance under construction in a schema body. */
export interface AttributeSource extends NameSource {
  /** `set` replaces the attribute's value; `union` (the `|=` operator) merges into it. */
  assignAttr(name: string, value: Value, mode: 'set' | 'union'): void;
  /** `name: S {...}` in a schema body: instantiated and united with the attribute's value. */
  unify(name: string, parts: SchemaParts, env: Env): void;
  /** Whether the schema declares or has set the attribute (without evaluating it). */
  hasAttribute(name: string): boolean;
}

export interface SchemaParts {
  def: SchemaDef;
  call: CallArgs;
  config: DictValue;
}

export class Scope {
  readonly vars = new Map<string, Value>();

  constructor(
    readonly parent: Scope | undefined,
    readonly kind: 'module' | 'lambda' | 'schema' | 'comprehension' | 'config',
    readonly source?: NameSource,
  ) {}

  /** Set on schema scopes: where assignments in the body go. */
  get attrs(): AttributeSource | undefined {
    return this.kind === 'schema' ? (this.source as AttributeSource) : undefined;
  }

  /** The nearest binding of `name`; `skipConfigKeys` passes over the keys of configs being built. */
  lookup(name: string, skipConfigKeys = false): Value | undefined {
    for (let s: Scope | undefined = this; s; s = s.parent) {
      if (skipConfigKeys && s.kind === 'config') continue;
      const fromSource = s.source?.lookupName(name);
      if (fromSource !== undefined) return fromSource;
      const v = s.vars.get(name);
      if (v !== undefined) return v;
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
