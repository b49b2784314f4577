/**
 * Semantics the KusionStack/konfig history needs: rules of programs whose kcl.mod declares a
 * kcl v0.4 (kcl-mod.ts), and what holds in every version (instances(), imports over config keys).
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KclError } from '../diagnostics/diagnostics.js';
import { runKcl } from './run.js';

const root = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-konfig-era-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let count = 0;

/** Runs main.k, or the `program` files in order, in a fresh project whose kcl.mod declares
 * `version`, if any. */
function run(files: Record<string, string>, version?: string, program = ['main.k']): string {
  const dir = path.join(root, String(count++));
  for (const [name, text] of Object.entries({
    'kcl.mod': version ? `[expected]\nkclvm_version = "${version}"\n` : '[package]\n',
    ...files,
  })) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return runKcl({ files: program.map((f) => path.join(dir, f)) }).yaml;
}

const LIB = {
  'lib/lib.k': ['schema Svc:', '    name: str', '', 'schema Holder:', '    svc: Svc = Svc {name = "lib"}', ''].join(
    '\n',
  ),
};

describe('Schema.instances()', () => {
  it("counts the main package's instances, not those a library's schemas make", () => {
    const main = [
      'import lib',
      'h = lib.Holder {}',
      'mine = lib.Svc {name = "main"}',
      'count = len(lib.Svc.instances())',
      'total = len(lib.Svc.instances(True))',
      '',
    ];
    expect(run({ ...LIB, 'main.k': main.join('\n') })).toContain('count: 1\ntotal: 2\n');
  });
});

describe('a dotted name whose first part is an import', () => {
  it('reads the package inside a config with a key of that name', () => {
    const main = ['import lib.consts as meta', 'x = {', '    meta = {name = meta.NAME}', '}', ''];
    expect(run({ 'lib/consts.k': 'NAME = "app"\n', 'main.k': main.join('\n') })).toBe('x:\n  meta:\n    name: app\n');
  });

  it('reads the package in configs nested below the one that set the key', () => {
    // Konfig's render.k: `metadata = ObjectMeta {...}` then, deeper, `name = metadata.__META_APP_NAME`
    const main = [
      'import lib.consts as meta',
      'schema Item:',
      '    name: str',
      'schema App:',
      '    meta: {str:}',
      '    items: [Item]',
      'app = App {',
      '    meta = {name = meta.NAME}',
      '    items = [Item {name = meta.NAME + "-" + k} for k in ["a", "b"]]',
      '}',
      '',
    ];
    expect(run({ 'lib/consts.k': 'NAME = "app"\n', 'main.k': main.join('\n') })).toBe(
      'app:\n  meta:\n    name: app\n  items:\n  - name: app-a\n  - name: app-b\n',
    );
  });
});

describe('programs written for kcl v0.4', () => {
  const schema = [
    'schema R:',
    '    $type: str',
    '    out: {str:} = {',
    '        type = "Terraform"',
    '        ext = {kind = type}',
    '    }',
    'r = R {type = "vpc"}',
    '',
  ];

  it("read a schema's own attribute before the key of a config built in its body", () => {
    expect(run({ 'main.k': schema.join('\n') }, 'v0.4.6')).toContain('ext:\n      kind: vpc');
    // current kcl: the config's key
    expect(run({ 'main.k': schema.join('\n') })).toContain('ext:\n      kind: Terraform');
  });

  it('read an undefined name in a schema body as Undefined', () => {
    const main = ['schema S:', '    flag?: bool = false', '    count: int = 1', 'a = S {}', ''];
    expect(run({ 'main.k': main.join('\n') }, 'v0.4.6')).toBe('a:\n  count: 1\n');
    expect(() => run({ 'main.k': main.join('\n') })).toThrow(KclError);
  });

  describe('check required attributes only where kcl v0.4.6 did', () => {
    const rule = ['schema Rule:', '    port: int', '    cidrs: [str] = []', ''];

    it('not in instances a type makes from the dicts of a list', () => {
      const main = [
        ...rule,
        'schema Group:',
        '    rules?: [Rule]',
        'g = Group {rules = [{port = 80, cidrs = None}]}',
        '',
      ];
      expect(run({ 'main.k': main.join('\n') }, 'v0.4.6')).toBe('g:\n  rules:\n  - port: 80\n    cidrs: null\n');
      expect(() => run({ 'main.k': main.join('\n') })).toThrow(
        "attribute 'cidrs' of Rule is required and can't be None or Undefined",
      );
    });

    it('not in instances written in a schema body and held in a list', () => {
      const main = [
        ...rule,
        'schema Backend:',
        '    rules: [Rule] = [Rule {port = 80, cidrs = None}]',
        'b = Backend {}',
        '',
      ];
      expect(run({ 'main.k': main.join('\n') }, 'v0.4.6')).toContain('  - port: 80\n    cidrs: null\n');
      expect(() => run({ 'main.k': main.join('\n') })).toThrow(KclError);
    });

    it('but in instances written outside schemas, and in their instance-valued attributes', () => {
      const written = [...rule, 'r = [Rule {port = 80, cidrs = None}]', ''];
      expect(() => run({ 'main.k': written.join('\n') }, 'v0.4.6')).toThrow(
        "attribute 'cidrs' of Rule is required and can't be None or Undefined",
      );
      const nested = [...rule, 'schema Group:', '    first: Rule', 'g = Group {first = {port = 80, cidrs = None}}', ''];
      expect(() => run({ 'main.k': nested.join('\n') }, 'v0.4.6')).toThrow(
        "attribute 'cidrs' of Rule is required and can't be None or Undefined",
      );
    });
  });

  describe('a package imported only by a later file of the main package', () => {
    // Konfig's kcl-vault-csi: base.k writes `vaultv1.SecretProviderClass {...}`, main.k imports vaultv1
    const files = {
      ...LIB,
      'base.k': 'a: lib.Svc {name = "base"}\n',
      'main.k': 'import lib\nb = lib.Svc {name = "main"}\ncount = len(lib.Svc.instances())\n',
    };

    it('reads Undefined before any import has run it, and its schema expressions are plain configs', () => {
      expect(run(files, 'v0.4.6', ['base.k', 'main.k'])).toBe('a:\n  name: base\nb:\n  name: main\ncount: 1\n');
      expect(run(files, undefined, ['base.k', 'main.k'])).toContain('count: 2\n');
      // kcl-py, before v0.4.3, ran every import of the package first
      expect(run(files, 'v0.4.0', ['base.k', 'main.k'])).toContain('count: 2\n');
    });

    it('reads the package once an earlier import has run it', () => {
      const program = ['first.k', 'base.k', 'main.k'];
      expect(run({ ...files, 'first.k': 'import lib\n' }, 'v0.4.6', program)).toContain('count: 2\n');
    });
  });

  it('leave empty lists out of manifests.yaml_stream documents', () => {
    const main = ['import manifests', 'manifests.yaml_stream([{a = 1, b = []}])', ''];
    expect(run({ 'main.k': main.join('\n') }, 'v0.4.6')).toBe('a: 1\n');
    expect(run({ 'main.k': main.join('\n') })).toBe('a: 1\nb: []\n');
  });
});
