/**
 * `option(key, type=, required=, default=)`: a value given to the run (`-D key=value`, settings
 * files), converted to the type asked for. It reads the run through the host it is called with,
 * so one function value serves every run.
 */
import { kclError } from '../../diagnostics/diagnostics.js';
import { isDict, isInt, isList, isStr, toStr, truthy, type FunctionValue, type Value } from './values.js';

function convertOption(v: Value, type: string): Value {
  const bad = () => kclError('EvaluationError', `cannot use '${toStr(v)}' as type '${type}'`);
  switch (type) {
    case 'str':
      return toStr(v);
    case 'int':
      if (isInt(v)) return v;
      if (isStr(v) && /^[-+]?\d+$/.test(v)) return BigInt(v);
      throw bad();
    case 'float':
      if (typeof v === 'number') return v;
      if (isInt(v)) return Number(v);
      throw bad();
    case 'bool':
      if (typeof v === 'boolean') return v;
      throw bad();
    case 'list':
      if (isList(v)) return v;
      throw bad();
    case 'dict':
      if (isDict(v)) return v;
      throw bad();
    default:
      return v;
  }
}

export const OPTION: FunctionValue = {
  kind: 'function',
  name: 'option',
  call: ({ args, kwargs }, host) => {
    const key = args[0] ?? kwargs.get('key');
    if (!isStr(key)) throw kclError('TypeError', 'option() requires a string key');
    const type = args[1] ?? kwargs.get('type');
    const required = args[2] ?? kwargs.get('required');
    const fallback = args[3] ?? kwargs.get('default');
    const given = host.option(key);
    if (given === undefined) {
      if (fallback !== undefined) return isStr(type) && fallback !== null ? convertOption(fallback, type) : fallback;
      if (truthy(required ?? false)) {
        throw kclError('OptionError', `option('${key}') must be initialized, try '-D ${key}=?' argument`);
      }
      return null;
    }
    return isStr(type) ? convertOption(given, type) : given;
  },
};
