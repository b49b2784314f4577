import { describe, expect, it } from 'vitest';
import {
  DictValue,
  dictOf,
  UNDEFINED,
  type FunctionValue,
  type ModuleValue,
  type SchemaTypeValue,
  type Value,
} from './eval/values.js';
import { plainData, toJson, toYaml, toYamlStream } from './yaml.js';

/** Expected output written line by line, as the golden files show it. */
const lines = (...ls: string[]): string => ls.join('\n') + '\n';

const fn: FunctionValue = { kind: 'function', name: 'f', call: () => null };
const schemaType: SchemaTypeValue = { kind: 'schemaType', name: 'Person', pkgpath: '__main__', isRule: false };
const mod: ModuleValue = { kind: 'module', name: 'math', members: new Map() };

function schemaOf(entries: Record<string, Value>): DictValue {
  const d = dictOf(entries);
  d.schema = schemaType;
  return d;
}

describe('toYaml: structure', () => {
  it('indents nested dicts by two (unification/nest_var_1)', () => {
    const config = dictOf({
      args: ['kcl', 'main.k'],
      labels: dictOf({ key1: 'value1', key2: 'value2' }),
      name: schemaOf({ name: schemaOf({ name: 'name', data: 1n }) }),
    });
    expect(toYaml(dictOf({ config }))).toBe(
      lines(
        'config:',
        '  args:',
        '  - kcl',
        '  - main.k',
        '  labels:',
        '    key1: value1',
        '    key2: value2',
        '  name:',
        '    name:',
        '      name: name',
        '      data: 1',
      ),
    );
  });

  it('writes lists of dicts compactly, not indented under their key', () => {
    const persons = [schemaOf({ name: 'Alice', age: 18n }), schemaOf({ name: 'Bob', age: 10n })];
    expect(toYaml(dictOf({ persons }))).toBe(
      lines('persons:', '- name: Alice', '  age: 18', '- name: Bob', '  age: 10'),
    );
  });

  it('writes nested lists on the dash line', () => {
    expect(toYaml(dictOf({ m: [[1n, 2n], [[3n]]] }))).toBe(lines('m:', '- - 1', '  - 2', '- - - 3'));
  });

  it('writes empty collections in flow style', () => {
    expect(toYaml(dictOf({ a: [], b: dictOf({}), c: [[], dictOf({})] }))).toBe(
      lines('a: []', 'b: {}', 'c:', '- []', '- {}'),
    );
    expect(toYaml(dictOf({}))).toBe('{}\n');
    expect(toYaml([])).toBe('[]\n');
  });

  it('keeps insertion order unless sortKeys (sort_keys/config, sort_keys/schema)', () => {
    const value = dictOf({ c: schemaOf({ b: 1n, a: 2n }), a: dictOf({ z: [dictOf({ w: 1n, v: 2n })] }) });
    expect(toYaml(value)).toBe(lines('c:', '  b: 1', '  a: 2', 'a:', '  z:', '  - w: 1', '    v: 2'));
    expect(toYaml(value, { sortKeys: true })).toBe(
      lines('a:', '  z:', '  - v: 2', '    w: 1', 'c:', '  a: 2', '  b: 1'),
    );
  });

  it('sorts keys by code point, as Rust orders strings', () => {
    const value = dictOf({ '\u{1F600}': 1n, '\uFF21': 2n, b: 3n, B: 4n });
    expect(toYaml(value, { sortKeys: true })).toBe(lines('B: 4', 'b: 3', '\uFF21: 2', '\u{1F600}: 1'));
  });

  it('omits Undefined, functions, schema types and modules in dicts and lists', () => {
    const value = dictOf({ a: UNDEFINED, f: fn, s: schemaType, m: mod, l: [1n, UNDEFINED, fn, null, 2n], none: null });
    expect(toYaml(value)).toBe(lines('l:', '- 1', '- null', '- 2', 'none: null'));
  });

  it('drops private keys and None on request (builtins/yaml/output_2)', () => {
    const person = dictOf({
      _key: 'value',
      name: 'Alice',
      age: 18n,
      data: [1n, 2n, null],
      labels: dictOf({ key1: 'value1', _key2: 'value2', key3: null }),
    });
    expect(toYaml(person, { ignorePrivate: true })).toBe(
      lines('name: Alice', 'age: 18', 'data:', '- 1', '- 2', '- null', 'labels:', '  key1: value1', '  key3: null'),
    );
    expect(toYaml(person, { ignoreNone: true })).toBe(
      lines(
        '_key: value',
        'name: Alice',
        'age: 18',
        'data:',
        '- 1',
        '- 2',
        'labels:',
        '  key1: value1',
        '  _key2: value2',
      ),
    );
  });

  it('writes keys over 128 bytes as explicit `?` entries, as libyaml does', () => {
    const key = 'k'.repeat(129);
    expect(toYaml(dictOf({ ['k'.repeat(128)]: 1n, [key]: 2n }))).toBe(
      lines(`${'k'.repeat(128)}: 1`, `? ${key}`, ': 2'),
    );
  });
});

describe('toYaml: scalars', () => {
  it('writes None, bools and ints plainly', () => {
    expect(toYaml(dictOf({ a: null, b: true, c: false, d: -5n, e: 9007199254740993n }))).toBe(
      lines('a: null', 'b: true', 'c: false', 'd: -5', 'e: 9007199254740993'),
    );
  });

  it('writes floats as ryu does', () => {
    const floats = [1.0, 1.2, 2097152.0, -0.5, 1e15, 1e16, 1.5e-7, 0.0001, 1e-5, 1e-6, 1.234e20, -0.0, NaN, Infinity];
    expect(toYaml(dictOf({ f: floats }))).toBe(
      lines(
        'f:',
        '- 1.0',
        '- 1.2',
        '- 2097152.0',
        '- -0.5',
        '- 1000000000000000.0',
        '- 1e16',
        '- 1.5e-7',
        '- 0.0001',
        '- 0.00001',
        '- 1e-6',
        '- 1.234e20',
        '- -0.0',
        '- null',
        '- null',
      ),
    );
  });

  it("single-quotes strings another parser could read as non-strings ('' '1' 'true' 'null')", () => {
    const value = dictOf({
      file: '',
      name: '1',
      version: '1.6.0',
      ip: '192.168.1.0',
      a: '0xff',
      id: '000',
      b: '-0x2a',
      timeout: '5m',
      diligent: 'true',
      t: 'True',
      nul: 'null',
      tilde: '~',
      notANumber: 'NaN',
      dot: '.5',
      neg: '-a',
      plain: 'inf',
    });
    expect(toYaml(value)).toBe(
      lines(
        "file: ''",
        "name: '1'",
        "version: '1.6.0'",
        "ip: '192.168.1.0'",
        "a: '0xff'",
        "id: '000'",
        "b: '-0x2a'",
        "timeout: '5m'",
        "diligent: 'true'",
        "t: 'True'",
        "nul: 'null'",
        "tilde: '~'",
        "notANumber: 'NaN'",
        "dot: '.5'",
        "neg: '-a'",
        'plain: inf',
      ),
    );
  });

  it('quotes YAML 1.1 booleans, keys included (yaml/on, lambda_7 snapshot)', () => {
    expect(toYaml(dictOf({ on: 'on' }))).toBe("'on': 'on'\n");
    expect(toYaml(dictOf({ x: dictOf({ r: 1n }), y: dictOf({ v: 1n }), Off: 'NO' }))).toBe(
      lines('x:', '  r: 1', "'y':", '  v: 1', "'Off': 'NO'"),
    );
    expect(toYaml(dictOf({ '1': '2', '': 'x' }))).toBe(lines("'1': '2'", "'': x"));
  });

  it('quotes strings with indicators, colons and comments only where YAML needs it', () => {
    const value = dictOf({
      info: 'name: Alice, age: 1',
      content: 'value: "test"',
      jsonStr: '{"key1": "value1", "key2": "value2"}',
      html: '<div>test</div>',
      escaped: '&lt;div&gt;',
      url: 'http://example.com/a?b=c#d',
      cidr: '10.5.0.0/16',
      comment: 'a #b',
      hash: 'a#b',
      lead: '#a',
      quote: "it's",
      startQuote: "'x",
      bang: '!',
      comma: ',',
      space: ' ',
      endColon: 'key:',
      colon: 'a:b',
    });
    expect(toYaml(value)).toBe(
      lines(
        "info: 'name: Alice, age: 1'",
        'content: \'value: "test"\'',
        'jsonStr: \'{"key1": "value1", "key2": "value2"}\'',
        'html: <div>test</div>',
        "escaped: '&lt;div&gt;'",
        'url: http://example.com/a?b=c#d',
        "cidr: '10.5.0.0/16'",
        "comment: 'a #b'",
        'hash: a#b',
        "lead: '#a'",
        "quote: it's",
        "startQuote: '''x'",
        "bang: '!'",
        "comma: ','",
        "space: ' '",
        "endColon: 'key:'",
        'colon: a:b',
      ),
    );
  });

  it('double-quotes strings with characters YAML cannot show, using libyaml escapes', () => {
    const value = dictOf({ r: 'lo W\r', t: 'a\tb', c: '\u0001\u007f\u0085\u2029\uFEFF', e: '\u001b"\\' });
    expect(toYaml(value)).toBe(lines('r: "lo W\\r"', 't: "a\\tb"', 'c: "\\x01\\x7F\\N\\P\\uFEFF"', 'e: "\\e\\"\\\\"'));
  });

  it('writes unicode text as is (builtins/str/chars)', () => {
    const value = dictOf({ b: Array.from('你好， 世界！'), msg: '流水型', nbsp: 'a\u00a0b' });
    expect(toYaml(value)).toBe(
      lines('b:', '- 你', '- 好', '- ，', "- ' '", '- 世', '- 界', '- ！', 'msg: 流水型', 'nbsp: a\u00a0b'),
    );
  });

  it('writes multi-line strings as literal blocks (builtins/yaml/encode_1)', () => {
    const value = dictOf({
      data_string: 'key1: value1\nkey2: value2\ndata:\n- 1\n- 2\n- 3\n',
      nested: dictOf({ yamlStr: 'key1: value1\nkey2: value2\n' }),
      noFinalBreak: 'line1\nline2',
    });
    expect(toYaml(value)).toBe(
      lines(
        'data_string: |',
        '  key1: value1',
        '  key2: value2',
        '  data:',
        '  - 1',
        '  - 2',
        '  - 3',
        'nested:',
        '  yamlStr: |',
        '    key1: value1',
        '    key2: value2',
        'noFinalBreak: |-',
        '  line1',
        '  line2',
      ),
    );
  });

  it('picks block headers and falls back to double quotes like libyaml (builtins/str/splitlines)', () => {
    const b = ['Hel\n', '\n', 'lo W\r', 'or\n', 'ld'];
    expect(toYaml(dictOf({ b }))).toBe(lines('b:', '- |', '  Hel', '- |2+', '', '- "lo W\\r"', '- |', '  or', '- ld'));
    const value = dictOf({ lead: ' x\ny', inner: 'x\n y', spaceBreak: 'x \ny', trailing: 'x\ny ', blank: 'a\n\nb' });
    expect(toYaml(value)).toBe(
      lines(
        'lead: |2-',
        '   x',
        '  y',
        'inner: |-',
        '  x',
        '   y',
        'spaceBreak: "x \\ny"',
        'trailing: "x\\ny "',
        'blank: |-',
        '  a',
        '',
        '  b',
      ),
    );
  });

  it('ends the document with `...` after a trailing keep-chomped block, as libyaml does', () => {
    expect(toYaml(dictOf({ z: 'end\n\n' }))).toBe(lines('z: |+', '  end', '', '...'));
    expect(toYaml(dictOf({ z: 'end\n\n', w: 'x\n' }))).toBe(lines('z: |+', '  end', '', 'w: |', '  x'));
  });

  it('renders root scalars (manifests/yaml_stream/multiple_literal_1)', () => {
    expect([1n, UNDEFINED, 2097152.0, 3.0, 'literal', true, false, null].map((v) => toYaml(v))).toEqual([
      '1\n',
      'null\n',
      '2097152.0\n',
      '3.0\n',
      'literal\n',
      'true\n',
      'false\n',
      'null\n',
    ]);
    expect(toYaml('a\nb')).toBe(lines('|-', '  a', '  b'));
  });
});

describe('toYamlStream', () => {
  it('separates documents with --- lines (manifests/yaml_stream/list)', () => {
    const docs = [dictOf({ k1: [1n, 2n], k2: [3n, 4n] }), dictOf({ k3: [5n, 6n] }), dictOf({ k5: [9n, 10n] })];
    expect(toYamlStream(docs)).toBe(
      lines('k1:', '- 1', '- 2', 'k2:', '- 3', '- 4', '---', 'k3:', '- 5', '- 6', '---', 'k5:', '- 9', '- 10'),
    );
  });

  it('uses a custom separator and passes options on (manifests/yaml_stream/config_sep)', () => {
    const docs = [schemaOf({ name: 'kcl', age: 1n }), schemaOf({ name: 'kcl', age: 101n, _x: 1n })];
    expect(toYamlStream(docs, { sep: '\n---\n', ignorePrivate: true })).toBe(
      lines('name: kcl', 'age: 1', '', '---', '', 'name: kcl', 'age: 101'),
    );
    expect(toYamlStream([])).toBe('');
  });
});

describe('toJson', () => {
  it('separates with ", " and ": " on one line (jsonStr golden)', () => {
    expect(toJson(dictOf({ key1: 'value1', key2: 'value2' }))).toBe('{"key1": "value1", "key2": "value2"}');
    expect(toJson(dictOf({ a: [1n, 2n, 3n], b: 's', c: dictOf({}), d: [], e: 1.0, f: null, g: true }))).toBe(
      '{"a": [1, 2, 3], "b": "s", "c": {}, "d": [], "e": 1.0, "f": null, "g": true}',
    );
  });

  it('indents and filters like json.encode(indent=4, ignore_private, ignore_none) (builtins/json/output_0)', () => {
    const person = schemaOf({ _hidden: 1n, name: 'Alice', age: 18n, school: UNDEFINED, data: [1n, 2n, null] });
    expect(toJson(person, { indent: 4, ignorePrivate: true })).toBe(
      [
        '{',
        '    "name": "Alice",',
        '    "age": 18,',
        '    "data": [',
        '        1,',
        '        2,',
        '        null',
        '    ]',
        '}',
      ].join('\n'),
    );
    expect(toJson(person, { indent: 2, ignorePrivate: true, ignoreNone: true, sortKeys: true })).toBe(
      ['{', '  "age": 18,', '  "data": [', '    1,', '    2', '  ],', '  "name": "Alice"', '}'].join('\n'),
    );
  });

  it('escapes strings as serde_json and writes floats as ryu', () => {
    expect(toJson(['a"b\\c\n\t\u0001\u007f同步', 1e16, 1.5e-7, 0.1, NaN, fn, UNDEFINED])).toBe(
      '["a\\"b\\\\c\\n\\t\\u0001\u007f同步", 1e16, 1.5e-7, 0.1, null]',
    );
  });
});

describe('plainData', () => {
  it('converts to plain arrays and objects with the same filtering', () => {
    const value = dictOf({
      a: 1n,
      big: 2n ** 60n,
      f: 1.5,
      l: [null, UNDEFINED, 'x', dictOf({})],
      _p: true,
      u: UNDEFINED,
      fn,
    });
    const plain = plainData(value, { ignorePrivate: true });
    expect(plain).toMatchObject({ a: 1, big: 2n ** 60n, f: 1.5, l: [null, 'x', {}] });
    expect(Object.keys(plain as object)).toEqual(['a', 'big', 'f', 'l']);
    // A `__proto__` key stays an own data property instead of replacing the prototype.
    const inner = plainData(new DictValue([['__proto__', 'p']])) as object;
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(inner, '__proto__')?.value).toBe('p');
  });
});
