/**
 * Remapping keys: `<workspace>/.kdeck/keymap.yaml` maps action ids (as `?` lists them) to a
 * key or a list of keys, named as keys.ts names them:
 *
 *     apply: A
 *     down: [j, down, ctrl+n]
 *
 * A key the file gives to one action is taken from any other action that had it by default,
 * so a remap never leaves one key meaning two things. Mistakes do not stop the console: the
 * good entries apply and each bad one is reported with its line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { ACTION_IDS, DEFAULT_BINDINGS, type ActionId, type Bindings } from './actions.js';
import { isKeyName } from './keys.js';

export const KEYMAP_FILE = path.join('.kdeck', 'keymap.yaml');

export interface Keymap {
  bindings: Bindings;
  /** Sentences naming the file and line of each entry that was not used. */
  problems: string[];
  /** The file, when there is one. */
  file?: string;
}

const isAction = (x: string): x is ActionId => (ACTION_IDS as readonly string[]).includes(x);

/** The bindings a keymap's text gives, starting from the defaults. */
export function parseKeymap(text: string, file: string): Keymap {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const at = (offset: number | undefined) => `${file}:${lines.linePos(offset ?? 0).line}`;
  if (doc.errors.length)
    return {
      bindings: DEFAULT_BINDINGS,
      problems: [
        `${at(doc.errors[0].pos[0])}: not valid YAML (${doc.errors[0].message.split('\n')[0]}); the default keys apply`,
      ],
      file,
    };
  const problems: string[] = [];
  const chosen = new Map<ActionId, string[]>();
  const top = doc.contents;
  if (top !== null && !isMap(top))
    return {
      bindings: DEFAULT_BINDINGS,
      problems: [`${file}: the keymap is a mapping of action to keys (apply: A); the default keys apply`],
      file,
    };
  for (const item of isMap(top) ? top.items : []) {
    const name = isScalar(item.key) ? String(item.key.value) : '';
    const where = at(isScalar(item.key) ? item.key.range?.[0] : undefined);
    if (!isAction(name)) {
      problems.push(`${where}: no action is called ${name}; the actions are ${ACTION_IDS.join(', ')}`);
      continue;
    }
    const values = isSeq(item.value) ? item.value.items : [item.value];
    const keys: string[] = [];
    for (const v of values) {
      const key = isScalar(v) ? String(v.value) : '';
      if (isKeyName(key)) keys.push(key);
      else
        problems.push(
          `${where}: ${JSON.stringify(key)} is not a key for ${name}; write a character (a, D, :), a named key (enter, esc, tab, up, pgdn, space, …) or ctrl+x / alt+x`,
        );
    }
    if (keys.length) chosen.set(name, keys);
  }
  const taken = new Map<string, ActionId>();
  for (const [id, keys] of chosen) {
    for (const k of keys) {
      const other = taken.get(k);
      if (other) problems.push(`${file}: ${k} is given to both ${other} and ${id}; ${other} keeps it`);
      else taken.set(k, id);
    }
  }
  const bindings = new Map<ActionId, string[]>();
  for (const [id, defaults] of DEFAULT_BINDINGS) {
    const own = chosen.get(id)?.filter((k) => taken.get(k) === id);
    bindings.set(id, own ?? defaults.filter((k) => !taken.has(k)));
  }
  return { bindings, problems, file };
}

/** The workspace's keymap, or the defaults when it has none. */
export function loadKeymap(root: string): Keymap {
  const file = path.join(root, KEYMAP_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { bindings: DEFAULT_BINDINGS, problems: [] };
  }
  return parseKeymap(text, file);
}
