/**
 * The `collection` system module: `union_all(num)` unions a list of configs left to right with
 * `|`, starting from a copy of the first; an empty or missing list gives an empty dict.
 */
import { optionalArg, type Impl, type Signature } from '../args.js';
import { binary } from '../operators.js';
import { deepCopy, DictValue, isList, type ModuleValue, type Value } from '../values.js';
import { makeModule, sig } from './common.js';

const unionAll: Impl = (call) => {
  const items = optionalArg(call, 0, 'num');
  if (items === undefined || !isList(items) || items.length === 0) return new DictValue();
  return items.slice(1).reduce<Value>((acc, item) => binary('|', acc, item), deepCopy(items[0]));
};

const DEFINITIONS: ReadonlyArray<readonly [Signature, Impl]> = [[sig('union_all', ['num'], 1), unionAll]];

export function collectionModule(): ModuleValue {
  return makeModule('collection', DEFINITIONS);
}
