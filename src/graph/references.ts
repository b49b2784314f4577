/**
 * Implicit references: a string in a resource's attributes that stands for a field of another
 * resource, resolved when the dependent is applied (so it can name a field the server fills in,
 * such as a Service's clusterIP). A reference adds an implicit edge to the graph.
 *
 * kdeck's syntax is `${ref:<id>#<json-pointer>}`: the id is any resource id (dots, slashes and
 * colons allowed), the pointer an RFC 6901 path into the target's attributes, list indices
 * allowed (`/spec/ports/0/port`). A string that is only a reference takes the target value with
 * its type; references inside a longer string are replaced by the value's text. In KCL, write it
 * with the platform's `utils.ref(id, pointer)`, or escape the dollar (`"\${ref:...}"`).
 *
 * kusion's `$kusion_path.<id>.<key>.<key>` (a whole string, map keys only, no dots in the id) is
 * read too, so older Konfig repositories keep working.
 */

export interface Reference {
  /** JSON pointer, in the referring resource's attributes, of the string holding the reference. */
  at: string;
  target: string;
  /** JSON pointer into the target's attributes. */
  pointer: string;
  /** The reference is the whole string, so it resolves to the target value itself, typed. */
  whole: boolean;
}

/** One `${ref:<id>#<pointer>}` occurrence (global: use with matchAll or replace). */
export const REF_PATTERN = /\$\{ref:([^#}]+)#([^}]*)\}/g;
const KUSION_PATH = '$kusion_path.';
/** How every `${ref:...}` begins. */
const REF_OPENING = '${ref:';

export function escapePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The tokens of a JSON pointer, or undefined when it is not one (it must be empty or start with `/`). */
export function pointerTokens(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/') || /~[^01]|~$/.test(pointer)) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** The references in one string. */
export function referencesInString(s: string, at: string): Reference[] {
  if (s.startsWith(KUSION_PATH)) {
    const [target, ...keys] = s.slice(KUSION_PATH.length).split('.');
    return [{ at, target, pointer: keys.map((k) => `/${escapePointerToken(k)}`).join(''), whole: true }];
  }
  const found: Reference[] = [];
  for (const m of s.matchAll(REF_PATTERN))
    found.push({ at, target: m[1], pointer: m[2], whole: m[0].length === s.length });
  return found;
}

/** Whether a string can hold a reference at all: the test every string of a stack goes through. */
function mayHoldReference(s: string): boolean {
  return s.startsWith(KUSION_PATH) || s.includes(REF_OPENING);
}

/**
 * The references found in each attributes object walked. A resource's attributes are walked by
 * the compile's checks, the graph, the plan and the executor, and never change once compiled
 * (resolving references makes a new object), so one walk serves them all.
 */
const walked = new WeakMap<object, readonly Reference[]>();

/** Every reference in a resource's attributes, in document order. */
export function referencesIn(attributes: unknown): readonly Reference[] {
  if (typeof attributes !== 'object' || attributes === null) return findReferences(attributes);
  let found = walked.get(attributes);
  if (!found) {
    found = findReferences(attributes);
    walked.set(attributes, found);
  }
  return found;
}

/**
 * Whether a resource's attributes can hold a reference, from their JSON: every string keeps its
 * `${ref:` as it is there, and opens with a quote before `$kusion_path.`. Most resources hold
 * none, and the native serializer tells at a fraction of what walking them costs.
 */
function mayHoldReferenceAnywhere(attributes: unknown): boolean {
  const json = JSON.stringify(attributes) ?? '';
  return json.includes(REF_OPENING) || json.includes(`"${KUSION_PATH}`);
}

function findReferences(attributes: unknown): Reference[] {
  if (!mayHoldReferenceAnywhere(attributes)) return [];
  const found: Reference[] = [];
  // the keys down to the value being walked; a pointer is written only for a string holding a reference
  const keys: string[] = [];
  const walk = (x: unknown) => {
    if (typeof x === 'string') {
      if (mayHoldReference(x))
        found.push(...referencesInString(x, keys.map((k) => `/${escapePointerToken(k)}`).join('')));
    } else if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) {
        keys.push(String(i));
        walk(x[i]);
        keys.pop();
      }
    } else if (typeof x === 'object' && x !== null) {
      for (const [k, v] of Object.entries(x)) {
        keys.push(k);
        walk(v);
        keys.pop();
      }
    }
  };
  walk(attributes);
  return found;
}
