/**
 * Substituting implicit references: each `${ref:<id>#<pointer>}` becomes the value at the pointer
 * in the target's live object (a whole-string reference keeps the value's type). Pure: the
 * caller supplies the targets.
 */
import { isObject } from '../model/resource.js';
import { escapePointerToken, pointerTokens, referencesIn, REF_PATTERN, type Reference } from './references.js';

export interface Resolution<T> {
  value: T;
  /** References whose target or field is not known (yet): the value keeps them as written. */
  unresolved: Reference[];
}

/** The value at a JSON pointer, or undefined when the path does not exist. */
export function atPointer(root: unknown, pointer: string): unknown {
  const tokens = pointerTokens(pointer);
  if (!tokens) return undefined;
  let x: unknown = root;
  for (const t of tokens) {
    if (Array.isArray(x) && /^\d+$/.test(t)) x = x[Number(t)];
    else if (isObject(x)) x = x[t];
    else return undefined;
    if (x === undefined) return undefined;
  }
  return x;
}

const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** A copy of `attributes` with every reference whose target `lookup` knows replaced. */
export function resolveReferences<T>(attributes: T, lookup: (id: string) => unknown): Resolution<T> {
  const unresolved: Reference[] = [];
  const refs = referencesIn(attributes);
  if (refs.length === 0) return { value: attributes, unresolved };
  const valueOf = (ref: Reference) => {
    const target = lookup(ref.target);
    const v = target === undefined ? undefined : atPointer(target, ref.pointer);
    if (v === undefined) unresolved.push(ref);
    return v;
  };
  const walk = (x: unknown, at: string): unknown => {
    if (typeof x === 'string') {
      const here = refs.filter((r) => r.at === at);
      if (here.length === 0) return x;
      if (here.length === 1 && here[0].whole) return valueOf(here[0]) ?? x;
      let i = 0;
      return x.replace(REF_PATTERN, (m) => {
        const v = valueOf(here[i++]);
        return v === undefined ? m : asText(v);
      });
    }
    if (Array.isArray(x)) return x.map((item, i) => walk(item, `${at}/${i}`));
    if (typeof x === 'object' && x !== null) {
      return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, walk(v, `${at}/${escapePointerToken(k)}`)]));
    }
    return x;
  };
  return { value: walk(attributes, '') as T, unresolved };
}
