import { beforeEach, describe, expect, it } from 'vitest';
import { BUILTINS } from './builtins.js';
import { DictValue, dictOf, UNDEFINED, type FunctionValue, type SchemaTypeValue, type Value } from './values.js';
import { diagnosticOf, testHost } from '../testing.js';

let out: string[] = [];
const host = testHost({ print: (t) => void out.push(t) });

beforeEach(() => {
  out = [];
});

function call(name: string, args: Value[] = [], kwargs: Record<string, Value> = {}): Value {
  const fn = BUILTINS.get(name);
  if (!fn) throw new Error(`no builtin ${name}`);
  return fn.call({ args, kwargs: new Map(Object.entries(kwargs)) }, host);
}

const failure = diagnosticOf;

function schemaInstance(name: string, pkgpath: string, entries: Record<string, Value>): DictValue {
  const schema: SchemaTypeValue = { kind: 'schemaType', name, pkgpath, isRule: false };
  const d = dictOf(entries);
  d.schema = schema;
  return d;
}

const I64_MAX = 2n ** 63n - 1n;

describe('BUILTINS', () => {
  it('holds kcl builtin functions, without option', () => {
    expect([...BUILTINS.keys()].sort()).toEqual(
      [
        'abs',
        'all_true',
        'any_true',
        'bin',
        'bool',
        'dict',
        'float',
        'hex',
        'int',
        'isnullish',
        'isunique',
        'len',
        'list',
        'max',
        'min',
        'multiplyof',
        'oct',
        'ord',
        'pow',
        'print',
        'range',
        'reduce',
        'round',
        'sorted',
        'str',
        'sum',
        'typeof',
        'zip',
      ].sort(),
    );
  });

  it('checks arity like kcl resolver', () => {
    expect(failure(() => call('len', [[], []]))).toMatchObject({
      kind: 'CompileError',
      message: '"len" takes 1 positional argument but 2 were given',
    });
    expect(failure(() => call('len')).message).toBe('expected 1 positional argument, found 0');
    expect(failure(() => call('sorted', [[]], { reversed: true })).message).toBe(
      `"sorted" got an unexpected keyword argument 'reversed'`,
    );
  });
});

describe('print', () => {
  it('joins arguments with spaces and ends the line', () => {
    expect(call('print', ['Hello, World!', 100n, 'Hello', null, [1n, 'a']])).toBeNull();
    expect(out).toEqual(["Hello, World! 100 Hello None [1, 'a']\n"]);
  });

  it('takes sep and end', () => {
    call('print', ['a', 'b'], { sep: ', ', end: '' });
    call('print', [], {});
    expect(out).toEqual(['a, b', '\n']);
  });
});

describe('len and typeof', () => {
  it('measures strs in UTF-8 bytes, lists, dicts and schema instances', () => {
    expect(call('len', ['hello'])).toBe(5n);
    expect(call('len', ['你好'])).toBe(6n);
    expect(call('len', [[1n, 2n, 3n]])).toBe(3n);
    expect(call('len', [dictOf({ a: 1n, b: 2n })])).toBe(2n);
    expect(call('len', [schemaInstance('Person', '__main__', { name: 'a' })])).toBe(1n);
    expect(failure(() => call('len', [1n])).message).toBe("object of type 'int' has no len()");
  });

  it('names types as kcl does', () => {
    expect(call('typeof', [1n])).toBe('int');
    expect(call('typeof', [0.0], { full_name: true })).toBe('float');
    expect(call('typeof', ['abc'])).toBe('str');
    expect(call('typeof', [false])).toBe('bool');
    expect(call('typeof', [null])).toBe('None');
    expect(call('typeof', [UNDEFINED])).toBe('UndefinedType');
    expect(call('typeof', [[]])).toBe('list');
    expect(call('typeof', [new DictValue()])).toBe('dict');
  });

  it('names schema instances, with their package on request', () => {
    const local = schemaInstance('Person', '__main__', {});
    const imported = schemaInstance('Person', 'sub', {});
    expect(call('typeof', [local])).toBe('Person');
    expect(call('typeof', [local], { full_name: true })).toBe('Person');
    expect(call('typeof', [imported])).toBe('Person');
    expect(call('typeof', [imported], { full_name: true })).toBe('sub.Person');
    expect(call('typeof', [schemaInstance('Person', '@pkg.sub', {})], { full_name: true })).toBe('pkg.sub.Person');
  });

  it('tells None and Undefined from other values', () => {
    expect(call('isnullish', [null])).toBe(true);
    expect(call('isnullish', [UNDEFINED])).toBe(true);
    expect(call('isnullish', [[null]])).toBe(false);
    expect(call('isnullish', [0n])).toBe(false);
  });
});

describe('conversions', () => {
  it('str renders with str()', () => {
    expect(call('str', [123n])).toBe('123');
    expect(call('str', [1.234])).toBe('1.234');
    expect(call('str', [true])).toBe('True');
    expect(call('str')).toBe('');
  });

  it('bool takes truthiness', () => {
    expect([1n, 0n, 0.0, null, '', [], new DictValue(), 'a'].map((v) => call('bool', [v]))).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
  });

  it('int converts numbers, bools and decimal strs', () => {
    expect(call('int', ['10'])).toBe(10n);
    expect(call('int', ['-7'])).toBe(-7n);
    expect(call('int', [3.9])).toBe(3n);
    expect(call('int', [-3.9])).toBe(-3n);
    expect(call('int', [true])).toBe(1n);
    expect(call('int', [I64_MAX])).toBe(I64_MAX);
  });

  it('int reads quantity suffixes', () => {
    expect(call('int', ['1Ki'])).toBe(1024n);
    expect(call('int', ['1024Mi'])).toBe(1073741824n);
    expect(call('int', ['1k'])).toBe(1000n);
    expect(call('int', ['2G'])).toBe(2000000000n);
    expect(failure(() => call('int', ['1m'])).message).toBe("invalid literal for int() with base 10: '1m'");
    expect(failure(() => call('int', ['Ki'])).message).toBe("number can't be empty");
  });

  it('int parses other bases, with or without a prefix', () => {
    expect(call('int', ['0xe4'], { base: 16n })).toBe(228n);
    expect(call('int', ['0XFF', 16n])).toBe(255n);
    expect(call('int', ['e4'], { base: 16n })).toBe(228n);
    expect(call('int', ['0o755'], { base: 8n })).toBe(493n);
    expect(call('int', ['1010'], { base: 2n })).toBe(10n);
    expect(call('int', ['10'], { base: 10n })).toBe(10n);
    expect(call('int', ['-0x10'], { base: 16n })).toBe(-16n);
    expect(call('int', ['z'], { base: 36n })).toBe(35n);
  });

  it('int rejects malformed literals and overflows', () => {
    expect(failure(() => call('int', ['abc']))).toMatchObject({
      kind: 'EvaluationError',
      message: "invalid literal for int() with base 10: 'abc'",
    });
    expect(failure(() => call('int', [' 1'])).message).toBe("invalid literal for int() with base 10: ' 1'");
    expect(failure(() => call('int', ['12'], { base: 2n })).message).toBe(
      "invalid literal for int() with base 2: '12'",
    );
    expect(failure(() => call('int', [[]])).message).toBe("int() argument must be a string or a number, not 'list'");
    expect(failure(() => call('int', ['9223372036854775808']))).toMatchObject({
      kind: 'IntOverflow',
      message: '9223372036854775808: A 64 bit integer overflow',
    });
    expect(failure(() => call('int', ['8Ei'])).message).toBe("invalid literal for int() with base 10: '8Ei'");
    expect(failure(() => call('int', ['9000000Pi'])).kind).toBe('IntOverflow');
    expect(failure(() => call('int', [1e19])).kind).toBe('IntOverflow');
    expect(failure(() => call('int', [NaN])).message).toBe('cannot convert float NaN to integer');
  });

  it('float converts numbers, bools and strs', () => {
    expect(call('float', ['112'])).toBe(112);
    expect(call('float', ['1.5e3'])).toBe(1500);
    expect(call('float', ['.5'])).toBe(0.5);
    expect(call('float', [3n])).toBe(3);
    expect(call('float', [true])).toBe(1);
    expect(Number.isNaN(call('float', ['nan']))).toBe(true);
    expect(failure(() => call('float', ['1,5'])).message).toBe("invalid literal for float() with base 10: '1,5'");
    expect(failure(() => call('float', ['inf']))).toMatchObject({
      kind: 'FloatOverflow',
      message: 'inf: A 64-bit floating point number overflow',
    });
  });

  it('list copies lists and takes dict keys and str characters', () => {
    const xs = [1n, 2n];
    const copy = call('list', [xs]);
    expect(copy).toEqual(xs);
    expect(copy).not.toBe(xs);
    expect(call('list', [dictOf({ a: 1n, b: 2n })])).toEqual(['a', 'b']);
    expect(call('list', ['ab'])).toEqual(['a', 'b']);
    expect(call('list')).toEqual([]);
    expect(failure(() => call('list', [1n])).message).toBe("'int' object is not iterable");
  });

  it('dict copies dicts, takes pairs and adds keyword arguments', () => {
    const d = call('dict', [dictOf({ a: 1n })], { b: 2n }) as DictValue;
    expect([...d.entries]).toEqual([
      ['a', 1n],
      ['b', 2n],
    ]);
    const pairs = call('dict', [
      [
        ['x', 1n],
        ['y', 2n],
      ],
    ]) as DictValue;
    expect([...pairs.entries]).toEqual([
      ['x', 1n],
      ['y', 2n],
    ]);
    expect((call('dict') as DictValue).size).toBe(0);
    const plain = call('dict', [schemaInstance('P', '__main__', { n: 1n })]) as DictValue;
    expect(plain.schema).toBeUndefined();
    expect(failure(() => call('dict', [[['x', 1n, 2n]]])).message).toBe(
      'dictionary update sequence element #0 has length 3; 2 is required',
    );
  });
});

describe('sequences', () => {
  it('range counts up or down by a step', () => {
    expect(call('range', [5n])).toEqual([0n, 1n, 2n, 3n, 4n]);
    expect(call('range', [0n, 1n, 2n])).toEqual([0n]);
    expect(call('range', [0n, 10n, 3n])).toEqual([0n, 3n, 6n, 9n]);
    expect(call('range', [5n, 1n, -1n])).toEqual([5n, 4n, 3n, 2n]);
    expect(call('range', [3n, 1n])).toEqual([]);
    expect(failure(() => call('range', [0n, 5n, 0n])).message).toBe('range() step argument must not be zero');
    expect(failure(() => call('range', [1.5])).kind).toBe('TypeError');
  });

  it('sorted orders numbers and strs, optionally reversed', () => {
    expect(call('sorted', [[5n, 2n, 3n, 1n, 4n]])).toEqual([1n, 2n, 3n, 4n, 5n]);
    expect(call('sorted', [[5n, 0n, 6n, 1n, 2n, 7n, 3n, 4n]], { reverse: true })).toEqual([
      7n,
      6n,
      5n,
      4n,
      3n,
      2n,
      1n,
      0n,
    ]);
    expect(call('sorted', [[2.5, 1n, 2n]])).toEqual([1n, 2n, 2.5]);
    expect(call('sorted', ['bca'])).toEqual(['a', 'b', 'c']);
    expect(call('sorted', [dictOf({ b: 1n, a: 2n })])).toEqual(['a', 'b']);
    expect(call('sorted', [['b', 'B', 'a']])).toEqual(['B', 'a', 'b']);
  });

  it('sorted leaves its input alone and refuses mixed types', () => {
    const xs = [3n, 1n];
    call('sorted', [xs]);
    expect(xs).toEqual([3n, 1n]);
    expect(failure(() => call('sorted', [['abc', 1n]])).message).toMatch(/^cannot compare (int and str|str and int)$/);
    expect(failure(() => call('sorted', [1n])).message).toBe('sorted only for str|list|dict type');
  });

  it('max and min take several arguments or one iterable', () => {
    expect(call('max', [80n, 100n, 1000n])).toBe(1000n);
    expect(call('min', [-80n, -20n, -10n])).toBe(-80n);
    expect(call('max', [[1n, 8n, 5n, 12n, 3n]])).toBe(12n);
    expect(call('min', [[1n, 8n, 5n, 12n, 3n]])).toBe(1n);
    expect(call('max', [1n, 2.5])).toBe(2.5);
    expect(call('max', ['hello'])).toBe('o');
    expect(call('min', [dictOf({ b: 1n, a: 2n })])).toBe('a');
    expect(failure(() => call('max', [[]])).message).toBe('arg is an empty list');
    expect(failure(() => call('max')).message).toBe('max() takes exactly one argument (0 given)');
    expect(failure(() => call('max', [1n, 'a'])).kind).toBe('TypeError');
  });

  it('sum adds from a start value', () => {
    expect(call('sum', [[0n, 1n, 2n]])).toBe(3n);
    expect(call('sum', [[0n, 1n, 2n, 3n, 4n], 2n])).toBe(12n);
    expect(call('sum', [[1n, 0.5]])).toBe(1.5);
    expect(call('sum', [[[1n], [2n]], []])).toEqual([1n, 2n]);
    expect(failure(() => call('sum', [['a'], ''])).message).toBe("sum() can't sum strings");
    expect(failure(() => call('sum', [[I64_MAX, 1n]])).kind).toBe('IntOverflow');
  });

  it('zip stops at the shortest argument', () => {
    expect(
      call('zip', [
        [0n, 1n, 2n],
        [3n, 4n, 5n],
      ]),
    ).toEqual([
      [0n, 3n],
      [1n, 4n],
      [2n, 5n],
    ]);
    expect(
      call('zip', [
        [0n, 1n],
        [3n, 4n, 5n],
      ]),
    ).toEqual([
      [0n, 3n],
      [1n, 4n],
    ]);
    expect(call('zip', ['ab', [1n, 2n, 3n]])).toEqual([
      ['a', 1n],
      ['b', 2n],
    ]);
    expect(call('zip')).toEqual([]);
  });

  it('all_true and any_true test list items and dict values', () => {
    expect(call('all_true', [['a', 'b', 'c', 'd']])).toBe(true);
    expect(call('all_true', [['a', 'b', '', 'd']])).toBe(false);
    expect(call('all_true', [[0n, 1n, 2n, 3n]])).toBe(false);
    expect(call('all_true', [[]])).toBe(true);
    expect(call('any_true', [['a', 'b', '', 'd']])).toBe(true);
    expect(call('any_true', [[0n, '', false]])).toBe(false);
    expect(call('any_true', [[]])).toBe(false);
    expect(call('any_true', [dictOf({ a: 0n, b: 1n })])).toBe(true);
    expect(call('all_true', [dictOf({ a: 0n, b: 1n })])).toBe(false);
  });

  it('isunique compares by value', () => {
    expect(call('isunique', [[100n, 10n, 100n]])).toBe(false);
    expect(call('isunique', [[100n, 10n]])).toBe(true);
    expect(call('isunique', [['Hello', 'world', 'world']])).toBe(false);
    expect(call('isunique', [[1n, 1.0]])).toBe(false);
    expect(call('isunique', [[[1n], [1n]]])).toBe(false);
    expect(call('isunique', [[]])).toBe(true);
  });

  it('reduce folds a list with a function value', () => {
    const add: FunctionValue = {
      kind: 'function',
      name: 'add',
      call: ({ args }) => (args[0] as bigint) * 10n + (args[1] as bigint),
    };
    expect(call('reduce', [add, [1n, 2n, 3n], 9n])).toBe(9123n);
    expect(call('reduce', [add, [1n, 2n, 3n]])).toBe(123n);
    expect(call('reduce', [add, [], 99n])).toBe(99n);
    expect(call('reduce', [add, [42n]])).toBe(42n);
    expect(call('reduce', [add, []])).toBeNull();
    expect(failure(() => call('reduce', [null, [], 5n])).message).toBe(
      "reduce() argument 'reducer' must be a function",
    );
  });
});

describe('numbers', () => {
  it('abs keeps the type', () => {
    expect(call('abs', [-40n])).toBe(40n);
    expect(call('abs', [-100.1])).toBe(100.1);
    expect(failure(() => call('abs', [-(2n ** 63n)])).kind).toBe('IntOverflow');
    expect(failure(() => call('abs', ['x'])).kind).toBe('TypeError');
  });

  it('multiplyof tests divisibility', () => {
    expect(call('multiplyof', [100n, 10n])).toBe(true);
    expect(call('multiplyof', [25n, 7n])).toBe(false);
    expect(failure(() => call('multiplyof', [1n, 0n])).kind).toBe('ZeroDivisionError');
  });

  it('pow computes exact int powers, float powers and modular powers', () => {
    expect(call('pow', [100n, 2n])).toBe(10000n);
    expect(call('pow', [3n, 39n])).toBe(4052555153018976267n);
    expect(call('pow', [2n, -1n])).toBe(0.5);
    expect(call('pow', [2n, 0.5])).toBe(Math.SQRT2);
    expect(call('pow', [2n, 3n, 5n])).toBe(3n);
    expect(call('pow', [-2n, 3n, 5n])).toBe(2n);
    expect(call('pow', [141592653589793n, 238462643383279n, 502884197169399n])).toBe(182523810312617n);
    expect(call('pow', [-1n, 10n ** 18n])).toBe(1n);
  });

  it('pow reports overflow and invalid modular arguments', () => {
    expect(failure(() => call('pow', [2n, 63n]))).toMatchObject({
      kind: 'IntOverflow',
      message: '9223372036854775808: A 64 bit integer overflow',
    });
    expect(failure(() => call('pow', [2n, 10n ** 18n])).kind).toBe('IntOverflow');
    expect(failure(() => call('pow', [2n, 3n, 0n])).message).toBe('pow() 3rd argument cannot be 0');
    expect(failure(() => call('pow', [2n, -1n, 5n])).message).toBe(
      'pow() 2nd argument cannot be negative when 3rd argument specified',
    );
    expect(failure(() => call('pow', [2.0, 3n, 5n])).message).toBe(
      'pow() 3rd argument not allowed unless all arguments are integers',
    );
  });

  it('round without digits gives an int, halves away from zero', () => {
    expect(call('round', [70.23456])).toBe(70n);
    expect(call('round', [1.5])).toBe(2n);
    expect(call('round', [2.5])).toBe(3n);
    expect(call('round', [-2.5])).toBe(-3n);
    expect(call('round', [7n])).toBe(7n);
  });

  it('round with digits gives a float, halves to even', () => {
    expect(call('round', [80.264, 2n])).toBe(80.26);
    expect(call('round', [-100.000056, 3n])).toBe(-100);
    expect(call('round', [1.5555, 1n])).toBe(1.6);
    expect(call('round', [1.5555, 2n])).toBe(1.56);
    expect(call('round', [1.5555, 0n])).toBe(2);
    expect(call('round', [0.125, 2n])).toBe(0.12);
    expect(call('round', [1234.5, -2n])).toBe(1200);
    expect(call('round', [5n, 2n])).toBe(5);
  });

  it('hex, oct and bin write signed ints with a prefix', () => {
    expect(call('hex', [255n])).toBe('0xff');
    expect(call('hex', [-42n])).toBe('-0x2a');
    expect(call('hex', [-(2n ** 63n)])).toBe('-0x8000000000000000');
    expect(call('oct', [10n])).toBe('0o12');
    expect(call('bin', [10n])).toBe('0b1010');
    expect(call('bin', [-8n])).toBe('-0b1000');
    expect(failure(() => call('hex', [1.5])).message).toBe("'float' object cannot be interpreted as an integer");
  });

  it('ord gives the code point of one character', () => {
    expect(call('ord', ['a'])).toBe(97n);
    expect(call('ord', ['€'])).toBe(8364n);
    expect(call('ord', ['😀'])).toBe(128512n);
    expect(failure(() => call('ord', ['ab'])).message).toBe(
      'ord() expected string of length 1, but string of length 2 found',
    );
  });
});
