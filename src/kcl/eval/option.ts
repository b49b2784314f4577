/**
 * `option(key, type=, required=, default=)`: a value given to the run (`-D key=value`, settings
 * files), converted to the type asked for. It reads the run through the host it is called with,
 * so one function value serves every run.
 */
import { kclError } from '../../diagnostics/diagnostics.js';
import { isDict, isInt, isList, isStr, toStr, truthy, UNDEFINED, type FunctionValue, type Value } from './values.js';

/** As kcl converts an option to the type asked for: numbers and booleans into each other,
 * strings parsed (a float that does not parse is 0.0; a bool is true only for "True"/"true"). */
function convertOption(v: Value, type: string): Value {
  const bad = () => kclError('EvaluationError', `cannot use '${toStr(v)}' as type '${type}'`);
  switch (type) {
    case 'str':
      if (typeof v === 'boolean') return String(v);
      if (isStr(v) || isInt(v) || typeof v === 'number') return toStr(v);
      throw bad();
    case 'int':
      if (isInt(v)) return v;
      if (typeof v === 'boolean') return v ? 1n : 0n;
      if (typeof v === 'number') return BigInt(Math.trunc(v));
      if (isStr(v) && /^[-+]?\d+$/.test(v)) return BigInt(v);
      throw bad();
    case 'float':
      if (typeof v === 'number') return v;
      if (isInt(v)) return Number(v);
      if (typeof v === 'boolean') return v ? 1 : 0;
      if (isStr(v)) {
        const n = Number(v.trim());
        return v.trim() !== '' && Number.isFinite(n) ? n : 0;
      }
      throw bad();
    case 'bool':
      if (typeof v === 'boolean') return v;
      if (isInt(v)) return v !== 0n;
      if (typeof v === 'number') return v !== 0;
      if (isStr(v)) return v === 'True' || v === 'true';
      return UNDEFINED;
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
