import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PackageCache, type EvaluatedPackage } from './package-cache.js';
import { PluginRegistry } from './plugins.js';
import { runKcl, type RunOptions } from './run.js';
import { diagnosticOf } from './testing.js';

/** A cache that counts the evaluations it is given to keep, by package. */
class CountingCache extends PackageCache {
  readonly stored: string[] = [];

  override store(key: string, pkg: EvaluatedPackage): void {
    this.stored.push(pkg.module.name);
    super.store(key, pkg);
  }

  /** The packages stored since the last call: those a run evaluated (and could keep). */
  evaluatedSinceLast(): string[] {
    return this.stored.splice(0).sort();
  }
}

let root: string;
let cache: CountingCache;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'kdeck-package-cache-'));
  writeFileSync(path.join(root, 'kcl.mod'), '[package]\nname = "app"\n');
  cache = new CountingCache();
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function write(file: string, source: string): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), source);
}

function run(opts: Partial<RunOptions> = {}): string {
  const result = runKcl({ files: [path.join(root, 'main.k')], packageCache: cache, ...opts });
  return result.printed + result.yaml;
}

const MODEL = [
  'import models.base',
  'schema Server(base.Named):',
  '    replicas: int = base.DEFAULT_REPLICAS',
  '    check:',
  '        replicas > 0, "replicas must be positive"',
  'DEFAULT = Server {name = "default"}',
  '',
].join('\n');
const BASE = ['schema Named:', '    name: str', 'DEFAULT_REPLICAS = 1', ''].join('\n');

describe('the package cache', () => {
  beforeEach(() => {
    write('models/server.k', MODEL);
    write('models/base.k', BASE);
    write('main.k', 'import models.server\nweb = server.Server {name = "web"}\n');
  });

  it('reuses packages whose files did not change, and evaluates the main files again', () => {
    expect(run()).toBe('web:\n  name: web\n  replicas: 1\n');
    expect(cache.evaluatedSinceLast()).toEqual(['models.base', 'models.server']);
    write('main.k', 'import models.server\nweb = server.Server {name = "web", replicas = 2}\n');
    expect(run()).toBe('web:\n  name: web\n  replicas: 2\n');
    expect(cache.evaluatedSinceLast()).toEqual([]);
  });

  it('evaluates a model file again when it changes', () => {
    run();
    write(
      'models/server.k',
      MODEL.replace('replicas: int = base.DEFAULT_REPLICAS', 'replicas: int = base.DEFAULT_REPLICAS + 2'),
    );
    expect(run()).toBe('web:\n  name: web\n  replicas: 3\n');
    expect(cache.evaluatedSinceLast()).toEqual(['models.base', 'models.server', 'models.server']);
  });

  it('evaluates a model again when a package it imports changes', () => {
    run();
    write('models/base.k', BASE.replace('DEFAULT_REPLICAS = 1', 'DEFAULT_REPLICAS = 5'));
    expect(run()).toBe('web:\n  name: web\n  replicas: 5\n');
    expect(cache.evaluatedSinceLast()).toEqual(['models.base', 'models.base', 'models.server', 'models.server']);
  });

  it('sees a file added to a package, and a package that is gone', () => {
    write('models/extra/a.k', 'A = 1\n');
    write('main.k', 'import models.extra\nimport models.server\ne = [extra.A]\nweb = server.Server {name = "web"}\n');
    expect(run()).toBe('e:\n- 1\nweb:\n  name: web\n  replicas: 1\n');
    write('models/extra/b.k', 'B = 2\n');
    write(
      'main.k',
      'import models.extra\nimport models.server\ne = [extra.A, extra.B]\nweb = server.Server {name = "web"}\n',
    );
    expect(run()).toBe('e:\n- 1\n- 2\nweb:\n  name: web\n  replicas: 1\n');
    rmSync(path.join(root, 'models', 'base.k'));
    expect(diagnosticOf(() => run())).toMatchObject({
      kind: 'CannotFindModule',
      position: { file: path.join(root, 'models', 'server.k'), line: 1 },
    });
  });

  it('reports a syntax error brought into a cached package, and reuses it again once fixed', () => {
    run();
    write('models/base.k', `${BASE}x = = 1\n`);
    expect(diagnosticOf(() => run())).toMatchObject({
      kind: 'InvalidSyntax',
      position: { file: path.join(root, 'models', 'base.k'), line: 4 },
    });
    write('models/base.k', BASE);
    cache.evaluatedSinceLast();
    // the text is the one the kept evaluation was made from again
    expect(run()).toBe('web:\n  name: web\n  replicas: 1\n');
    expect(cache.evaluatedSinceLast()).toEqual([]);
  });

  it('keeps an evaluation per value of the options it read', () => {
    write(
      'models/base.k',
      BASE.replace('DEFAULT_REPLICAS = 1', 'DEFAULT_REPLICAS = option("replicas", type="int", default=1)'),
    );
    expect(run({ options: [['replicas', '2']] })).toBe('web:\n  name: web\n  replicas: 2\n');
    expect(run({ options: [['replicas', '3']] })).toBe('web:\n  name: web\n  replicas: 3\n');
    expect(run()).toBe('web:\n  name: web\n  replicas: 1\n');
    expect(cache.evaluatedSinceLast()).toHaveLength(6);
    expect(run({ options: [['replicas', '2']] })).toBe('web:\n  name: web\n  replicas: 2\n');
    expect(
      run({
        options: [
          ['replicas', '2'],
          ['unrelated', 'x'],
        ],
      }),
    ).toBe('web:\n  name: web\n  replicas: 2\n');
    expect(cache.evaluatedSinceLast()).toEqual([]);
  });

  it('tells option values of different types apart', () => {
    write('models/base.k', BASE.replace('DEFAULT_REPLICAS = 1', 'DEFAULT_REPLICAS = 1\nGIVEN = typeof(option("v"))'));
    write('main.k', 'import models.base\nt = base.GIVEN\n');
    expect(run({ options: [['v', '1']] })).toBe('t: int\n');
    expect(run({ options: [['v', '1.0']] })).toBe('t: float\n');
    expect(run({ options: [['v', '"1"']] })).toBe('t: str\n');
    expect(run({ options: [['v', 'True']] })).toBe('t: bool\n');
  });

  it('counts Schema.instances() per run, with the instances a reused package made', () => {
    write(
      'main.k',
      [
        'import models.base',
        'import models.server',
        'web = server.Server {name = "web"}',
        // as in kcl, instances() counts the main package's; instances(True) those of every package
        'count = len(server.Server.instances())',
        'names = [s.name for s in base.Named.instances(True)]',
        '',
      ].join('\n'),
    );
    const once = 'web:\n  name: web\n  replicas: 1\ncount: 1\nnames:\n- default\n- web\n';
    expect(run()).toBe(once);
    expect(run()).toBe(once);
    expect(cache.evaluatedSinceLast()).toEqual(['models.base', 'models.server']);
  });

  it('runs the lambdas of a reused package in the run calling them', () => {
    write(
      'models/fns.k',
      [
        'env = lambda {',
        '    option("env", default="dev")',
        '}',
        'say = lambda s: str {',
        '    print(s)',
        '    s',
        '}',
        '',
      ].join('\n'),
    );
    write('main.k', 'import models.fns\ne = fns.env()\ns = fns.say("hello")\n');
    expect(run({ options: [['env', 'prod']] })).toBe('hello\ne: prod\ns: hello\n');
    expect(run({ options: [['env', 'test']] })).toBe('hello\ne: test\ns: hello\n');
    expect(cache.evaluatedSinceLast()).toEqual(['models.fns']);
  });

  it('evaluates again, every run, a package that prints, reads files or the clock, or calls a plugin', () => {
    write('models/io.k', 'import file\nprint("loading")\nTEXT = file.read("data.txt")\n');
    write('data.txt', 'one');
    write('main.k', 'import models.io\nt = io.TEXT\n');
    expect(run()).toBe('loading\nt: one\n');
    write('data.txt', 'two');
    expect(run()).toBe('loading\nt: two\n');
    expect(cache.evaluatedSinceLast()).toEqual([]);

    write('models/clock.k', 'import datetime\nNOW = datetime.ticks()\n');
    write('models/user.k', 'import models.clock\nLATER = clock.NOW + 1\n');
    write('main.k', 'import models.user\nt = user.LATER > 0\n');
    run();
    expect(cache.evaluatedSinceLast()).toEqual([]);

    let calls = 0;
    const plugins = new PluginRegistry().register('counter', { next: () => BigInt(++calls) });
    write('models/counter.k', 'import kcl_plugin.counter\nN = counter.next()\n');
    write('main.k', 'import models.counter\ncount = counter.N\n');
    expect(run({ plugins })).toBe('count: 1\n');
    expect(run({ plugins })).toBe('count: 2\n');
    expect(cache.evaluatedSinceLast()).toEqual([]);
  });

  it('gives a later run the values a package made, whatever an earlier run did with them', () => {
    write(
      'models/data.k',
      [
        'schema Box:',
        '    items: [int] = [1]',
        '    labels: {str:str} = {a = "1"}',
        'BOX = Box {}',
        'CONFIG = {ports = [80], meta.name = "x"}',
        'LIST = [{a = 1}]',
        '',
      ].join('\n'),
    );
    const pristine =
      "box:\n  items:\n  - 1\n  labels:\n    a: '1'\nconfig:\n  ports:\n  - 80\n  meta:\n    name: x\nlist:\n- a: 1\n";
    write('main.k', 'import models.data\nbox = data.BOX\nconfig = data.CONFIG\nlist = data.LIST\n');
    expect(run()).toBe(pristine);
    write(
      'main.k',
      [
        'import models.data',
        '_config = data.CONFIG',
        '_config.meta.name = "y"',
        '_config.ports += [443]',
        '_list = data.LIST',
        '_list[0].a = 2',
        'merged = data.CONFIG | {ports = [8080], meta: {owner = "me"}}',
        'unified = data.BOX {items += [3], labels: {c = "3"}}',
        'piped = data.BOX | {items = [4]}',
        'changed = [_config, _list]',
        '',
      ].join('\n'),
    );
    run();
    write('main.k', 'import models.data\nbox = data.BOX\nconfig = data.CONFIG\nlist = data.LIST\n');
    expect(run()).toBe(pristine);
    expect(cache.evaluatedSinceLast()).toEqual(['models.data']);
  });
});
