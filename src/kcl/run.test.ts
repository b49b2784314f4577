import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KclError } from '../diagnostics/diagnostics.js';
import { PluginRegistry } from './plugins.js';
import { runKcl, type RunOptions } from './run.js';
import { diagnosticOf } from './testing.js';

const dir = mkdtempSync(path.join(tmpdir(), 'kdeck-run-'));
let n = 0;

function run(source: string, opts: Partial<RunOptions> = {}): string {
  const file = path.join(dir, `case${n++}.k`);
  writeFileSync(file, source);
  const result = runKcl({ files: [file], ...opts });
  return result.printed + result.yaml;
}

const failure = (source: string) => diagnosticOf(() => run(source));

describe('kcl run: values and output', () => {
  it('prints globals in source order, hiding private and Undefined ones', () => {
    expect(run('b = 1\n_hidden = 2\na = [1, "x", True, None, 1.5]\nc = Undefined\n')).toBe(
      'b: 1\na:\n- 1\n- x\n- true\n- null\n- 1.5\n',
    );
  });

  it('uses 64-bit ints and Python division semantics', () => {
    expect(run('a = 7 // -2\nb = -7 % 3\nc = 7 / 2\nd = 2 ** 62\n')).toBe(
      'a: -4\nb: 2\nc: 3.5\nd: 4611686018427387904\n',
    );
    expect(failure('a = 2 ** 63\n')).toMatchObject({ kind: 'IntOverflow' });
  });

  it('evaluates comprehensions, quantifiers, lambdas and string interpolation', () => {
    const out = run(
      [
        'xs = [x * x for x in range(5) if x % 2 == 0]',
        'd = {k: v for k, v in {a = 1, b = 2} if v > 1}',
        'ok = all x in xs { x >= 0 }',
        'big = filter x in xs { x > 1 }',
        'inc = lambda x: int, step = 1 -> int { x + step }',
        'total = inc(1, step = 10)',
        's = "${total} items: ${xs: #json}"',
      ].join('\n') + '\n',
    );
    expect(out).toBe(
      "xs:\n- 0\n- 4\n- 16\nd:\n  b: 2\nok: true\nbig:\n- 4\n- 16\ntotal: 11\ns: '11 items: [0, 4, 16]'\n",
    );
  });

  it('merges configs with union, override and insert operators', () => {
    const out = run('base = {labels.app = "web", ports = [80]}\nd = base | {labels.tier = "fe", ports += [443]}\n');
    expect(out).toContain('d:\n  labels:\n    app: web\n    tier: fe\n  ports:\n  - 80\n  - 443\n');
    expect(failure('a = {x: 1, x: 2}\n').message).toMatch(/conflicting values on the attribute 'x'/);
  });

  it('reads a global by its final value whatever the order', () => {
    expect(run('r = _v\n_v = "base"\n_v = "final"\n')).toBe('r: final\n');
  });

  it('passes -D options through option() with types and defaults', () => {
    const src =
      'env = option("env", default="dev")\nreplicas = option("replicas", type="int")\nflags = option("flags")\n';
    expect(
      run(src, {
        options: [
          ['replicas', '3'],
          ['flags', '["a","b"]'],
        ],
      }),
    ).toBe('env: dev\nreplicas: 3\nflags:\n- a\n- b\n');
  });

  it('leaves None out with disableNone and sorts keys on request', () => {
    expect(run('b = None\na = {z = 1, y = None}\n', { disableNone: true, sortKeys: true })).toBe('a:\n  z: 1\n');
  });
});

describe('kcl run: number multipliers', () => {
  it('keep the number as written for str() and print their real value', () => {
    const src =
      'a = 100m\nb = 1Ki\ns = [str(100m), "${4Gi}", typeof(1Ki)]\nnums = [int(1500m), float(1Ki), int(2Ki)]\n';
    expect(run(src)).toBe(
      "a: 0.1\nb: 1024.0\ns:\n- '100m'\n- '4Gi'\n- number_multiplier(1Ki)\nnums:\n- 1\n- 1024.0\n- 2048\n",
    );
  });

  it('are their own type: units.NumberMultiplier, not int, and no operand', () => {
    const src = 'import units\nschema R:\n    cpu?: int | units.NumberMultiplier = 1\nr = R {cpu = 100m}\nq = R {}\n';
    expect(run(src)).toBe('r:\n  cpu: 0.1\nq:\n  cpu: 1\n');
    expect(failure('x: int = 1Ki\n').message).toBe('expected int, got number_multiplier(1Ki)');
    expect(failure('x = 1Ki + 1\n').message).toMatch(
      /^unsupported operand type\(s\) for \+: 'number_multiplier\(1Ki\)'/,
    );
  });
});

describe('kcl run: schemas', () => {
  const person = [
    'schema Base:',
    '    kind: str = "Person"',
    'schema Person(Base):',
    '    name: str',
    '    age?: int = 1',
    '    greeting = "hi ${name}"',
    '    check:',
    '        age >= 0, "age must not be negative"',
    '',
  ].join('\n');

  it('instantiates with defaults, inheritance and attributes that read others', () => {
    expect(run(`${person}p = Person {name = "ann"}\n`)).toBe(
      'p:\n  kind: Person\n  name: ann\n  age: 1\n  greeting: hi ann\n',
    );
  });

  it('reports a failed check with its message and where it is', () => {
    const d = failure(`${person}p = Person {name = "ann", age = -1}\n`);
    expect(d.message).toBe('Instance check failed');
    expect(d.related?.[0].message).toBe('Check failed on the condition: age must not be negative');
  });

  it('refuses unknown attributes, missing required ones and wrong types', () => {
    expect(failure(`${person}p = Person {name = "a", nick = "b"}\n`).message).toBe(
      "Cannot add member 'nick' to schema 'Person'",
    );
    expect(failure(`${person}p = Person {}\n`).message).toBe(
      "attribute 'name' of Person is required and can't be None or Undefined",
    );
    expect(failure(`${person}p = Person {name = 1}\n`).message).toBe('expected str, got int(1)');
  });

  it('unites name: S {...} in a body or mixin with what the attribute holds already', () => {
    const src = [
      'schema Mapping:\n    [str]: any\n',
      'mixin AMixin:\n    kubernetes: Mapping {\n        A = [1]\n    }\n',
      'mixin BMixin:\n    kubernetes: Mapping {\n        B = [len(kubernetes?.C or [])]\n    }\n',
      'schema S:\n    mixin [AMixin, BMixin]\n    kubernetes: Mapping = {\n        C = [3]\n    }\n',
      's = S {}',
      '',
    ].join('\n');
    expect(run(src)).toBe('s:\n  kubernetes:\n    C:\n    - 3\n    A:\n    - 1\n    B:\n    - 1\n');
  });

  it('instantiates repeated name: S {...} in a body together, so derived attributes see every one', () => {
    const src = [
      'schema P:\n    name?: str\n    age?: int\n    info: str = "${name}/${age}"\n',
      'schema D:\n    p: P {age = 1}\n    if False:\n        p: P {age = 2}\n    p: P {name = "a"}\n',
      'd = D {}',
      '',
    ].join('\n');
    expect(run(src)).toBe('d:\n  p:\n    name: a\n    age: 1\n    info: a/1\n');
  });

  it('turns nested dicts into instances of attribute schemas', () => {
    const src =
      'schema Port:\n    port: int\n    protocol: "TCP" | "UDP" = "TCP"\nschema Svc:\n    ports: [Port]\ns = Svc {ports = [{port = 80}]}\n';
    expect(run(src)).toBe('s:\n  ports:\n  - port: 80\n    protocol: TCP\n');
  });

  it('merges repeated unification statements before instantiating', () => {
    const src = 'schema C:\n    a: int\n    b: int\nc: C {a = 1}\nc: C {b = 2}\n';
    expect(run(src)).toBe('c:\n  a: 1\n  b: 2\n');
  });
});

describe('kcl run: schema types at runtime', () => {
  const schemas = 'schema A:\n    a: int = 1\n\nschema B:\n    b: int = 2\n\nschema Box:\n    item: A\n\n';

  it('lets an instance of another schema through where kcl only checks at runtime', () => {
    expect(run(schemas + 'mk = lambda { B {} }\nbox = Box {item = mk()}\n')).toBe('box:\n  item:\n    b: 2\n');
  });

  it('refuses an instance written in place for another schema, and any other under as', () => {
    expect(failure(schemas + 'box = Box {item = B {}}\n')).toMatchObject({
      kind: 'TypeError',
      message: 'expected A, got B',
    });
    expect(failure(schemas + 'x: A = B {}\n')).toMatchObject({ kind: 'TypeError', message: 'expected A, got B' });
    // kcl's checker lets `as` through; its runtime names what the two schemas do not share
    expect(failure(schemas + 'b = B {}\na = b as A\n')).toMatchObject({
      kind: 'EvaluationError',
      message:
        "expect A, got B. For details:\nSchema A does not contain attribute b\nSchema A's attribute a is missing",
    });
  });

  it("refuses a global assigned another schema as a schema argument, where kcl's checker knows its type", () => {
    const src = schemas + 'schema Wrap[item: A]:\n    x: int = 1\n\n';
    expect(failure(src + 'b = B {}\nw = Wrap(b)\n')).toMatchObject({
      kind: 'TypeError',
      message: 'expected A, got B',
      position: { line: 14, column: 10 },
    });
    expect(run(src + 'mk = lambda { B {} }\nw = Wrap(mk())\n')).toContain('w:\n  x: 1\n');
  });
});

describe('kcl run: output types of KCL up to v0.7', () => {
  const standalone = '{__settings__: {output_type = "STANDALONE"}}';

  it('accepts __settings__ in any schema, and keeps it out of dict checks and of the output', () => {
    const src = [
      'schema R:\n    id: str\n',
      'schema Mapping:\n    [str]: any\n',
      'r = R {id = "a", __settings__: {output_type = "INLINE"}}',
      'maps: [{str:[]}] = [Mapping {k = [1]} | {__settings__: {output_type = "INLINE"}}]',
      '',
    ].join('\n');
    expect(run(src)).toBe('r:\n  id: a\nmaps:\n- k:\n  - 1\n');
  });

  it('prints STANDALONE values as documents of their own and leaves IGNORE ones out', () => {
    const src = [
      'schema App:\n    __settings__: {str:str} = {output_type = "IGNORE"}\n    name: str\n',
      'app = App {name = "web"}',
      `resources = [{id = "ns"} | ${standalone}, {id = "svc", attributes = {x = 1}} | ${standalone}]`,
      'top = 1',
      '',
    ].join('\n');
    expect(run(src)).toBe('top: 1\n---\nid: ns\n---\nid: svc\nattributes:\n  x: 1\n');
  });

  it('prints neither empty lists nor bare expressions for a program whose kcl.mod expects KCL v0.4', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'kdeck-v04-'));
    writeFileSync(path.join(root, 'main.k'), 'a = []\nb = [1]\n{c = 1}\n');
    expect(runKcl({ files: [path.join(root, 'main.k')] }).yaml).toBe('a: []\nb:\n- 1\nc: 1\n');
    writeFileSync(path.join(root, 'kcl.mod'), '[expected]\nkclvm_version="v0.4.0"\n');
    expect(runKcl({ files: [path.join(root, 'main.k')] }).yaml).toBe('b:\n- 1\n');
  });

  it('lets config entries read earlier keys only for programs written for KCL v0.4.5 or later', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'kdeck-v045-'));
    writeFileSync(path.join(root, 'main.k'), '_name = "outer"\ncfg = {_name = "inner", label = _name}\n');
    const label = () => runKcl({ files: [path.join(root, 'main.k')] }).yaml;
    expect(label()).toBe('cfg:\n  label: inner\n');
    writeFileSync(path.join(root, 'kcl.mod'), '[expected]\nkclvm_version = "v0.4.4"\n');
    expect(label()).toBe('cfg:\n  label: outer\n');
    writeFileSync(path.join(root, 'kcl.mod'), '[expected]\nkclvm_version = "v0.4.5"\n');
    expect(label()).toBe('cfg:\n  label: inner\n');
  });
});

describe('kcl run: errors name their place', () => {
  it('places a conflict between bare expressions at the later one, a config shown as {...}', () => {
    expect(failure('1\n2\n')).toMatchObject({
      message: 'conflicting values between 2 and 1',
      position: { line: 2, column: 1, lineOnly: true },
    });
    expect(failure('a = 1\n1\n')).toMatchObject({
      message: 'conflicting values between {...} and 1',
      position: { line: 2 },
    });
    expect(run('{a = 1}\n{b = 2}\n')).toBe('a: 1\nb: 2\n');
  });

  it("reports every literal argument that does not fit a lambda's or schema's parameter, beside the parameter", () => {
    const d = failure('f = lambda age: int, name: "KCL" | "CUE" {\n    age\n}\nx = f("1", "Go")\n');
    expect(
      [d, ...(d.also ?? [])].map(
        (x) => `${x.position?.line}:${x.position?.column} ${x.message} / ${x.related?.[0]?.message}`,
      ),
    ).toEqual([
      '4:7 expected int, got str(1) / variable is defined here, its type is int, but got str(1)',
      '4:12 expected str(KCL) | str(CUE), got str(Go) / variable is defined here, its type is str(KCL) | str(CUE), but got str(Go)',
    ]);
    expect(run('f = lambda n: float {\n    n * 2\n}\nx = f(1)\n')).toBe('x: 2.0\n');
    // one call site, two lambdas: the argument that fit the first is still checked against the second
    expect(
      failure('fs = [lambda n: int {\n    n\n}, lambda n: str {\n    n\n}]\nxs = [f(1) for f in fs]\n'),
    ).toMatchObject({ message: 'expected str, got int(1)', position: { line: 6, column: 9 } });
    expect(failure('schema P[data: str, n: int]:\n    count: int = n\n\np = P(data="a", n="1")\n')).toMatchObject({
      message: 'expected int, got str(1)',
      position: { line: 4, column: 19 },
      related: [
        { position: { line: 1, column: 21 }, message: 'variable is defined here, its type is int, but got str(1)' },
      ],
    });
  });

  it('refuses a config key whose value is not a string at the key, naming its type as kcl does', () => {
    expect(failure('items = [{name = "a"}]\nout = [{item: 1} for item in items]\n')).toMatchObject({
      kind: 'IllegalAttributeError',
      message: "A attribute must be string type, got '{str:str}'",
      position: { line: 2, column: 9 },
    });
  });

  it('names an inheritance cycle from its first schema along its parents, at every schema of it', () => {
    const d = failure(
      'schema Parent(Son):\n    a: str\n\nschema Son(GrandSon):\n    b: str\n\nschema GrandSon(Parent):\n    c: str\n',
    );
    expect([d, ...(d.also ?? [])].map((x) => `${x.position?.line} ${x.message}`)).toEqual([
      '1 There is a circular reference between schemas Parent, Son, GrandSon',
      '4 There is a circular reference between schemas Parent, Son, GrandSon',
      '7 There is a circular reference between schemas Parent, Son, GrandSon',
    ]);
  });

  it("refuses a child's change of an inherited attribute's type at the attribute", () => {
    const d = failure('schema P:\n    name: str\n\nschema C(P):\n    name: int\n\nc = C {name = 1}\n');
    expect(d).toMatchObject({
      // kcl's checker names the new type on both sides
      message: "can't change schema field type of 'name' from int to int",
      position: { line: 5, column: 5 },
    });
  });

  it('refuses a change under an imported module as a change of an immutable name, pointing at the import', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'kdeck-modify-'));
    writeFileSync(path.join(root, 'kcl.mod'), '');
    mkdirSync(path.join(root, 'pkg'));
    writeFileSync(path.join(root, 'pkg', 'a.k'), 'a = 0\n');
    writeFileSync(path.join(root, 'main.k'), 'import pkg\n\npkg.a = 1\n');
    expect(diagnosticOf(() => runKcl({ files: [path.join(root, 'main.k')] }))).toMatchObject({
      kind: 'ImmutableError',
      message: "Can not change the value of 'pkg', because it was declared immutable",
      position: { line: 3 },
      related: [{ position: { line: 1, column: 1 }, message: "The variable 'pkg' is declared here" }],
    });
  });

  it('checks a key a schema does not declare against its index signature, at the key', () => {
    expect(failure('schema Data:\n    [str]: int\n\ndata = Data {\n    name: "test"\n}\n')).toMatchObject({
      kind: 'TypeError',
      message: 'expected int, got str(test)',
      position: { line: 5, column: 5 },
    });
    const keys = 'type _foo = "foo" | "bar"\n\nschema S:\n    [_foo]: str\n\ns = S {\n    foo = "x"\n    baz: "y"\n}\n';
    expect(failure(keys)).toMatchObject({
      kind: 'CompileError',
      message: `Cannot add member 'baz' to schema 'S', did you mean '["bar"]'?`,
      position: { line: 8, column: 5 },
    });
    // one config, two schemas: keys that fit the first are still checked against the second
    expect(
      failure('schema A:\n    x?: int\n\nschema B:\n    y?: int\n\nxs = [s {x = 1} for s in [A, B]]\n'),
    ).toMatchObject({
      message: "Cannot add member 'x' to schema 'B'",
      position: { line: 7, column: 10 },
    });
  });

  it('refuses an instance of a child of a deprecated schema', () => {
    const source =
      '@deprecated(version="1.16", reason="use B instead")\nschema A:\n    a: str\n\nschema C(A):\n    c?: str\n\nx = C {}\n';
    expect(failure(source)).toMatchObject({ message: 'A was deprecated since version 1.16, use B instead' });
  });

  it('refuses a member that no schema of a union attribute has, naming them all', () => {
    const src = 'schema A:\n    a: int\n\nschema B:\n    b: int\n\nschema X:\n    x: A | B\n\n';
    expect(failure(`${src}x = X {\n    x.c = 1\n}\n`)).toMatchObject({
      message: `Cannot add member 'c' to 'schemas ["A", "B"]'`,
      position: { line: 11, column: 7 },
    });
    expect(run(`${src}x = X {\n    x.b = 1\n}\n`)).toBe('x:\n  x:\n    b: 1\n');
  });

  it("refuses a literal cast to a type it cannot be, as kcl's checker words it", () => {
    expect(failure('a = 1 as str\n')).toMatchObject({
      message:
        "Conversion of type 'int(1)' to type 'str' may be a mistake because neither type sufficiently overlaps with the other",
      position: { line: 1, column: 5 },
    });
    expect(run('a = 1 as float\nb = "x" as "x" | "y"\n')).toBe('a: 1.0\nb: x\n');
  });

  it('words failed assignments into a path as kcl does', () => {
    expect(failure('_a = [0, 1] * 2\n_a[10] = 2\n')).toMatchObject({
      message: 'index out of bounds: the len is 4 but the index is 10',
      position: { line: 2 },
    });
    expect(failure('_a = [{k = 1}]\n_a[0].x.y += 1\n')).toMatchObject({
      message: "invalid value 'UndefinedType' to load attribute 'y'",
    });
    expect(failure('schema S:\n    a.b = 1\n\ns = S {}\n')).toMatchObject({
      message:
        "failed to update the dict. An iterable of key-value pairs was expected, but got UndefinedType. Check if the syntax for updating the dictionary with the attribute 'b' is correct",
    });
  });

  it('reports an undefined name statically, even in code that never runs', () => {
    const d = failure('schema A:\n    x: int\n    check:\n        regex.match("a", "b")\n');
    expect(d).toMatchObject({
      kind: 'CompileError',
      message: "name 'regex' is not defined",
      position: { line: 4, column: 9 },
    });
  });

  it('refuses to change an immutable global', () => {
    expect(failure('a = 1\na = 2\n')).toMatchObject({ kind: 'ImmutableError', position: { line: 2, column: 1 } });
  });

  it('stops runaway recursion with a diagnostic', () => {
    expect(failure('f = lambda x { f(x) }\ny = f(1)\n')).toMatchObject({ kind: 'RecursionError' });
  });
});

describe('kcl run: packages and plugins', () => {
  it('imports packages from the kcl.mod root, relatively and under another name', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'kdeck-pkg-'));
    writeFileSync(path.join(root, 'kcl.mod'), '[package]\nname = "demo"\n');
    mkdirSync(path.join(root, 'base', 'models'), { recursive: true });
    writeFileSync(
      path.join(root, 'base', 'models', 'app.k'),
      'schema App:\n    name: str\n    port: int = 80\n_hidden = 1\n',
    );
    mkdirSync(path.join(root, 'apps', 'web'), { recursive: true });
    writeFileSync(path.join(root, 'apps', 'web', 'util.k'), 'suffix = "-web"\n');
    writeFileSync(
      path.join(root, 'apps', 'web', 'main.k'),
      'import base.models as m\nimport .util\napp = m.App {name = "a" + util.suffix}\n',
    );
    const out = runKcl({ files: [path.join(root, 'apps', 'web', 'main.k')] });
    expect(out.yaml).toBe('app:\n  name: a-web\n  port: 80\n');
  });

  it('compiles a file named twice once, takes a folder for its .k files and ${KCL_MOD} for the kcl.mod folder', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'kdeck-inputs-'));
    writeFileSync(path.join(root, 'kcl.mod'), '');
    writeFileSync(path.join(root, 'main.k'), 'a = 1\n');
    mkdirSync(path.join(root, 'pkg'));
    writeFileSync(path.join(root, 'pkg', 'b.k'), 'b = 2\n');
    writeFileSync(path.join(root, 'pkg', 'c.k'), 'c = 3\n');
    writeFileSync(path.join(root, 'pkg', 'c_test.k'), 'test_c = lambda { assert False }\n');
    expect(runKcl({ files: ['main.k', path.join(root, 'main.k')], workDir: root }).yaml).toBe('a: 1\n');
    expect(runKcl({ files: ['pkg'], workDir: root }).yaml).toBe('b: 2\nc: 3\n');
    expect(runKcl({ files: ['main.k', '${KCL_MOD}/pkg/b.k'], workDir: root }).yaml).toBe('a: 1\nb: 2\n');
  });

  it("reads a package's `_` names through the module without printing them", () => {
    const root = mkdtempSync(path.join(tmpdir(), 'kdeck-private-'));
    writeFileSync(path.join(root, 'kcl.mod'), '');
    writeFileSync(path.join(root, 'meta.k'), '__NAME = "web"\n_port = 80\n');
    writeFileSync(path.join(root, 'main.k'), 'import meta\nname = meta.__NAME\nport = meta._port\n');
    expect(runKcl({ files: [path.join(root, 'main.k')] }).yaml).toBe('name: web\nport: 80\n');
  });

  it("keeps a private global holding another package's instance as that schema when it is changed", () => {
    const root = mkdtempSync(path.join(tmpdir(), 'kdeck-instance-'));
    writeFileSync(path.join(root, 'kcl.mod'), '');
    writeFileSync(
      path.join(root, 'conf.k'),
      'schema Conf:\n    items: [str] = []\n    port: int = 80\nINSTANCE = Conf {}\n',
    );
    writeFileSync(
      path.join(root, 'main.k'),
      'import conf\n_x = conf.INSTANCE\n_x.items += ["a"]\n_x.port = 81\nout = _x\n',
    );
    expect(runKcl({ files: [path.join(root, 'main.k')] }).yaml).toBe('out:\n  items:\n  - a\n  port: 81\n');
    writeFileSync(path.join(root, 'main.k'), 'import conf\n_x = conf.INSTANCE\n_x = 1\n');
    expect(diagnosticOf(() => runKcl({ files: [path.join(root, 'main.k')] }))).toMatchObject({
      kind: 'TypeError',
      message: 'expected Conf, got int(1)',
    });
  });

  it("checks a schema's attributes against the type aliases of the schema's own module", () => {
    const root = mkdtempSync(path.join(tmpdir(), 'kdeck-alias-'));
    writeFileSync(path.join(root, 'kcl.mod'), '');
    writeFileSync(path.join(root, 'res.k'), 'type Size = int | str\nschema Res:\n    memory: Size = 1\n');
    writeFileSync(path.join(root, 'main.k'), 'import res\nr = res.Res {memory = "1Gi"}\n');
    expect(runKcl({ files: [path.join(root, 'main.k')] }).yaml).toBe("r:\n  memory: '1Gi'\n");
  });

  it('merges the configs of one name across the files of the main package before running', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'kdeck-merge-'));
    writeFileSync(path.join(root, 'schema.k'), 'schema S:\n    x: int\n    y: int\n');
    writeFileSync(path.join(root, 'base.k'), 'a = S {x = 1}\nb = S {x = 1}\n');
    writeFileSync(path.join(root, 'main.k'), 'a: S {y = 2}\nb = S {y = 2}\n');
    const files = ['schema.k', 'base.k', 'main.k'].map((f) => path.join(root, f));
    // `b = S {...}` said twice is an error in current kcl
    expect(() => runKcl({ files })).toThrow(KclError);
    // KCL before v0.4.6 merged it like `b: S {...}`
    writeFileSync(path.join(root, 'kcl.mod'), '[expected]\nkclvm_version = "v0.4.0"\n');
    expect(runKcl({ files }).yaml).toBe("a:\n  x: 1\n  'y': 2\nb:\n  x: 1\n  'y': 2\n");
    writeFileSync(path.join(root, 'base.k'), 'a = S {x = 1}\n');
    writeFileSync(path.join(root, 'main.k'), 'a: S {y = 2}\n');
    rmSync(path.join(root, 'kcl.mod'));
    expect(runKcl({ files }).yaml).toBe("a:\n  x: 1\n  'y': 2\n");
  });

  it('reports an import cycle with its chain', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'kdeck-cycle-'));
    writeFileSync(path.join(root, 'kcl.mod'), '');
    writeFileSync(path.join(root, 'a.k'), 'import b\nx = b.y\n');
    writeFileSync(path.join(root, 'b.k'), 'import a\ny = 1\n');
    writeFileSync(path.join(root, 'main.k'), 'import a\nz = a.x\n');
    try {
      runKcl({ files: [path.join(root, 'main.k')] });
      expect.unreachable();
    } catch (e) {
      expect((e as KclError).diagnostic.message).toContain('a -> b -> a');
    }
  });

  it('calls host functions through kcl_plugin and refuses an unknown plugin', () => {
    const plugins = new PluginRegistry().register('cmdb', { lookup: (args) => [`pod-of-${String(args[0])}`] });
    expect(run('import kcl_plugin.cmdb\npods = cmdb.lookup("h1")\n', { plugins })).toBe('pods:\n- pod-of-h1\n');
    expect(failure('import kcl_plugin.hello\nx = hello.add(1, 2)\n').message).toBe(
      'the plugin package `kcl_plugin.hello` is not found, please confirm if plugin mode is enabled',
    );
  });

  it("offers kusion's project_context plugin: the stack and project of the files compiled", () => {
    const root = mkdtempSync(path.join(tmpdir(), 'kdeck-konfig-'));
    writeFileSync(path.join(root, 'kcl.mod'), '');
    mkdirSync(path.join(root, 'base', 'pkg'), { recursive: true });
    writeFileSync(
      path.join(root, 'base', 'pkg', 'meta.k'),
      'import kcl_plugin.project_context as ctx\nproject = ctx.get_project_context().name\nstack = ctx.get_stack_context().name\n',
    );
    mkdirSync(path.join(root, 'web', 'dev', 'ci-test'), { recursive: true });
    writeFileSync(path.join(root, 'web', 'project.yaml'), 'name: web\n');
    writeFileSync(path.join(root, 'web', 'dev', 'stack.yaml'), 'name: dev\n');
    writeFileSync(path.join(root, 'web', 'dev', 'main.k'), 'x = 1\n');
    const files = [path.join(root, 'base', 'pkg', 'meta.k'), path.join(root, 'web', 'dev', 'main.k')];
    expect(runKcl({ files, workDir: path.join(root, 'web', 'dev') }).yaml).toBe('project: web\nstack: dev\nx: 1\n');
    // outside a stack both read as empty
    expect(
      run(
        'import kcl_plugin.project_context as ctx\np = ctx.get_project_context()\nsize = len(ctx.get_stack_context())\n',
      ),
    ).toBe('p: {}\nsize: 0\n');
  });

  it('offers system modules, and keeps file access inside the workspace', () => {
    expect(run('import math\nimport json\na = math.floor(2.7)\nb = json.encode({k = [1, 2]})\n')).toBe(
      'a: 2\nb: \'{"k": [1, 2]}\'\n',
    );
    expect(failure('import file\nx = file.read("/etc/hostname")\n').message).toMatch(/outside|workspace/);
  });
});

describe('kcl run: protocols', () => {
  const src = (expr: string) =>
    `protocol NamedProtocol:\n    name: str\n\nmixin NameMixin for NamedProtocol:\n    upper: str = ${expr}\n\nschema Person:\n    mixin [NameMixin]\n    name: str\n\np = Person {name = "ann"}\n`;

  it('lets a mixin for a protocol read what the protocol declares', () => {
    expect(run(src('name.upper()'))).toBe('p:\n  name: ann\n  upper: ANN\n');
  });

  it('refuses a name the protocol does not declare', () => {
    expect(failure(src('nick.upper()'))).toMatchObject({ kind: 'CompileError', message: "name 'nick' is not defined" });
  });
});
