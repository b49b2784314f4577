import { describe, expect, it } from 'vitest';
import { stringMethod, stringMethodNames } from './string-methods.js';
import { dictOf, type Value } from './values.js';
import { diagnosticOf, testHost } from '../testing.js';

const host = testHost();

function m(s: string, name: string, args: Value[] = [], kwargs: Record<string, Value> = {}): Value {
  const method = stringMethod(s, name);
  if (!method) throw new Error(`no str method ${name}`);
  return method.call({ args, kwargs: new Map(Object.entries(kwargs)) }, host);
}

const failure = diagnosticOf;

describe('stringMethod', () => {
  it('knows exactly the str methods of kcl', () => {
    expect(stringMethodNames().sort()).toEqual(
      [
        'capitalize',
        'chars',
        'count',
        'endswith',
        'find',
        'format',
        'index',
        'isalnum',
        'isalpha',
        'isdigit',
        'islower',
        'isspace',
        'istitle',
        'isupper',
        'join',
        'lower',
        'lstrip',
        'removeprefix',
        'removesuffix',
        'replace',
        'rfind',
        'rindex',
        'rsplit',
        'rstrip',
        'split',
        'splitlines',
        'startswith',
        'strip',
        'title',
        'upper',
      ].sort(),
    );
    expect(stringMethod('a', 'zfill')).toBeUndefined();
    expect(stringMethod('a', 'constructor')).toBeUndefined();
    expect(stringMethod('a', 'toString')).toBeUndefined();
  });

  it('rejects arity mistakes the way kcl resolver does', () => {
    expect(failure(() => m('a', 'lower', ['x']))).toMatchObject({
      kind: 'CompileError',
      message: '"lower" takes 0 positional arguments but 1 were given',
    });
    expect(failure(() => m('a', 'split', [], { separator: ',' })).message).toBe(
      `"split" got an unexpected keyword argument 'separator'`,
    );
    expect(failure(() => m('a', 'replace', ['a'])).message).toBe('expected 2 positional arguments, found 1');
  });
});

describe('case', () => {
  it('converts case', () => {
    expect(m('hello World', 'capitalize')).toBe('Hello world');
    expect(m('', 'capitalize')).toBe('');
    expect(m('Hello World', 'lower')).toBe('hello world');
    expect(m('Hello World', 'upper')).toBe('HELLO WORLD');
    expect(m('hellO worlD', 'title')).toBe('Hello World');
    expect(m("they're bill's 3rd", 'title')).toBe("They'Re Bill'S 3Rd");
  });

  it('classifies characters', () => {
    expect(m('HelloWorld你好', 'isalpha')).toBe(true);
    expect(m('Hello World', 'isalpha')).toBe(false);
    expect(m('HelloWorld2', 'isalnum')).toBe(true);
    expect(m('www.HelloWorld.com', 'isalnum')).toBe(false);
    expect(m('123456', 'isdigit')).toBe(true);
    expect(m('2²', 'isdigit')).toBe(true);
    expect(m('', 'isdigit')).toBe(false);
    expect(m('1.5', 'isdigit')).toBe(false);
    expect(m('hello world 1', 'islower')).toBe(true);
    expect(m('Hello World', 'islower')).toBe(false);
    expect(m('123', 'islower')).toBe(false);
    expect(m('HELLO WORLD', 'isupper')).toBe(true);
    expect(m('Hello world', 'isupper')).toBe(false);
    expect(m(' \t\n\u3000', 'isspace')).toBe(true);
    expect(m(' Hello ', 'isspace')).toBe(false);
    expect(m('', 'isspace')).toBe(false);
    expect(m('Hello World', 'istitle')).toBe(true);
    expect(m('Hello world', 'istitle')).toBe(false);
    expect(m('', 'istitle')).toBe(false);
  });

  it('lists characters by code point', () => {
    expect(m('a😀b', 'chars')).toEqual(['a', '😀', 'b']);
  });
});

describe('searching', () => {
  const s = 'Hello World, Hello World';

  it('counts non-overlapping occurrences within a window', () => {
    expect(m('Hello world, Hello world', 'count', ['o'])).toBe(4n);
    expect(m('Hello world, Hello world', 'count', ['Hello', 5n, 20n])).toBe(1n);
    expect(m('aaaa', 'count', ['aa'])).toBe(2n);
    expect(m('abc', 'count', [''])).toBe(4n);
    expect(m('abc', 'count', ['a', 2n, 1n])).toBe(0n);
  });

  it('finds from the left and the right', () => {
    expect(m('Hello World', 'find', ['o'])).toBe(4n);
    expect(m('Hello World', 'find', ['o', 5n])).toBe(7n);
    expect(m('Hello World', 'find', ['a'])).toBe(-1n);
    expect(m('Hello World', 'find', ['o', -4n])).toBe(7n);
    expect(m(s, 'rfind', ['He'])).toBe(13n);
    expect(m(s, 'rfind', ['He', 0n, 10n])).toBe(0n);
    expect(m(s, 'rfind', ['Hee'])).toBe(-1n);
    expect(m(s, 'rfind', [''])).toBe(24n);
    expect(m('Hello World', 'index', ['World'])).toBe(6n);
    expect(m(s, 'rindex', ['He', 0n, 10n])).toBe(0n);
  });

  it('fails index and rindex on a missing substring', () => {
    expect(failure(() => m('Hello World', 'index', ['Wrold']))).toMatchObject({
      kind: 'EvaluationError',
      message: 'substring not found',
    });
    expect(failure(() => m(s, 'rindex', ['Hee'])).message).toBe('substring not found');
  });

  it('tests prefixes and suffixes within a window', () => {
    expect(m('Hello World', 'startswith', ['Hello'])).toBe(true);
    expect(m('Hello World', 'startswith', ['World', 6n])).toBe(true);
    expect(m('Hello World', 'startswith', ['Hello', 1n])).toBe(false);
    expect(m('Hello World', 'endswith', ['rld'])).toBe(true);
    expect(m('Hello World', 'endswith', ['rld', 0n, 9n])).toBe(false);
    expect(m('abc', 'startswith', ['', 5n])).toBe(false);
  });

  it('type-checks arguments', () => {
    expect(failure(() => m('abc', 'find', [1n]))).toMatchObject({
      kind: 'TypeError',
      message: "find() argument 'sub' must be str, not 'int'",
    });
  });
});

describe('stripping and replacing', () => {
  it('strips whitespace or a set of characters', () => {
    expect(m('  Hello World \n', 'strip')).toBe('Hello World');
    expect(m('    Hello World', 'lstrip')).toBe('Hello World');
    expect(m('Hello World    ', 'rstrip')).toBe('Hello World');
    expect(m('Hello World!!!!', 'rstrip', ['!'])).toBe('Hello World');
    expect(m('!!!Hello!!World!!!', 'strip', ['!!!'])).toBe('Hello!!World');
    expect(m('www.example.com', 'strip', ['cmowz.'])).toBe('example');
    expect(m('  x  ', 'strip', [null])).toBe('x');
  });

  it('replaces all or the first count occurrences', () => {
    expect(m('Hello World', 'replace', ['World', 'world'])).toBe('Hello world');
    expect(m('aaa', 'replace', ['a', 'b', 2n])).toBe('bba');
    expect(m('aaa', 'replace', ['a', 'b', -1n])).toBe('bbb');
    expect(m('aaa', 'replace', ['a', 'b', 0n])).toBe('aaa');
    expect(m('ab', 'replace', ['', '-'])).toBe('-a-b-');
    expect(m('ab', 'replace', ['', '-', 2n])).toBe('-a-b');
  });

  it('removes a prefix or suffix when present', () => {
    expect(m('TestHook', 'removeprefix', ['Test'])).toBe('Hook');
    expect(m('BaseTestCase', 'removeprefix', ['Test'])).toBe('BaseTestCase');
    expect(m('MiscTests', 'removesuffix', ['Tests'])).toBe('Misc');
    expect(m('abc', 'removesuffix', [''])).toBe('abc');
  });
});

describe('split and join', () => {
  it('splits on a separator', () => {
    expect(m('a,b', 'split', [','])).toEqual(['a', 'b']);
    expect(m('a,,b,', 'split', [','])).toEqual(['a', '', 'b', '']);
    expect(m('Hello World', 'split', ['o', 1n])).toEqual(['Hell', ' World']);
    expect(m('Hello World', 'split', ['o'])).toEqual(['Hell', ' W', 'rld']);
    expect(m('a.b.c', 'split', [], { sep: '.', maxsplit: 1n })).toEqual(['a', 'b.c']);
    expect(m('', 'split', [','])).toEqual(['']);
  });

  it('splits on whitespace runs without a separator', () => {
    expect(m('Hello World', 'split')).toEqual(['Hello', 'World']);
    expect(m('  a \t b\n\nc  ', 'split')).toEqual(['a', 'b', 'c']);
    expect(m('  a b  c  ', 'split', [null, 1n])).toEqual(['a', 'b  c  ']);
    expect(m('   ', 'split')).toEqual([]);
  });

  it('splits from the right', () => {
    expect(m('Hello World', 'rsplit')).toEqual(['Hello', 'World']);
    expect(m('Hello World', 'rsplit', ['o', 1n])).toEqual(['Hello W', 'rld']);
    expect(m('Hello World', 'rsplit', ['o'])).toEqual(['Hell', ' W', 'rld']);
    expect(m('  a b  c  ', 'rsplit', [null, 1n])).toEqual(['  a b', 'c']);
    expect(m('aaa', 'rsplit', ['aa'])).toEqual(['a', '']);
  });

  it('rejects an empty separator', () => {
    expect(failure(() => m('abc', 'split', ['']))).toMatchObject({ message: 'empty separator' });
  });

  it('splits lines on \\n, \\r and \\r\\n', () => {
    const s = 'Hel\n\nlo W\ror\nld';
    expect(m(s, 'splitlines')).toEqual(['Hel', '', 'lo W', 'or', 'ld']);
    expect(m(s, 'splitlines', [true])).toEqual(['Hel\n', '\n', 'lo W\r', 'or\n', 'ld']);
    expect(m('a\r\nb\r\n', 'splitlines', [], { keepends: true })).toEqual(['a\r\n', 'b\r\n']);
  });

  it('joins items, rendering non-str items with str() as kcl does', () => {
    expect(m('.', 'join', [['hello', 'world']])).toBe('hello.world');
    expect(m('', 'join', [[]])).toBe('');
    expect(m('-', 'join', ['abc'])).toBe('a-b-c');
    expect(m('-', 'join', [[1n, 2.5, true]])).toBe('1-2.5-True');
    expect(m(',', 'join', [dictOf({ a: 1n, b: 2n })])).toBe('a,b');
  });
});

describe('format', () => {
  const f = (template: string, args: Value[] = [], kwargs: Record<string, Value> = {}) =>
    m(template, 'format', args, kwargs);

  it('fills automatic, numbered and keyword fields', () => {
    expect(f('{} {}', ['Hello', 'World'])).toBe('Hello World');
    expect(f('{1} {0} {1}', ['a', 'b'])).toBe('b a b');
    expect(f('{name} is {age}', [], { name: 'Alice', age: 18n })).toBe('Alice is 18');
    expect(f('{{}} {{{}}}', ['x'])).toBe('{} {x}');
  });

  it('renders values with str()', () => {
    expect(f('{} {} {} {}', [null, true, 1.0, ['a', 1n]])).toBe("None True 1.0 ['a', 1]");
  });

  it('looks into lists and dicts', () => {
    expect(f('0{0[0]}, 1{0[1]}, Hello{1[Hello]}', [['0', '1'], dictOf({ Hello: 'World' })])).toBe('00, 11, HelloWorld');
    expect(f('{p.name}', [], { p: dictOf({ name: 'Bob' }) })).toBe('Bob');
  });

  it('applies format specs to numbers', () => {
    expect(f('{:.0f}', [1.0])).toBe('1');
    expect(f('{:.1f} {:.0f}', [1.0, 2.0])).toBe('1.0 2');
    expect(f('{:.2f}', [3.14159])).toBe('3.14');
    expect(f('{:.2f}', [-3n])).toBe('-3.00');
    expect(f('{:5d}|{:<5d}|{:^5d}|{:05d}', [42n, 42n, 42n, -42n])).toBe('   42|42   | 42  |-0042');
    expect(f('{:*>6}', [7n])).toBe('*****7');
    expect(f('{:+d} {: d}', [5n, 5n])).toBe('+5  5');
    expect(f('{:x} {:X} {:#x} {:b} {:#o}', [255n, 255n, 255n, 5n, 8n])).toBe('ff FF 0xff 101 0o10');
    expect(f('{:,} {:_b}', [1234567n, 255n])).toBe('1,234,567 1111_1111');
    expect(f('{:,.2f}', [1234567.891])).toBe('1,234,567.89');
    expect(f('{:e} {:.2E}', [12345.678, 0.000123])).toBe('1.234568e+04 1.23E-04');
    expect(f('{:g} {:g} {:g} {:.3g}', [0.0001, 1e20, 100.0, 3.14159])).toBe('0.0001 1e+20 100 3.14');
    expect(f('{:.1%}', [0.256])).toBe('25.6%');
    expect(f('{:f} {}', [Infinity, NaN])).toBe('inf nan');
    expect(f('{}', [1e20])).toBe('1e+20');
  });

  it('ignores format specs on other values, as kcl does', () => {
    expect(f('{:>5}|{:d}', ['ab', true])).toBe('ab|True');
  });

  it('reports malformed templates and missing arguments', () => {
    expect(failure(() => f('{', ['a'])).message).toBe("Single '{' encountered in format string");
    expect(failure(() => f('a}', [])).message).toBe("Single '}' encountered in format string");
    expect(failure(() => f('{} {}', ['a'])).message).toBe('argument tuple index out of range');
    expect(failure(() => f('{x}', [])).message).toBe("keyword argument 'x' not found");
    expect(failure(() => f('{} {0}', ['a'])).message).toBe(
      'cannot switch from automatic field numbering to manual field specification',
    );
    expect(failure(() => f('{:d}', [1.5])).message).toBe("Unknown format code 'd' for object of type 'float'");
    expect(failure(() => f('{:s}', [1n])).message).toBe("Unknown format code 's' for object of type 'int'");
    expect(failure(() => f('{:5q}', [1n])).message).toBe('Invalid format specifier');
  });
});
