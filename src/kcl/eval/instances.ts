/**
 * The instances a run has made, for `Schema.instances()`. They belong to the run, not to the
 * schema: a schema defined by a cached package outlives the run that evaluated it, and each later
 * run counts its own instances (and those the package made, replayed from its journal).
 */
import { chainOf, type SchemaDef } from './schema-def.js';
import type { DictValue } from './values.js';

export class InstanceRegistry {
  private readonly bySchema = new Map<SchemaDef, DictValue[]>();

  /** Told of every instance the program makes, but not of those replayed: the package loader
   * journals them for the package being evaluated. */
  constructor(private readonly onMade?: (inst: DictValue) => void) {}

  /** Counts a finished instance the program has just made. */
  made(inst: DictValue): void {
    this.count(inst);
    this.onMade?.(inst);
  }

  /** Counts an instance a cached package made when it was evaluated. */
  replay(inst: DictValue): void {
    this.count(inst);
  }

  /** The instances of `def`, and of every schema derived from it, in the order they were made. */
  of(def: SchemaDef): readonly DictValue[] {
    return this.bySchema.get(def) ?? [];
  }

  private count(inst: DictValue): void {
    // an instance counts for its schema and for every schema it derives from
    for (const s of chainOf(inst.schema as SchemaDef)) {
      const list = this.bySchema.get(s);
      if (list) list.push(inst);
      else this.bySchema.set(s, [inst]);
    }
  }
}
