/**
 * The `units` system module (kcl's crates/runtime/src/units): the SI and IEC multiplier constants
 * and `to_<unit>(num)`, which divides by the unit and truncates, as kcl's `as i64` does
 * (`to_Gi(4294967296)` is "4Gi", `to_K(1500)` is "1K").
 */
import { requiredArg, type Impl, type Signature } from '../args.js';
import type { ModuleValue, Value } from '../values.js';
import { expectNumber, makeModule, saturatingInt, sig } from './common.js';

/** The fractional units are floats in kcl; the rest are ints. */
const CONSTANTS: ReadonlyArray<readonly [string, Value]> = [
  ['n', 1e-9],
  ['u', 1e-6],
  ['m', 0.001],
  ['k', 1000n],
  ['K', 1000n],
  ['M', 1000n ** 2n],
  ['G', 1000n ** 3n],
  ['T', 1000n ** 4n],
  ['P', 1000n ** 5n],
  ['Ki', 1024n],
  ['Mi', 1024n ** 2n],
  ['Gi', 1024n ** 3n],
  ['Ti', 1024n ** 4n],
  ['Pi', 1024n ** 5n],
];

const SUFFIXES = ['n', 'u', 'm', 'K', 'M', 'G', 'T', 'P', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi'] as const;

function toUnit(suffix: string, unit: number): Impl {
  const fn = `to_${suffix}`;
  return (call) => {
    const num = expectNumber(requiredArg(call, 0, 'num'), fn, 'num');
    return `${saturatingInt(num / unit)}${suffix}`;
  };
}

const DEFINITIONS: ReadonlyArray<readonly [Signature, Impl]> = SUFFIXES.map((suffix) => {
  const unit = CONSTANTS.find(([name]) => name === suffix)?.[1];
  return [sig(`to_${suffix}`, ['num'], 1), toUnit(suffix, Number(unit))] as const;
});

export function unitsModule(): ModuleValue {
  return makeModule('units', DEFINITIONS, CONSTANTS);
}
