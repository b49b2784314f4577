/**
 * How configs are built and merged into schemas, as kcl does it: keys with indexes, keys that
 * are expressions, unpacking, the operator a key keeps, None from a config, relaxed index
 * signatures, option() conversions and runtime.catch of a failed check.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKcl, type RunOptions } from './run.js';

const dir = mkdtempSync(path.join(tmpdir(), 'kdeck-config-semantics-'));
let n = 0;

function run(lines: string[], opts: Partial<RunOptions> = {}): string {
  const file = path.join(dir, `case${n++}.k`);
  writeFileSync(file, lines.join('\n') + '\n');
  const result = runKcl({ files: [file], ...opts });
  return result.printed + result.yaml;
}

describe('config keys', () => {
  it('count a negative list index from the end', () => {
    expect(run(['a = {', '    arr = [1, 1, 1]', '    arr[-2] += [0]', '    arr[-1] = 2', '}'])).toBe(
      'a:\n  arr:\n  - 1\n  - 0\n  - 1\n  - 2\n',
    );
  });

  it('are expressions when subscripted with anything but an int', () => {
    const out = run(['_people = [{role = "father", name = "John"}]', 'r = [{p["role"]: p["name"]} for p in _people]']);
    expect(out).toBe('r:\n- father: John\n');
  });

  it('read a loop variable as the first part of a dotted key', () => {
    expect(run(['_d = {a = "x"}', 'r = [{k.foo = v} for k, v in _d]'])).toBe('r:\n- a:\n    foo: x\n');
  });

  it('bring the first part of a dotted key into scope for later values', () => {
    const out = run(['d = {', '    metadata.labels.k1 = "v1"', '    spec.labels = metadata.labels | {k2 = "v2"}', '}']);
    expect(out).toBe('d:\n  metadata:\n    labels:\n      k1: v1\n  spec:\n    labels:\n      k1: v1\n      k2: v2\n');
  });
});

describe('unpacking', () => {
  it("does not put the unpacked dict's keys in scope, and keeps their operators", () => {
    const out = run(['a = {a = 1, b = {c = "d", e = "f"}}', 'b = {"b" = {c = "g"}}', 'c = {**a, **b}']);
    expect(out).toContain('c:\n  a: 1\n  b:\n    c: g\n');
  });

  it('followed by += of the same key inserts the whole list into a schema default', () => {
    const out = run([
      'schema C:',
      '    val: [int] = [0]',
      '_base = {val = [2]}',
      'c = C {',
      '    **_base',
      '    val += [1]',
      '}',
    ]);
    expect(out).toBe('c:\n  val:\n  - 0\n  - 2\n  - 1\n');
  });
});

describe('a config merged into a schema', () => {
  it('leaves a default alone where it sets None or Undefined with :', () => {
    const out = run([
      'schema P:',
      '    name: str = "kcl"',
      '    tags?: [str] = ["a"]',
      'p = P {**{k: v for k, v in {name: None}}, tags: None}',
    ]);
    expect(out).toBe('p:\n  name: kcl\n  tags:\n  - a\n');
  });

  it('unites a list with the default item by item', () => {
    const out = run(['schema G:', '    nums: [{str:}] = [{id = 0}, {id = 1}]', 'g = G {nums: [{d = "x"}]}']);
    expect(out).toBe('g:\n  nums:\n  - id: 0\n    d: x\n  - id: 1\n');
  });

  it('does not hold declared attributes to a [...str] index signature', () => {
    const out = run(['schema T:', '    [...str]: int', '    name: str', 't = T {name = "tpl", id = 1}']);
    expect(out).toBe('t:\n  name: tpl\n  id: 1\n');
  });
});

describe('option() with a type', () => {
  it('converts numbers, booleans and strings as kcl does', () => {
    const out = run(
      [
        'a = option("k1", type="bool")',
        'b = option("k2", type="int")',
        'c = option("k3", type="bool", default="")',
        'd = option("k4", type="float", default="0.5")',
      ],
      {
        options: [
          ['k1', '0'],
          ['k2', '2.0'],
        ],
      },
    );
    expect(out).toBe('a: false\nb: 2\nc: false\nd: 0.5\n');
  });
});

describe('runtime.catch', () => {
  it("gives a failed check's own message", () => {
    const out = run([
      'import runtime',
      'schema P:',
      '    age: int',
      '    check:',
      '        age < 10, "age must be below 10"',
      'msg = runtime.catch(lambda {',
      '    P {age = 100}',
      '})',
    ]);
    expect(out).toBe('msg: age must be below 10\n');
  });
});
