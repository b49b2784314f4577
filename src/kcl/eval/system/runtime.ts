/**
 * The `runtime` system module: `catch(func)` calls a function of no arguments and gives the
 * message of the error it raised, or Undefined when it raised none. Only kcl errors are caught; a
 * failure of kdeck itself still propagates.
 */
import { KclError } from '../../../diagnostics/diagnostics.js';
import { CheckFailure } from '../check-failure.js';
import { argTypeError, requiredArg, type Impl, type Signature } from '../args.js';
import { isFunction, UNDEFINED, type ModuleValue } from '../values.js';
import { makeModule, sig } from './common.js';

const catchError: Impl = (call, host) => {
  const func = requiredArg(call, 0, 'func');
  if (!isFunction(func)) return argTypeError('catch', 'func', 'function', func);
  try {
    func.call({ args: [], kwargs: new Map() }, host);
    return UNDEFINED;
  } catch (e) {
    // a failed check gives its own message, as kcl's panic carries it
    if (e instanceof CheckFailure && e.reason !== '') return e.reason;
    if (e instanceof KclError) return e.diagnostic.message;
    throw e;
  }
};

const DEFINITIONS: ReadonlyArray<readonly [Signature, Impl]> = [[sig('catch', ['func'], 1), catchError]];

export function runtimeModule(): ModuleValue {
  return makeModule('runtime', DEFINITIONS);
}
