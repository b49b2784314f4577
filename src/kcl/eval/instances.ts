/**
 * The instances a run has made, for `Schema.instances()`. They belong to the run, not to the
 * schema: a schema defined by a cached package outlives the run that evaluated it, and each later
 * run counts its own instances (and those the package made, replayed from its journal).
 */
import { chainOf, type SchemaDef } from './schema-def.js';
import type { DictValue } from './values.js';

/** The package path of the program's main files, as kcl names it. */
export const MAIN_PKGPATH = '__main__';

interface Made {
  inst: DictValue;
  /** The package whose code made it (kcl's "last frame" package: a schema body or lambda runs
   * in the package that defines it). */
  pkgpath: string;
}

export class InstanceRegistry {
  private readonly bySchema = new Map<SchemaDef, Made[]>();

  /** Told of every instance the program makes, but not of those replayed: the package loader
   * journals them for the package being evaluated. */
  constructor(private readonly onMade?: (inst: DictValue, pkgpath: string) => void) {}

  /** Counts a finished instance the program has just made in package `pkgpath`. */
  made(inst: DictValue, pkgpath: string): void {
    this.count({ inst, pkgpath });
    this.onMade?.(inst, pkgpath);
  }

  /** Counts an instance a cached package made when it was evaluated. */
  replay(inst: DictValue, pkgpath: string): void {
    this.count({ inst, pkgpath });
  }

  /**
   * The instances of `def`, and of every schema derived from it, in the order they were made.
   * As in kcl, only those the main package made unless `fullPkg` (`S.instances(True)`): an
   * instance a library makes inside its own schemas (a mixin's `v1.Service {...}`) is not one
   * of the program's.
   */
  of(def: SchemaDef, fullPkg = false): readonly DictValue[] {
    const made = this.bySchema.get(def) ?? [];
    return made.filter((m) => fullPkg || m.pkgpath === MAIN_PKGPATH || m.pkgpath === '').map((m) => m.inst);
  }

  private count(made: Made): void {
    // an instance counts for its schema and for every schema it derives from
    for (const s of chainOf(made.inst.schema as SchemaDef)) {
      const list = this.bySchema.get(s);
      if (list) list.push(made);
      else this.bySchema.set(s, [made]);
    }
  }
}
