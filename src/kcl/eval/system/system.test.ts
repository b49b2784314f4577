import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KclError } from '../../../diagnostics/diagnostics.js';
import { toYamlStream, type YamlStreamOptions } from '../../yaml.js';
import { DictValue, dictOf, UNDEFINED, type BuiltinHost, type FunctionValue, type Value } from '../values.js';
import { SYSTEM_MODULES, type SystemContext } from './index.js';
import { diagnosticOf, testHost } from '../../testing.js';

let sandbox: string;
let workspace: string;
let ctx: SystemContext;
let host: BuiltinHost;
/** The functions that said they reach outside the program. */
let outsideCalls = 0;
let manifests: Array<{ stream: string; options: YamlStreamOptions }>;

beforeAll(() => {
  sandbox = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-system-')));
  workspace = path.join(sandbox, 'workspace');
  fs.mkdirSync(path.join(workspace, 'data'), { recursive: true });
  fs.mkdirSync(path.join(sandbox, 'outside'));
  fs.writeFileSync(path.join(sandbox, 'outside', 'secret.txt'), 'secret');
  fs.symlinkSync(path.join(sandbox, 'outside'), path.join(workspace, 'escape'));
  fs.writeFileSync(path.join(workspace, 'test.txt'), 'ABCDEF');
  for (const [i, key] of ['value1', 'value3'].entries()) {
    fs.writeFileSync(path.join(workspace, 'data', `test${i + 1}.json`), `{"key1": "${key}"}`);
  }
  fs.writeFileSync(path.join(workspace, 'data', 'notes.md'), '# notes');
  manifests = [];
  ctx = {
    workspaceRoot: workspace,
    currentFile: () => path.join(workspace, 'main.k'),
    readEnv: (key) => (key === 'KDECK_TEST' ? 'yes' : undefined),
    setManifestsOutput: (documents, options) =>
      void manifests.push({ stream: toYamlStream(documents, options), options }),
  };
  host = testHost({ system: ctx, reachesOutside: () => void outsideCalls++ });
});

afterAll(() => {
  fs.rmSync(sandbox, { recursive: true, force: true });
});

function member(module: string, name: string): Value {
  const factory = SYSTEM_MODULES.get(module);
  if (!factory) throw new Error(`no system module ${module}`);
  const v = factory().members.get(name);
  if (v === undefined) throw new Error(`no member ${module}.${name}`);
  return v;
}

function call(qualified: string, args: Value[] = [], kwargs: Record<string, Value> = {}): Value {
  const [module, name] = qualified.split('.');
  const fn = member(module, name) as FunctionValue;
  return fn.call({ args, kwargs: new Map(Object.entries(kwargs)) }, host);
}

const failure = diagnosticOf;

function plain(v: Value): unknown {
  if (v instanceof DictValue) return Object.fromEntries([...v.entries].map(([k, x]) => [k, plain(x)]));
  if (Array.isArray(v)) return v.map(plain);
  return v;
}

describe('SYSTEM_MODULES', () => {
  it('holds kcl system modules', () => {
    expect([...SYSTEM_MODULES.keys()].sort()).toEqual([
      'base32',
      'base64',
      'collection',
      'crypto',
      'datetime',
      'file',
      'json',
      'manifests',
      'math',
      'net',
      'regex',
      'runtime',
      'template',
      'units',
      'yaml',
    ]);
  });

  it('builds a module once, for every program', () => {
    const math = SYSTEM_MODULES.get('math');
    const file = SYSTEM_MODULES.get('file');
    expect(math?.()).toBe(math?.());
    expect(file?.()).toBe(file?.());
    expect(math?.().kind).toBe('module');
    expect(math?.().name).toBe('math');
  });

  it('runs context-bound functions in the context of the program calling them', () => {
    const current = member('file', 'current') as FunctionValue;
    const other = testHost({ system: { ...ctx, currentFile: () => path.join(workspace, 'other.k') } });
    expect(current.call({ args: [], kwargs: new Map() }, host)).toBe(path.join(workspace, 'main.k'));
    expect(current.call({ args: [], kwargs: new Map() }, other)).toBe(path.join(workspace, 'other.k'));
  });

  it('has functions that read files, the clock or randomness say so, and pure ones not', () => {
    const before = outsideCalls;
    call('math.log', [8n, 2n]);
    call('json.encode', [dictOf({ a: 1n })]);
    call('crypto.sha256', ['abc']);
    expect(outsideCalls).toBe(before);
    call('file.read', ['test.txt']);
    call('crypto.filesha256', ['test.txt']);
    call('datetime.ticks');
    call('crypto.uuid');
    expect(outsideCalls).toBe(before + 4);
  });

  it('checks arity like the builtins', () => {
    expect(failure(() => call('math.ceil', [1n, 2n]))).toMatchObject({
      kind: 'CompileError',
      message: '"ceil" takes 1 positional argument but 2 were given',
    });
    expect(failure(() => call('regex.match', ['a'])).message).toBe('expected 2 positional arguments, found 1');
  });
});

describe('math', () => {
  it('rounds to ints', () => {
    expect(call('math.ceil', [-45.17])).toBe(-45n);
    expect(call('math.ceil', [100.12])).toBe(101n);
    expect(call('math.floor', [-45.17])).toBe(-46n);
    expect(call('math.floor', [2.4])).toBe(2n);
    expect(call('math.ceil', [7n])).toBe(7n);
    expect(failure(() => call('math.floor', [NaN])).kind).toBe('EvaluationError');
    expect(failure(() => call('math.ceil', ['1'])).message).toBe("ceil() argument 'x' must be int or float, not 'str'");
  });

  it('computes factorial and gcd as ints', () => {
    expect(call('math.factorial', [5n])).toBe(120n);
    expect(call('math.factorial', [0n])).toBe(1n);
    expect(call('math.factorial', [20n])).toBe(2432902008176640000n);
    expect(failure(() => call('math.factorial', [21n])).message).toBe('factorial() result overflow');
    expect(failure(() => call('math.factorial', [-1n])).message).toBe('factorial() only accepts integral values');
    expect(call('math.gcd', [60n, 48n])).toBe(12n);
    expect(call('math.gcd', [-4n, 6n])).toBe(2n);
    expect(call('math.gcd', [], { a: 0n, b: 0n })).toBe(0n);
  });

  it('classifies floats', () => {
    expect([1n, 0n, NaN].map((x) => call('math.isfinite', [x]))).toEqual([true, true, false]);
    expect([1n, Infinity, NaN].map((x) => call('math.isinf', [x]))).toEqual([false, true, false]);
    expect([1n, 0.5, NaN].map((x) => call('math.isnan', [x]))).toEqual([false, false, true]);
  });

  it('splits into fractional and integral parts', () => {
    expect(call('math.modf', [100.12])).toEqual([0.12000000000000455, 100]);
    expect(call('math.modf', [100.72])).toEqual([0.7199999999999989, 100]);
    expect(call('math.modf', [3n])).toEqual([0, 3]);
    expect(call('math.modf', [-Infinity])).toEqual([-0, -Infinity]);
  });

  it('gives floats for exponentials, logarithms, powers and roots', () => {
    expect(call('math.exp', [2n])).toBe(7.38905609893065);
    expect(call('math.exp', [-6.89])).toBe(0.0010179138409954387);
    // V8's expm1 and the C library's kcl calls may differ in the last bit
    expect(call('math.expm1', [-10.89])).toBeCloseTo(-0.9999813562576684, 15);
    expect(call('math.log', [2.7183])).toBe(1.0000066849139877);
    expect(call('math.log', [1.0])).toBe(0);
    expect(call('math.log', [8n], { e: 2.0 })).toBe(3);
    expect(call('math.log1p', [1n])).toBe(Math.LN2);
    expect(call('math.log2', [2n])).toBe(1);
    expect(call('math.log2', [2.7183])).toBe(1.4427046851812222);
    expect(call('math.log10', [2n])).toBe(0.3010299956639812);
    expect(call('math.pow', [9n, 3n])).toBe(729);
    expect(typeof call('math.pow', [9n, 3n])).toBe('number');
    expect(call('math.sqrt', [9n])).toBe(3);
  });
});

describe('regex', () => {
  const ipPattern = String.raw`^(1\d{2}|2[0-4]\d|25[0-5]|[1-9]\d|[1-9])\.(1\d{2}|2[0-4]\d|25[0-5]|[1-9]\d|\d)\.(1\d{2}|2[0-4]\d|25[0-5]|[1-9]\d|\d)\.(1\d{2}|2[0-4]\d|25[0-5]|[1-9]\d|\d)$`;

  it('matches, searches and validates patterns', () => {
    expect(call('regex.match', ['192.168.0.1', ipPattern])).toBe(true);
    expect(call('regex.match', ['192.168.0,1', ipPattern])).toBe(false);
    expect(call('regex.search', ['aaaa', 'a'])).toBe(true);
    expect(call('regex.search', ['bbb', 'a'])).toBe(false);
    expect(call('regex.compile', ['$^'])).toBe(true);
    expect(call('regex.compile', ['(unclosed'])).toBe(false);
  });

  it('matches at the start of the string only, as documented', () => {
    expect(call('regex.match', ['abc', 'b'])).toBe(false);
    expect(call('regex.match', ['abc', 'ab'])).toBe(true);
    expect(call('regex.search', ['abc', 'b'])).toBe(true);
  });

  it('supports look-around and named groups', () => {
    const label = '^(?!-)[a-z0-9-]{1,63}(?<!-)$';
    expect(['x', 'x-7', '6x'].map((s) => call('regex.match', [s, label]))).toEqual([true, true, true]);
    expect(['$', 'x'.repeat(64), 'x-', '_x2'].map((s) => call('regex.match', [s, label]))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(call('regex.replace', ['2024-08-26', '(?P<y>\\d+)-(?P<m>\\d+)-(?P<d>\\d+)', '${d}/${m}/$y'])).toBe(
      '26/08/2024',
    );
    expect(call('regex.match', ['abab', '(?P<x>ab)(?P=x)'])).toBe(true);
  });

  it('finds all matches, or their groups when there are several', () => {
    expect(call('regex.findall', ['aaaa', 'a'])).toEqual(['a', 'a', 'a', 'a']);
    expect(call('regex.findall', ['4Gi', String.raw`^(\d{0,63})(E|P|T|G|M|K|Ei|Pi|Ti|Gi|Mi|Ki)$`])).toEqual([
      ['4', 'Gi'],
    ]);
    // one group still lists whole matches, as kcl does
    expect(call('regex.findall', ['a1 b2', '([a-z])\\d'])).toEqual(['a1', 'b2']);
    // Rust skips an empty match right after the previous match
    expect(call('regex.findall', ['baaac', 'a*'])).toEqual(['', 'aaa', '']);
  });

  it('splits and replaces', () => {
    const source = 'Apple,Google,Baidu,Xiaomi';
    expect(call('regex.split', [source, ','])).toEqual(['Apple', 'Google', 'Baidu', 'Xiaomi']);
    expect(call('regex.split', [source, ','], { maxsplit: 2n })).toEqual(['Apple', 'Google', 'Baidu,Xiaomi']);
    expect(call('regex.replace', [source, ',', '|'])).toBe('Apple|Google|Baidu|Xiaomi');
    expect(call('regex.replace', [source, ',', '|', 1n])).toBe('Apple|Google,Baidu,Xiaomi');
    expect(call('regex.replace', ['a-b', '(\\w)-(\\w)', '$2$$$1'])).toBe('b$a');
  });

  it('reads Rust syntax JS spells differently', () => {
    expect(call('regex.match', ['x-1', String.raw`^x\-1$`])).toBe(true);
    expect(call('regex.match', ['naïve', String.raw`^\w+$`])).toBe(true);
    expect(call('regex.match', ['٣', String.raw`^\d$`])).toBe(true);
    expect(call('regex.match', [']', '^[]a]$'])).toBe(true);
    expect(call('regex.match', ['Ab9', '^[[:alpha:]]+[[:digit:]]$'])).toBe(true);
    expect(call('regex.match', ['ABC', '(?i)^abc$'])).toBe(true);
    expect(call('regex.match', ['a\rb', '^a.b$'])).toBe(true);
    expect(call('regex.match', ['a\nb', '^a.b$'])).toBe(false);
    expect(call('regex.match', ['é', String.raw`^\x{e9}$`])).toBe(true);
  });

  it('refuses syntax a JS RegExp cannot express, even in compile', () => {
    const d = failure(() => call('regex.compile', ['a(?i)b']));
    expect(d.kind).toBe('EvaluationError');
    expect(d.message).toContain('inline flags');
    expect(failure(() => call('regex.match', ['a', '[a-z&&[^b]]'])).message).toContain('set operation');
    expect(failure(() => call('regex.match', ['a', '('])).message).toContain("invalid regex pattern '('");
  });
});

describe('json', () => {
  const person = dictOf({ _key: 'value', name: 'Alice', age: 18n, data: [1n, 2n, null] });

  it('encodes as kcl does', () => {
    expect(call('json.encode', [dictOf({ key: 'value' })])).toBe('{"key": "value"}');
    expect(call('json.encode', [[1n, 2n, 3n]])).toBe('[1, 2, 3]');
    expect(call('json.encode', [1.1])).toBe('1.1');
    expect(call('json.encode', [null])).toBe('null');
    expect(call('json.encode', [person], { indent: 4n, ignore_private: true, ignore_none: true })).toBe(
      '{\n    "name": "Alice",\n    "age": 18,\n    "data": [\n        1,\n        2\n    ]\n}',
    );
    expect(call('json.encode', [dictOf({ b: 1n, a: 2n })], { sort_keys: true })).toBe('{"a": 2, "b": 1}');
  });

  it('decodes ints, floats and ordered dicts', () => {
    const decoded = call('json.decode', [
      '{"b": 1, "a": [1.0, 2e3, null, true, "x\\u00e9"], "big": 9223372036854775807}',
    ]);
    expect(decoded).toBeInstanceOf(DictValue);
    expect([...(decoded as DictValue).entries.keys()]).toEqual(['b', 'a', 'big']);
    expect(plain(decoded)).toEqual({ b: 1n, a: [1, 2000, null, true, 'xé'], big: 9223372036854775807n });
    expect(call('json.decode', ['1'])).toBe(1n);
    expect(call('json.decode', ['1.1'])).toBe(1.1);
    expect(failure(() => call('json.decode', ['[1, 2,]'])).message).toBe('trailing comma at line 1 column 7');
  });

  it('validates strict JSON', () => {
    for (const ok of ['1', 'true', '1.20', 'null', '[0, 1, 2]', '{"key": "value"}'])
      expect(call('json.validate', [ok])).toBe(true);
    for (const bad of ['1@', 'True', '1.20.23+1', 'None', '[0, 1, 2,]', `{"key": 'value'}`, '', '01']) {
      expect(call('json.validate', [bad])).toBe(false);
    }
  });

  it('merges patches as RFC 7396', () => {
    const src = dictOf({ a: 1n, b: dictOf({ x: 1n, y: 2n }), c: 3n });
    const patch = dictOf({ b: dictOf({ y: 20n, z: 30n }), c: null, d: 4n });
    expect(plain(call('json.merge', [src, patch]))).toEqual({ a: 1n, b: { x: 1n, y: 20n, z: 30n }, d: 4n });
    expect(call('json.merge', [src, 'replaced'])).toBe('replaced');
    expect(plain(src)).toEqual({ a: 1n, b: { x: 1n, y: 2n }, c: 3n });
  });

  it('dumps to a file in the workspace', () => {
    expect(
      call('json.dump_to_file', [person, 'out.json'], { indent: 4n, ignore_private: true, ignore_none: true }),
    ).toBe(UNDEFINED);
    expect(fs.readFileSync(path.join(workspace, 'out.json'), 'utf8')).toBe(
      '{\n    "name": "Alice",\n    "age": 18,\n    "data": [\n        1,\n        2\n    ]\n}',
    );
    expect(failure(() => call('json.dump_to_file', [1n, '../outside/x.json'])).message).toContain(
      'outside the workspace',
    );
  });
});

describe('yaml', () => {
  it('encodes one document or a stream', () => {
    expect(call('yaml.encode', [dictOf({ key: 'value' })])).toBe('key: value\n');
    expect(call('yaml.encode', [dictOf({ _a: 1n, b: null, c: 2n })], { ignore_private: true, ignore_none: true })).toBe(
      'c: 2\n',
    );
    expect(call('yaml.encode_all', [[dictOf({ key: 'value' }), [1n, 2n, 3n]]])).toBe(
      'key: value\n\n---\n- 1\n- 2\n- 3\n',
    );
    expect(call('yaml.encode_all', [[1n, 2n, 3n]])).toBe('1\n\n---\n2\n\n---\n3\n');
  });

  it('decodes with the core schema: ints, floats, ordered dicts', () => {
    expect(plain(call('yaml.decode', ['key: value']))).toEqual({ key: 'value' });
    expect(call('yaml.decode', ['- 1\n- 2\n- 3'])).toEqual([1n, 2n, 3n]);
    expect(call('yaml.decode', ['1.1'])).toBe(1.1);
    expect(call('yaml.decode', ['null'])).toBeNull();
    expect(call('yaml.decode', ['true'])).toBe(true);
    expect(call('yaml.decode', ['yes'])).toBe('yes');
    expect(call('yaml.decode', ['0x10'])).toBe(16n);
    const d = call('yaml.decode', ['b: 1.0\na: &x [1]\nc: *x\n1: int key\n']) as DictValue;
    expect([...d.entries.keys()]).toEqual(['b', 'a', 'c', '1']);
    expect(plain(d)).toEqual({ b: 1, a: [1n], c: [1n], '1': 'int key' });
    expect(failure(() => call('yaml.decode', ['a: 1\n---\nb: 2'])).message).toContain('more than one document');
    expect(failure(() => call('yaml.decode', ['a:\n1'])).kind).toBe('EvaluationError');
  });

  it('decodes every document of a stream', () => {
    expect(plain(call('yaml.decode_all', ['key1: value2\n---\nkey2: [1, 2, 3]']))).toEqual([
      { key1: 'value2' },
      { key2: [1n, 2n, 3n] },
    ]);
    expect(call('yaml.decode_all', ['1.1\n---\nnull\n---\ntrue\n---\nfalse'])).toEqual([1.1, null, true, false]);
    expect(plain(call('yaml.decode_all', ['key: value\n']))).toEqual([{ key: 'value' }]);
  });

  it('validates documents and streams', () => {
    for (const ok of ['1', 'true', '1.20', 'null', '[0, 1, 2]', '{"key": "value"}', 'a:1\n---\nb:2']) {
      expect(call('yaml.validate', [ok])).toBe(true);
    }
    for (const bad of [
      'a:\n1',
      'a:\n1\n  - 2',
      'a:\n-1',
      '1a   : \n1',
      'a:\n- 1\n-----\na:\n- 1',
      `{"key" + 'value'}`,
      'a:1\n-----\nb:\n-2',
    ]) {
      expect(call('yaml.validate', [bad])).toBe(false);
    }
  });

  it('dumps documents and streams to files in the workspace', () => {
    call('yaml.dump_to_file', ['key: value', 'a.yaml']);
    expect(fs.readFileSync(path.join(workspace, 'a.yaml'), 'utf8')).toBe("'key: value'\n");
    call('yaml.dump_all_to_file', [['key: value', '- 1\n- 2'], 'all.yaml']);
    expect(fs.readFileSync(path.join(workspace, 'all.yaml'), 'utf8')).toBe("'key: value'\n\n---\n|-\n  - 1\n  - 2\n");
    call('yaml.dump_to_file', [], { data: dictOf({ _a: 1n, b: 2n }), filename: 'b.yaml', ignore_private: true });
    expect(fs.readFileSync(path.join(workspace, 'b.yaml'), 'utf8')).toBe('b: 2\n');
    expect(failure(() => call('yaml.dump_to_file', [1n, '/tmp/kdeck-escape.yaml'])).message).toContain(
      "dump_to_file() refuses the path '/tmp/kdeck-escape.yaml'",
    );
  });
});

describe('base64 and base32', () => {
  it('round-trips UTF-8 text', () => {
    expect(call('base64.encode', ['0.3.0'])).toBe('MC4zLjA=');
    expect(call('base64.decode', ['MC4zLjA='])).toBe('0.3.0');
    expect(call('base64.decode', [call('base64.encode', ['同步'])])).toBe('同步');
    expect(call('base32.encode', ['0.3.0'])).toBe('GAXDGLRQ');
    expect(call('base32.decode', ['GAXDGLRQ'])).toBe('0.3.0');
    expect(call('base32.encode', ['f'])).toBe('MY======');
    expect(call('base32.decode', ['MZXW6YTBOI======'])).toBe('foobar');
  });

  it('refuses malformed input', () => {
    expect(failure(() => call('base64.decode', ['not base64!'])).kind).toBe('EvaluationError');
    expect(failure(() => call('base32.decode', ['gaxdglrq'])).kind).toBe('EvaluationError');
    expect(call('base32.decode', ['74======'])).toBeNull();
  });
});

describe('units', () => {
  it('defines the SI and IEC multipliers', () => {
    expect(member('units', 'n')).toBe(1e-9);
    expect(member('units', 'm')).toBe(0.001);
    expect(member('units', 'K')).toBe(1000n);
    expect(member('units', 'P')).toBe(1000000000000000n);
    expect(member('units', 'Mi')).toBe(1048576n);
    expect(member('units', 'Pi')).toBe(1125899906842624n);
  });

  it('writes quantities with a unit suffix, truncating', () => {
    expect(call('units.to_n', [1e-9])).toBe('1n');
    expect(call('units.to_u', [1e-6])).toBe('1u');
    expect(call('units.to_m', [1e-1])).toBe('100m');
    expect(call('units.to_K', [1000n])).toBe('1K');
    expect(call('units.to_P', [10000000000000000n])).toBe('10P');
    expect(call('units.to_Ki', [1024n])).toBe('1Ki');
    expect(call('units.to_Gi', [4294967296.0])).toBe('4Gi');
    expect(call('units.to_K', [1500n])).toBe('1K');
    expect(call('units.to_Pi', [1024n ** 5n])).toBe('1Pi');
  });
});

describe('datetime', () => {
  it('formats the current time', () => {
    expect(call('datetime.date')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(call('datetime.today')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.1\d{9}$/);
    expect(call('datetime.now')).toMatch(/^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2} \d{4}$/);
    expect(call('datetime.now', ['%H:%M:%S'])).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    expect(call('datetime.now', ['%Y%%%-m'])).toMatch(/^\d{4}%\d{1,2}$/);
    const ticks = call('datetime.ticks');
    expect(typeof ticks).toBe('number');
    expect(Math.abs(Number(ticks) - Date.now() / 1000)).toBeLessThan(5);
  });

  it('validates dates against chrono formats', () => {
    for (const ok of ['2024-08-26', '1998-06-06', '2000-01-01', '2024-02-29']) {
      expect(call('datetime.validate', [ok, '%Y-%m-%d'])).toBe(true);
    }
    for (const bad of [
      '2024-13-26',
      '2024-06-32',
      '2024-08-26abc',
      'not-a-date',
      '2024-08',
      '08-26',
      '2024-08-26 10:00',
      '2023-02-29',
    ]) {
      expect(call('datetime.validate', [bad, '%Y-%m-%d'])).toBe(false);
    }
    expect(call('datetime.validate', ['Sat Jun 06 16:26:11 1998', '%a %b %d %H:%M:%S %Y'])).toBe(true);
    expect(call('datetime.validate', ['Mon Jun 06 1998', '%a %b %d %Y'])).toBe(false);
    // like chrono, a valid time is enough even when the date around it is inconsistent
    expect(call('datetime.validate', ['Mon Jun 06 16:26:11 1998', '%a %b %d %H:%M:%S %Y'])).toBe(true);
    expect(call('datetime.validate', ['16:26:11', '%H:%M:%S'])).toBe(true);
    expect(call('datetime.validate', ['25:26:11', '%H:%M:%S'])).toBe(false);
    expect(call('datetime.validate', ['2024-08-26T10:00:00+08:00', '%Y-%m-%dT%H:%M:%S%:z'])).toBe(true);
    expect(call('datetime.validate', [call('datetime.now'), '%a %b %d %H:%M:%S %Y'])).toBe(true);
    expect(call('datetime.validate', [call('datetime.date'), '%Y-%m-%d %H:%M:%S'])).toBe(true);
  });

  it('recognises RFC 3339 and ISO 8601', () => {
    expect(call('datetime.is_rfc3339', ['2024-08-26T10:00:00Z'])).toBe(true);
    expect(call('datetime.is_rfc3339', ['2024-08-26T10:00:00.123+08:00'])).toBe(true);
    expect(call('datetime.is_rfc3339', ['2024-08-26'])).toBe(false);
    expect(call('datetime.is_rfc3339', ['2024-02-30T10:00:00Z'])).toBe(false);
    expect(call('datetime.is_iso8601', ['P3Y6M4DT12H30M5S'])).toBe(true);
    expect(call('datetime.is_iso8601', ['P'])).toBe(false);
    expect(call('datetime.is_iso8601', ['PT'])).toBe(false);
  });
});

describe('crypto', () => {
  it('hashes UTF-8 text in hex', () => {
    expect(call('crypto.md5', ['ABCDEF'])).toBe('8827a41122a5028b9808c7bf84b9fcf6');
    expect(call('crypto.sha1', ['ABCDEF'])).toBe('970093678b182127f60bb51b8af2c94d539eca3a');
    expect(call('crypto.sha224', ['ABCDEF'])).toBe('fd6639af1cc457b72148d78e90df45df4d344ca3b66fa44598148ce4');
    expect(call('crypto.sha256', ['ABCDEF'], { encoding: 'UTF-8' })).toBe(
      'e9c0f8b575cbfcb42ab3b78ecc87efa3b011d9a5d10b09fa4e96f240bf6a82f5',
    );
    expect(call('crypto.sha384', ['ABCDEF'])).toBe(
      '39e0cc1b02b8c082b64643cdcae0e6180e460e1f717824c78b17f946c9864c90c04c55067b231e69b0ad5bd19d12a065',
    );
    expect(call('crypto.sha512', ['ABCDEF'])).toBe(
      '569350085b223ba854dfc5d607643ceb85e4607e46e5a9ad3696f898e29d8a3fe22610956167cefb7e2ba769e740f94b31e4e3c52195ba65e64ba40d82343591',
    );
    expect(failure(() => call('crypto.md5', ['x', 'gbk'])).message).toContain("encoding 'gbk' is not supported");
  });

  it('says blake3 is unavailable rather than guessing', () => {
    expect(failure(() => call('crypto.blake3', ['ABCDEF'])).message).toContain('no BLAKE3');
    expect(failure(() => call('crypto.fileblake3', ['test.txt'])).message).toContain('no BLAKE3');
  });

  it('hashes workspace files only', () => {
    expect(call('crypto.filesha256', ['test.txt'])).toBe(
      'e9c0f8b575cbfcb42ab3b78ecc87efa3b011d9a5d10b09fa4e96f240bf6a82f5',
    );
    expect(call('crypto.filesha512', ['test.txt'])).toBe(call('crypto.sha512', ['ABCDEF']));
    expect(failure(() => call('crypto.filesha256', ['escape/secret.txt'])).message).toContain(
      'through a symbolic link',
    );
    expect(failure(() => call('crypto.filesha256', ['missing.txt'])).message).toBe(
      "failed to access file 'missing.txt': No such file or directory (os error 2)",
    );
  });

  it('makes random v4 UUIDs', () => {
    const a = call('crypto.uuid');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(call('crypto.uuid')).not.toBe(a);
  });
});

describe('net', () => {
  it('splits and joins host and port', () => {
    expect(call('net.split_host_port', ['B-K0NZJGH6-0048.local:80'])).toEqual(['B-K0NZJGH6-0048.local', '80']);
    expect(call('net.split_host_port', ['[::1]:8080'])).toEqual(['::1', '8080']);
    expect(failure(() => call('net.split_host_port', ['host'])).message).toBe('ip_end_point "host" missing port');
    expect(failure(() => call('net.split_host_port', ['a:b:c'])).message).toBe('ip_end_point "a:b:c" too many colons');
    expect(call('net.join_host_port', ['B-K0NZJGH6-0048.local', 80n])).toBe('B-K0NZJGH6-0048.local:80');
    expect(call('net.join_host_port', ['::1', '80'])).toBe('[::1]:80');
  });

  it('parses addresses strictly', () => {
    const invalid = [
      '192.168.0,1',
      '192.168.0.',
      '192.',
      '256.168.0.1',
      '255.255.0.-1',
      '192.0022.1.1',
      '0xFF.0xFF.0xFF.0xFF',
      '1::2::3',
      '1:2:3:4:5:6::7:8',
    ];
    for (const ip of invalid) expect(call('net.is_IP', [ip])).toBe(false);
    for (const ip of ['255.255.0.1', '1.0.0.0', '2001:0db8:3c4d:0015:0000:0000:1a2f:1a2b', '::', '::ffff:1.2.3.4']) {
      expect(call('net.is_IP', [ip])).toBe(true);
    }
    expect(call('net.is_IPv4', ['10.0.0.1'])).toBe(true);
    expect(call('net.is_IPv4', ['::1'])).toBe(false);
    expect(call('net.is_IPv6', ['::1'])).toBe(true);
  });

  it('writes addresses as Rust does', () => {
    expect(call('net.IP_string', ['2001:0DB8:0000:0000:0000:0000:0000:0001'])).toBe('2001:db8::1');
    expect(call('net.parse_IP', ['1:0:0:1:0:0:0:1'])).toBe('1:0:0:1::1');
    expect(call('net.parse_IP', ['1:2:0:4:5:6:7:8'])).toBe('1:2:0:4:5:6:7:8');
    expect(call('net.parse_IP', ['nope'])).toBe('');
    expect(call('net.to_IP4', ['::FFFF:192.168.1.10'])).toBe('192.168.1.10');
    expect(call('net.to_IP4', ['0:0:0:0:0:FFFF:AC10:0001'])).toBe('172.16.0.1');
    expect(call('net.to_IP6', ['192.168.1.10'])).toBe('::ffff:192.168.1.10');
    expect(call('net.to_IP16', ['2001:db8:0:0::1'])).toBe('2001:db8::1');
    expect(failure(() => call('net.to_IP4', ['2001:db8::1'])).kind).toBe('EvaluationError');
  });

  it('classifies addresses', () => {
    expect(call('net.is_multicast_IP', ['239.255.255.255'])).toBe(true);
    expect(call('net.is_loopback_IP', ['127.0.0.1'])).toBe(true);
    expect(call('net.is_link_local_multicast_IP', ['224.0.0.0'])).toBe(true);
    expect(call('net.is_link_local_multicast_IP', ['ff12::1'])).toBe(true);
    expect(call('net.is_link_local_unicast_IP', ['fe80::2012:1'])).toBe(true);
    expect(call('net.is_global_unicast_IP', ['220.181.108.89'])).toBe(true);
    expect(call('net.is_global_unicast_IP', ['10.1.2.3'])).toBe(false);
    expect(call('net.is_global_unicast_IP', ['2607:f8b0:4005:802::200e'])).toBe(true);
    expect(call('net.is_global_unicast_IP', ['64:ff9b::800:1'])).toBe(true);
    expect(call('net.is_global_unicast_IP', ['2001:db8::1'])).toBe(false);
    expect(call('net.is_unspecified_IP', ['0.0.0.0'])).toBe(true);
    expect(call('net.is_interface_local_multicast_IP', ['224.0.0.0'])).toBe(false);
    expect(call('net.is_interface_local_multicast_IP', ['ff11::1'])).toBe(true);
  });

  it('works with CIDR blocks', () => {
    expect(plain(call('net.parse_CIDR', ['192.168.1.0/24']))).toEqual({ ip: '192.168.1.0', mask: 24n });
    expect(plain(call('net.parse_CIDR', ['192.168.1.1/24']))).toEqual({});
    expect(call('net.is_IP_in_CIDR', ['192.168.1.1', '192.168.1.0/24'])).toBe(true);
    expect(call('net.is_IP_in_CIDR', ['192.168.0.1', '192.168.1.0/24'])).toBe(false);
    expect(call('net.is_IP_in_CIDR', ['2001:db8::1', '2001:db8::/64'])).toBe(true);
    expect(call('net.is_IP_in_CIDR', ['1.2.3.4', '::ffff:0:0/96'])).toBe(true);
    expect(call('net.CIDR_subnet', ['10.0.0.0/8', 8n, 5n])).toBe('10.5.0.0/16');
    expect(call('net.CIDR_subnet', ['2001:db8::/56', 8n, 25n])).toBe('2001:db8:0:19::/64');
    expect(call('net.CIDR_subnets', ['10.0.0.0/8', [8n, 8n]])).toEqual(['10.0.0.0/16', '10.1.0.0/16']);
    expect(call('net.CIDR_subnets', ['2001:db8::/56', [8n, 8n]])).toEqual(['2001:db8::/64', '2001:db8:0:1::/64']);
    expect(call('net.CIDR_subnets', ['10.0.0.0/8', [16n, 8n, 16n]])).toEqual([
      '10.0.0.0/24',
      '10.1.0.0/16',
      '10.0.1.0/24',
    ]);
    expect(call('net.CIDR_host', ['10.0.0.0/8', 5n])).toBe('10.0.0.5');
    expect(call('net.CIDR_host', ['10.0.0.0/8', -1n])).toBe('10.255.255.255');
    expect(call('net.CIDR_host', ['2001:db8::/56', 25n])).toBe('2001:db8::19');
    expect(call('net.CIDR_netmask', ['10.0.0.0/8'])).toBe('255.0.0.0');
    expect(failure(() => call('net.CIDR_subnet', ['10.0.0.0/8', 2n, 4n])).message).toBe(
      'CIDR_subnet() additional_bits of 2 does not accommodate a net_num of 4',
    );
    expect(failure(() => call('net.CIDR_host', ['10.0.0.0/30', 4n])).message).toBe(
      'CIDR_host() prefix of 30 does not accommodate a host numbered 4',
    );
    expect(failure(() => call('net.CIDR_netmask', ['::/0'])).message).toBe(
      'CIDR_netmask() IPv6 addresses cannot have a netmask',
    );
  });

  it('answers fqdn without DNS', () => {
    expect(call('net.fqdn', ['example.internal'])).toBe('example.internal');
    expect(call('net.fqdn')).toBe(os.hostname());
  });
});

describe('file', () => {
  it('reads, lists and inspects workspace files', () => {
    expect(call('file.read', ['test.txt'])).toBe('ABCDEF');
    expect(call('file.glob', ['./data/*.json'])).toEqual(['./data/test1.json', './data/test2.json']);
    expect(call('file.glob', ['**/*.md'])).toEqual(['data/notes.md']);
    expect(call('file.exists', ['test.txt'])).toBe(true);
    expect(call('file.exists', ['nope.txt'])).toBe(false);
    expect(call('file.abs', ['data/../test.txt'])).toBe(path.join(workspace, 'test.txt'));
    expect(call('file.size', ['test.txt'])).toBe(6n);
    expect(call('file.current')).toBe(path.join(workspace, 'main.k'));
    expect(call('file.modpath')).toBe(workspace);
    expect(call('file.workdir')).toBe('');
    expect(call('file.read_env', ['KDECK_TEST'])).toBe('yes');
    expect(call('file.read_env', ['KDECK_NOT_SET'])).toBe(UNDEFINED);
  });

  it('writes, copies, moves and deletes inside the workspace', () => {
    expect(call('file.mkdir', ['tmp/nested'])).toBeNull();
    call('file.write', ['tmp/nested/a.txt', 'Hello, world!']);
    call('file.append', ['tmp/nested/a.txt', '!']);
    expect(fs.readFileSync(path.join(workspace, 'tmp/nested/a.txt'), 'utf8')).toBe('Hello, world!!');
    call('file.cp', ['tmp/nested', 'tmp/copy']);
    expect(call('file.read', ['tmp/copy/a.txt'])).toBe('Hello, world!!');
    expect(failure(() => call('file.cp', ['tmp', 'tmp/copy/again'])).message).toContain(
      'the destination is inside the source',
    );
    call('file.mv', ['tmp/copy/a.txt', 'tmp/b.txt']);
    expect(call('file.exists', ['tmp/b.txt'])).toBe(true);
    call('file.delete', ['tmp/b.txt']);
    call('file.delete', ['tmp/copy']);
    expect(call('file.exists', ['tmp/copy'])).toBe(false);
    expect(failure(() => call('file.delete', ['tmp'])).message).toBe(
      "failed to delete 'tmp': Directory not empty (os error 39)",
    );
  });

  it('reports file errors as kcl does', () => {
    expect(failure(() => call('file.read', ['not_exist.txt'])).message).toBe(
      "failed to access the file 'not_exist.txt': No such file or directory (os error 2)",
    );
    expect(failure(() => call('file.cp', ['source.txt', 'destination.txt'])).message).toBe(
      "Failed to copy from 'source.txt' to 'destination.txt': No such file or directory (os error 2)",
    );
    expect(failure(() => call('file.mv', ['source.txt', 'destination.txt'])).message).toBe(
      "Failed to move 'source.txt' to 'destination.txt': No such file or directory (os error 2)",
    );
    expect(failure(() => call('file.size', ['source_file.txt'])).message).toBe(
      "failed to get size of 'source_file.txt': No such file or directory (os error 2)",
    );
    expect(failure(() => call('file.delete', ['test_dir'])).message).toBe(
      "failed to delete 'test_dir': No such file or directory (os error 2)",
    );
  });

  it('refuses every path outside the workspace, naming it', () => {
    const outside = path.join(sandbox, 'outside', 'secret.txt');
    const cases: Array<[string, Value[]]> = [
      ['file.read', ['../outside/secret.txt']],
      ['file.read', [outside]],
      ['file.exists', ['/etc/passwd']],
      ['file.size', ['../outside/secret.txt']],
      ['file.write', ['../outside/new.txt', 'x']],
      ['file.mkdir', ['../outside/dir']],
      ['file.delete', ['../outside/secret.txt']],
      ['file.cp', ['test.txt', '../outside/copy.txt']],
      ['file.cp', ['../outside/secret.txt', 'copy.txt']],
      ['file.mv', ['test.txt', '../outside/moved.txt']],
      ['file.glob', ['../outside/*']],
      ['file.abs', ['..']],
    ];
    for (const [fn, args] of cases) {
      const d = failure(() => call(fn, args));
      expect(d.kind).toBe('EvaluationError');
      expect(d.message).toMatch(/refuses the path '.*': it resolves to '.*', outside the workspace '.*'/);
      expect(d.message).toContain(
        `'${String(args[fn === 'file.cp' && args[0] === 'test.txt' ? 1 : fn === 'file.mv' ? 1 : 0])}'`,
      );
    }
    expect(fs.existsSync(path.join(sandbox, 'outside', 'new.txt'))).toBe(false);
    expect(fs.existsSync(path.join(workspace, 'test.txt'))).toBe(true);
  });

  it('refuses paths that leave the workspace through a symlink', () => {
    const d = failure(() => call('file.read', ['escape/secret.txt']));
    expect(d.message).toBe(
      `read() refuses the path 'escape/secret.txt': it resolves through a symbolic link to '${path.join(sandbox, 'outside', 'secret.txt')}', outside the workspace '${workspace}'`,
    );
    expect(failure(() => call('file.write', ['escape/new.txt', 'x'])).message).toContain('through a symbolic link');
    expect(call('file.glob', ['*'])).not.toContain('escape');
    expect(fs.existsSync(path.join(sandbox, 'outside', 'new.txt'))).toBe(false);
  });

  it('refuses to modify the workspace root itself', () => {
    expect(failure(() => call('file.delete', ['.'])).message).toContain('it is the workspace root');
  });
});

describe('manifests', () => {
  it('sets the program output to a YAML stream and returns Undefined', () => {
    manifests.length = 0;
    const x0 = dictOf({ name: 'kcl', age: 1n, _hidden: 1n });
    const x1 = dictOf({ name: 'kcl', age: 101n });
    expect(call('manifests.yaml_stream', [[x0, x1]])).toBe(UNDEFINED);
    expect(manifests[0].stream).toBe('name: kcl\nage: 1\n---\nname: kcl\nage: 101\n');
    call('manifests.yaml_stream', [[x0, x1]], { opts: dictOf({ sort_keys: true, sep: '\n---\n' }) });
    expect(manifests[1].stream).toBe('age: 1\nname: kcl\n\n---\n\nage: 101\nname: kcl\n');
    expect(manifests[1].options).toMatchObject({ sortKeys: true, ignorePrivate: true, ignoreNone: false });
    call('manifests.yaml_stream', [[1n, UNDEFINED, 3.0, 'literal', true, null]]);
    expect(manifests[2].stream).toBe('1\n---\nnull\n---\n3.0\n---\nliteral\n---\ntrue\n---\nnull\n');
    call('manifests.yaml_stream', [[dictOf({ _foo: 'bar', a: null })]], {
      opts: dictOf({ ignore_private: false, ignore_none: true }),
    });
    expect(manifests[3].stream).toBe('_foo: bar\n');
    expect(failure(() => call('manifests.yaml_stream', [[], 1n])).message).toBe(
      'Invalid options arguments in yaml_stream(): expect config, got int',
    );
  });
});

describe('runtime', () => {
  const fn = (body: () => Value): FunctionValue => ({ kind: 'function', name: 'lambda', call: () => body() });

  it('catches kcl errors as their message and gives Undefined otherwise', () => {
    expect(call('runtime.catch', [fn(() => 1n)])).toBe(UNDEFINED);
    expect(
      call('runtime.catch', [
        fn(() => {
          throw new KclError({ kind: 'AssertionError', message: 'error msg' });
        }),
      ]),
    ).toBe('error msg');
    expect(() =>
      call('runtime.catch', [
        fn(() => {
          throw new TypeError('internal');
        }),
      ]),
    ).toThrow(TypeError);
  });
});

describe('collection', () => {
  it('unions configs left to right', () => {
    const a = dictOf({ x: 1n, y: dictOf({ p: 1n }) });
    const b = dictOf({ x: 2n, y: dictOf({ q: 2n }) });
    expect(plain(call('collection.union_all', [[a, b]]))).toEqual({ x: 2n, y: { p: 1n, q: 2n } });
    expect(plain(call('collection.union_all', [[]]))).toEqual({});
    expect(plain(a)).toEqual({ x: 1n, y: { p: 1n } });
  });
});

describe('template', () => {
  it('renders Handlebars templates, escaping HTML unless asked not to', () => {
    expect(call('template.execute', ['hello {{who}}', dictOf({ who: '<b>kcl</b>' })])).toBe(
      'hello &lt;b&gt;kcl&lt;/b&gt;',
    );
    expect(call('template.execute', ['{{raw who}} {{{who}}}', dictOf({ who: '<b>' })])).toBe('<b> <b>');
    expect(call('template.execute', ['{{#each xs}}{{this}};{{/each}} {{xs}}', dictOf({ xs: [1n, 2n] })])).toBe(
      '1;2; [1, 2]',
    );
    expect(call('template.html_escape', ['a="b"'])).toBe('a&#x3D;&quot;b&quot;');
  });
});
