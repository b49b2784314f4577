/**
 * Planning: how a program's result becomes YAML documents, as kcl planned it up to v0.7 (kcl-py's
 * vm/planner/plan.py, then the runtime's val_plan.rs). A schema instance or dict whose
 * `__settings__.output_type` is STANDALONE becomes a document of its own, after the one the
 * result itself makes; IGNORE leaves it out but keeps the standalone documents inside it; INLINE,
 * or no settings, keeps it in place. Without settings anywhere the plan is the result itself.
 * Empty documents are not printed.
 *
 * KCL v0.4 also left empty lists out of the output; current kcl prints them, so that is done only
 * for programs written for v0.4 (see kcl-mod.ts).
 */
import { SETTINGS_ATTR } from './eval/schema-def.js';
import {
  DictValue,
  isDict,
  isFunction,
  isList,
  isModule,
  isSchemaType,
  isUndefined,
  type Value,
} from './eval/values.js';

export interface PlanOptions {
  showHidden?: boolean;
  disableNone?: boolean;
  omitEmptyLists?: boolean;
}

/** How kcl-py wraps a list item that is not a dict to plan it like a dict entry. */
const LIST_ITEM_KEY = '$';

interface PlannedDict {
  /** What stays where the dict was; none when it is STANDALONE or IGNORE. */
  inline?: DictValue;
  /** The documents it makes: itself when STANDALONE, then those of the values inside it. */
  docs: DictValue[];
}

class Planner {
  constructor(private readonly opts: PlanOptions) {}

  private skipped(key: string, v: Value): boolean {
    if (v === null) return this.opts.disableNone === true;
    if (key.startsWith('_') && !this.opts.showHidden) return true;
    return isUndefined(v) || isFunction(v) || isSchemaType(v) || isModule(v);
  }

  /** The dict's own entries first, then the documents its values make. */
  filter(d: DictValue): [DictValue, ...DictValue[]] {
    const inline = new DictValue();
    const results: [DictValue, ...DictValue[]] = [inline];
    for (const [key, v] of d.entries) {
      if (this.skipped(key, v)) continue;
      if (isDict(v)) {
        const planned = this.planDict(v);
        if (planned.inline) inline.set(key, planned.inline);
        results.push(...planned.docs);
      } else if (isList(v)) {
        this.planList(key, v, inline, results);
      } else {
        inline.set(key, v);
      }
    }
    return results;
  }

  private planDict(d: DictValue): PlannedDict {
    const [first, ...rest] = this.filter(d);
    const settings = d.get(SETTINGS_ATTR);
    const outputType = isDict(settings) ? settings.get('output_type') : undefined;
    if (outputType === 'IGNORE') return { docs: rest };
    if (outputType === 'STANDALONE') return { docs: [first, ...rest] };
    return { inline: first, docs: rest };
  }

  private planList(key: string, list: Value[], inline: DictValue, results: DictValue[]): void {
    const items: Value[] = [];
    const after: DictValue[] = [];
    let notInline = 0;
    for (const item of list) {
      if (isDict(item)) {
        const planned = this.planDict(item);
        // kcl-py puts the documents a dict item makes into the list too
        if (planned.inline) items.push(planned.inline, ...planned.docs);
        else {
          // kcl counts the documents set aside, not the items, against the list's length
          notInline += Math.max(1, planned.docs.length);
          after.push(...planned.docs);
        }
      } else if (item === null && this.opts.disableNone) {
        continue;
      } else if (!isUndefined(item)) {
        const [wrapped, ...docs] = this.filter(new DictValue([[LIST_ITEM_KEY, item]]));
        const planned = wrapped.get(LIST_ITEM_KEY);
        if (planned !== undefined) items.push(planned);
        results.push(...docs);
      }
    }
    // a list whose items all went elsewhere leaves its key out
    if (list.length === 0 ? !this.opts.omitEmptyLists : notInline < list.length) inline.set(key, items);
    results.push(...after);
  }
}

function hasSettings(v: Value): boolean {
  if (isList(v)) return v.some(hasSettings);
  if (!isDict(v)) return false;
  if (v.entries.has(SETTINGS_ATTR)) return true;
  for (const x of v.entries.values()) if (hasSettings(x)) return true;
  return false;
}

/** The documents a dict result prints as, in order; empty ones are left out. */
export function planDocuments(result: DictValue, opts: PlanOptions = {}): DictValue[] {
  // most programs have nothing to plan: the result is the one document, as it is
  if (!opts.omitEmptyLists && !hasSettings(result)) return result.size > 0 ? [result] : [];
  return new Planner(opts).filter(result).filter((doc) => doc.size > 0);
}
