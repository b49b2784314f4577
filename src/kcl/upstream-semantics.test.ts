/**
 * Semantics the upstream KCL grammar suite (kcl-lang/kcl tests/grammar) holds kdeck to, each as
 * a program a user could write and the output kcl gives for it.
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KclError, type Diagnostic } from '../diagnostics/diagnostics.js';
import { runKcl, type RunOptions } from './run.js';

const root = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-upstream-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let count = 0;

/** Runs main.k in a fresh project (kcl.mod, and any other files given). */
function run(files: Record<string, string> | string, opts: Partial<RunOptions> = {}): string {
  const dir = path.join(root, String(count++));
  const all = typeof files === 'string' ? { 'main.k': files } : files;
  for (const [name, text] of Object.entries({ 'kcl.mod': '[package]\n', ...all })) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return runKcl({ files: [path.join(dir, 'main.k')], ...opts }).yaml;
}

const lines = (...l: string[]) => l.join('\n') + '\n';

/** The diagnostic a program fails with (the test fails if it runs). */
function failure(files: Record<string, string> | string, opts: Partial<RunOptions> = {}): Diagnostic {
  try {
    run(files, opts);
  } catch (e) {
    if (e instanceof KclError) return e.diagnostic;
    throw e;
  }
  throw new Error('the program ran without an error');
}

describe('floats in YAML output', () => {
  it('print as kcl prints them after its JSON round trip, which can move the last digit', () => {
    expect(run(lines('import math', 'a = math.modf(100.12)', 'b = 1.175494351e-10 * 1.2220446049250313'))).toBe(
      'a:\n- 0.12000000000000456\n- 100.0\nb: 1.4365065297594008e-10\n',
    );
  });

  it('decode from JSON and YAML text the same way', () => {
    expect(
      run(
        lines(
          'import json',
          'import yaml',
          'a = json.decode("0.12000000000000455")',
          'b = yaml.decode("x: 0.12000000000000455")',
        ),
      ),
    ).toBe('a: 0.12000000000000456\nb:\n  x: 0.12000000000000456\n');
  });
});

describe('schemas of other packages', () => {
  const pkg = lines(
    'schema Name:',
    '    first: str',
    '',
    'schema Person:',
    '    name: Name',
    '',
    'type Other = Person',
  );

  it("typeof(x, full_name=True) names an imported schema's package", () => {
    const main = lines(
      'import pkg',
      'p = pkg.Person {name.first = "a"}',
      't = typeof(p, full_name=True)',
      'u = typeof(p)',
    );
    expect(run({ 'main.k': main, 'pkg/pkg.k': pkg })).toContain('t: pkg.Person\nu: Person\n');
  });

  it('a type alias of a schema instantiates it, here and from another package', () => {
    const main = lines(
      'import pkg',
      'type Mine = pkg.Person',
      'a = pkg.Other {name.first = "a"}',
      'b = Mine {name.first = "b"}',
    );
    expect(run({ 'main.k': main, 'pkg/pkg.k': pkg })).toBe('a:\n  name:\n    first: a\nb:\n  name:\n    first: b\n');
  });

  it('a child may redeclare an inherited attribute with the same schema named through its package', () => {
    const main = lines(
      'import pkg',
      'schema Scholar(pkg.Person):',
      '    name: pkg.Name',
      's = Scholar {name.first = "a"}',
    );
    expect(run({ 'main.k': main, 'pkg/pkg.k': pkg })).toBe('s:\n  name:\n    first: a\n');
  });
});

describe('schema bodies', () => {
  it('a required attribute of a literal type has that literal as its default', () => {
    const main = lines(
      'schema C:',
      '    kind: "Service"',
      '    count: 1',
      '    mem: 1Ki',
      '    enabled: True',
      '    maybe?: "x"',
      'c = C {}',
    );
    expect(run(main)).toBe('c:\n  kind: Service\n  count: 1\n  mem: 1024.0\n  enabled: true\n');
  });

  it('an instance made by a bare expression in a body counts among its schema instances', () => {
    const main = lines(
      'schema B:',
      '    a: int = 1',
      'schema D:',
      '    B()',
      '    k: int = 2',
      'd = D {}',
      'made = len(B.instances())',
    );
    expect(run(main)).toBe('d:\n  k: 2\nmade: 1\n');
  });

  it('an instance a body holds in several places is one instance, as it was made once', () => {
    const main = lines(
      'schema Inner:',
      '    v: int = 1',
      '    check:',
      '        v > 0',
      'schema Outer:',
      '    i: Inner = Inner {}',
      '    pair: [Inner] = [i, i]',
      '    byName: {str:Inner} = {first = i, second = i}',
      'o = Outer {}',
      'made = len(Inner.instances())',
    );
    expect(run(main)).toBe(
      lines(
        'o:',
        '  i:',
        '    v: 1',
        '  pair:',
        '  - v: 1',
        '  - v: 1',
        '  byName:',
        '    first:',
        '      v: 1',
        '    second:',
        '      v: 1',
        'made: 1',
      ),
    );
  });

  it('a rule reads any key of the config it checks', () => {
    const main = lines(
      'protocol P:',
      '    [...str]: str',
      'rule R for P:',
      '    bob == "Bob", "expected Bob"',
      'x = R {bob = "Bob"}',
    );
    expect(run(main)).toBe('x:\n  bob: Bob\n');
  });
});

describe('expressions', () => {
  it('orders a bool as the int it stands for', () => {
    expect(run(lines('a = 1 > False', 'b = 2 < True', 'c = 0.5 < True'))).toBe('a: true\nb: false\nc: true\n');
  });

  it('unpacks dicts into a config with |=, a later scalar replacing an earlier one', () => {
    expect(run(lines('p = {a = 1, b = "u"}', 'q = {b = "v"}', 'r = {**p, **q}'))).toContain('r:\n  a: 1\n  b: v\n');
  });

  it('?[] gives None on any falsy value, an empty dict or list included', () => {
    expect(run(lines('d = {}', 'a = d?["k"]', 'l = []', 'b = l?[0]', 'c = {k = 1}?["k"]'))).toBe(
      'd: {}\na: null\nl: []\nb: null\nc: 1\n',
    );
  });

  it("takes a lambda's parameters in braces when an arrow follows them, and `= {}` as a default", () => {
    const main = lines(
      'f = lambda {',
      '  config: {str:}',
      '} -> any {',
      '    config.key + 1',
      '}',
      'g = lambda attrs: {:} = {} -> {:} {',
      '    attrs',
      '}',
      'h = lambda { "} -> str" # } ->',
      '}',
      'a = f({key = 1})',
      'b = g()',
      'c = h()',
    );
    expect(run(main)).toBe("a: 2\nb: {}\nc: '} -> str'\n");
  });
});

describe('output', () => {
  it('prints a selected list of configs as a stream of documents', () => {
    const main = lines('persons = [{name = "a"}, {name = "b"}]', 'names = ["a"]');
    expect(run(main, { pathSelectors: ['persons'] })).toBe('name: a\n---\nname: b\n');
    expect(run(main, { pathSelectors: ['names'] })).toBe('- a\n');
  });

  it('selects by dotted paths, a list by index, several paths as a list, as kcl does', () => {
    const main = lines('persons = [{name = "a"}, {name = "b"}]', 'team = {lead = "c"}');
    expect(run(main, { pathSelectors: ['persons.1.name'] })).toBe('b\n');
    expect(run(main, { pathSelectors: ['persons.0.name', 'team.lead'] })).toBe('- a\n- c\n');
    // nothing found: kcl's words, at the line its runtime ended on
    const d = failure(lines('list_data = [1, 2, 3]', 'dict_data = {"key1": "value1"}'), {
      pathSelectors: [':list_data.[0,1]'],
    });
    expect([d.message, d.position?.line]).toEqual(['invalid path select operand :list_data.[0,1], value not found', 2]);
  });
});

describe('literal types', () => {
  // kcl's checker lets an int through where a float is declared, a float literal type too; its
  // runtime then refuses it, naming the type as written
  it("refuse an int for a float literal type when the program runs, in the runtime's words", () => {
    const d = failure(lines('schema C:', '    f: 0.0', 'x = C {', '    f: 0', '}'));
    expect([d.kind, d.message, d.position?.line]).toEqual(['EvaluationError', 'expect 0.0, got int', 2]);
  });

  it('name a union of literal types as it was written', () => {
    const d = failure(lines('schema C:', '    x?: True|123|3.14|"abc"|[]|{str:}', 'c = C {', '    x: 443', '}'));
    expect(d.message).toBe('expect True | 123 | 3.14 | "abc" | [] | {str:}, got int');
  });

  it('still refuse before running what the checker refuses: a str for a float literal type', () => {
    const d = failure(lines('schema C:', '    f: 0.0', 'x = C {', '    f: "0"', '}'));
    expect([d.kind, d.message]).toEqual(['TypeError', 'expected float(0), got str(0)']);
  });
});

describe('schema parameters', () => {
  it('are None when a dict is converted to the schema, which passes no arguments', () => {
    const schema = lines('schema Spec[id: str]:', '    name: str = id', '    full?: str');
    const d = failure(
      lines(schema, 'schema Team:', '    d: Spec = Spec("d")', 't = Team {', '    d = {full = "x"}', '}'),
    );
    expect([d.kind, d.message]).toEqual([
      'EvaluationError',
      "attribute 'name' of Spec is required and can't be None or Undefined",
    ]);
    // an argument-less parameter read where None is allowed
    expect(run(lines('schema S[id: str]:', '    given: bool = id == None', 's: S = {}'))).toBe('s:\n  given: true\n');
  });

  it('short of an argument in an explicit call are refused before running', () => {
    const d = failure(lines('schema S[id: str]:', '    name: str = id', 's = S()'));
    expect([d.kind, d.message]).toEqual(['CompileError', 'expected 1 positional argument, found 0']);
  });
});

describe('types named through a module', () => {
  it('that lacks the member are refused at the annotation, as kcl says it', () => {
    const d = failure({
      'main.k': lines('import pkg.info', '', 'schema P:', '    i: info.inf', '', 'p = P {i = {}}'),
      'pkg/info.k': lines('schema info:', '    a?: int'),
    });
    expect([d.kind, d.message, d.position?.line, d.position?.column]).toEqual([
      'TypeError',
      "attribute 'inf' not found in 'module 'pkg.info''",
      4,
      8,
    ]);
  });
});
