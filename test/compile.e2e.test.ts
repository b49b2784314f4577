/**
 * `kdeck compile` and `kdeck ls` as a user runs them: the built CLI in a child process, on a
 * copy of konfig-sample that each test breaks the way a newcomer would.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_STACK, generatedWorkspace } from '../bench/workspace.js';
import { copySample } from './support/sample.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(HERE, '..', 'dist', 'bin', 'kdeck.js');
const copy = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-compile-'));
const prod = path.join(copy, 'appops', 'guestbook', 'prod');

function kdeck(args: string[], cwd = prod) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Replaces `from` with `to` in a file of the copy; restored after each test. */
const edits: [string, string][] = [];
function edit(file: string, from: string, to: string): void {
  const text = fs.readFileSync(file, 'utf8');
  expect(text).toContain(from);
  edits.push([file, text]);
  fs.writeFileSync(file, text.replace(from, to));
}

beforeAll(() => copySample(copy));
afterEach(() => {
  for (const [file, text] of edits.splice(0).reverse()) fs.writeFileSync(file, text);
});

/** The one diagnostic of a failed run: its heading and its `--> file:line:col`. */
function diagnostic(stderr: string) {
  const headings = stderr.match(/^error(\[\w+\])?: .*$/gm) ?? [];
  const place = /--> (.+):(\d+):(\d+)/.exec(stderr);
  return {
    count: headings.length,
    heading: headings[0],
    file: place?.[1],
    line: Number(place?.[2]),
    column: Number(place?.[3]),
  };
}

describe('kdeck compile', () => {
  it('prints the Spec of the stack in the current folder, sorted by id', () => {
    const r = kdeck(['compile']);
    expect(r.code).toBe(0);
    const docs = YAML.parseAllDocuments(r.stdout).map(
      (d) => d.toJS() as { id: string; extensions?: { cluster: string } },
    );
    const ids = docs.map((d) => d.id);
    expect(ids).toEqual([...ids].sort());
    expect(ids).toContain('apps/v1:Deployment:guestbook:frontend');
    expect(docs.every((d) => d.extensions?.cluster === 'sandbox-b')).toBe(true);
    expect(r.stdout).toBe(
      fs.readFileSync(path.join(HERE, '..', 'snapshots', 'compile', 'guestbook', 'prod.yaml'), 'utf8'),
    );
  });

  it('hands a reader slower than itself the whole Spec before it ends', () => {
    // more than a pipe holds, read only after a pause: what kdeck has not written yet when it is
    // done must not be lost with the process
    const root = generatedWorkspace(200);
    try {
      const r = spawnSync(
        'sh',
        [
          '-c',
          `{ "$0" "$1" compile -w "$2"; echo "exit $?" >&2; } | { sleep 1; cat; }`,
          process.execPath,
          CLI,
          GENERATED_STACK,
        ],
        { cwd: root, encoding: 'utf8', timeout: 30_000, maxBuffer: 64 * 1024 * 1024 },
      );
      expect(r.stderr).toBe('exit 0\n');
      expect(r.stdout.length).toBeGreaterThan(128 * 1024);
      expect(YAML.parseAllDocuments(r.stdout)).toHaveLength(1 + 3 * 200);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('takes the stack with -w, options with -D, overrides with -O, and writes -o FILE', () => {
    const out = path.join(copy, 'out', 'spec.yaml');
    const r = kdeck(
      [
        'compile',
        '-w',
        'appops/guestbook/dev',
        '-D',
        'cluster=sandbox-c',
        '-O',
        'appConfiguration.replicas=5',
        '-o',
        out,
      ],
      copy,
    );
    expect(r).toMatchObject({ code: 0, stdout: '' });
    const docs = YAML.parseAllDocuments(fs.readFileSync(out, 'utf8')).map((d) => d.toJS());
    const frontend = docs.find((d) => d.id === 'apps/v1:Deployment:guestbook-dev:frontend');
    expect(frontend.attributes.spec.replicas).toBe(5);
    expect(frontend.extensions).toEqual({ cluster: 'sandbox-c' });
  });

  it('reads the settings given with -Y instead of the defaults', () => {
    const r = kdeck(['compile', '-Y', 'kcl.yaml,../../nginx-example/prod/ci-test/settings.yaml']);
    expect(r.code).toBe(0);
  });

  it('keeps its parses in .kdeck/cache/ast and compiles the same Spec from them; --read-only keeps none', () => {
    const cache = path.join(copy, '.kdeck', 'cache', 'ast');
    fs.rmSync(cache, { recursive: true, force: true });
    const readOnly = kdeck(['--read-only', 'compile']);
    expect(readOnly.code).toBe(0);
    expect(fs.existsSync(cache)).toBe(false);
    const first = kdeck(['compile']);
    expect(first.code).toBe(0);
    // one pack, with an entry for every file the stack imports
    expect(fs.readdirSync(cache)).toEqual(['pack']);
    expect(
      fs
        .readFileSync(path.join(cache, 'pack'))
        .toString('latin1')
        .match(/\.k","[0-9a-f]{64}",/g)?.length,
    ).toBeGreaterThan(100);
    const again = kdeck(['compile']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(first.stdout).toBe(readOnly.stdout);
  });
});

describe('kdeck compile, mistakes a newcomer makes: one diagnostic at file:line:col, exit 2', () => {
  const main = () => path.join(prod, 'main.k');

  it('a typo in an attribute name', () => {
    edit(main(), '    replicas = 3\n    image', '    replica = 3\n    image');
    const r = kdeck(['compile']);
    expect(r.code).toBe(2);
    expect(diagnostic(r.stderr)).toMatchObject({ count: 1, file: main(), line: 9, column: 5 });
    expect(r.stderr).toContain("Cannot add member 'replica' to schema 'Server'");
  });

  it('a value of the wrong type', () => {
    edit(main(), '    replicas = 3\n    image', '    replicas = "3"\n    image');
    const r = kdeck(['compile']);
    expect(r.code).toBe(2);
    expect(diagnostic(r.stderr)).toMatchObject({ count: 1, file: main(), line: 9, column: 5 });
    expect(r.stderr).toContain('expected int, got str(3)');
  });

  it('a missing import', () => {
    edit(main(), 'import base.pkg.models.frontend.disruption\n', '');
    const r = kdeck(['compile']);
    expect(r.code).toBe(2);
    // the stack uses the name twice, and kcl's resolver reports every use
    expect(diagnostic(r.stderr)).toMatchObject({ count: 2, file: main(), line: 18, column: 27 });
    expect(r.stderr.match(/--> .+:\d+:\d+/g)).toEqual([`--> ${main()}:18:27`, `--> ${main()}:28:27`]);
    expect(r.stderr).toContain("name 'disruption' is not defined");
  });

  it('a misspelt import', () => {
    edit(main(), 'import base.pkg.models.frontend.disruption\n', 'import base.pkg.models.frontend.disruptions\n');
    const r = kdeck(['compile']);
    expect(r.code).toBe(2);
    expect(diagnostic(r.stderr)).toMatchObject({ count: 1, file: main(), line: 2, column: 1 });
    expect(r.stderr).toContain('Cannot find the module base.pkg.models.frontend.disruptions');
  });

  it('a value a check block refuses', () => {
    edit(main(), 'port = 80, targetPort', 'port = 80000, targetPort');
    const r = kdeck(['compile']);
    expect(r.code).toBe(2);
    expect(diagnostic(r.stderr)).toMatchObject({ count: 1, file: main(), line: 13, column: 9 });
    expect(r.stderr).toContain('service port 80000 is out of range 1..65535');
  });

  it('a stack folder without kcl.yaml', () => {
    const kclYaml = path.join(prod, 'kcl.yaml');
    edits.push([kclYaml, fs.readFileSync(kclYaml, 'utf8')]);
    fs.rmSync(kclYaml);
    const r = kdeck(['compile']);
    expect(r.code).toBe(2);
    expect(diagnostic(r.stderr)).toMatchObject({ count: 1, file: path.join(prod, 'stack.yaml'), line: 1, column: 1 });
    expect(r.stderr).toContain('the stack appops/guestbook/prod has no kcl.yaml');
  });

  it('a file in kcl.yaml that does not exist', () => {
    edit(path.join(prod, 'kcl.yaml'), '../base/base.k', '../base/bse.k');
    const r = kdeck(['compile']);
    expect(r.code).toBe(2);
    expect(diagnostic(r.stderr)).toMatchObject({ count: 1, file: path.join(prod, 'kcl.yaml'), line: 3, column: 7 });
  });

  it('a folder that is not a stack', () => {
    const r = kdeck(['compile'], path.join(copy, 'appops', 'guestbook'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not a stack folder (it has no stack.yaml)');
    expect(r.stderr).toContain('stacks of this project: dev, prod, staging');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('kdeck ls', () => {
  it('lists every project and stack with its cluster', () => {
    const r = kdeck(['ls'], copy);
    expect(r.code).toBe(0);
    const rows = r.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^PROJECT\s+STACK\s+CLUSTER\s+PATH$/);
    expect(rows).toHaveLength(13);
    expect(rows).toContainEqual(expect.stringMatching(/^guestbook\s+prod\s+sandbox-b\s+appops\/guestbook\/prod$/));
    expect(rows).toContainEqual(
      expect.stringMatching(/^http-echo\s+dev\s+\(current context\)\s+appops\/http-echo\/dev$/),
    );
  });

  it('prints json, yaml and a tree', () => {
    const json = JSON.parse(kdeck(['ls', copy, '--format', 'json']).stdout) as {
      name: string;
      stacks: { name: string; cluster?: string }[];
    }[];
    expect(json.map((p) => p.name)).toEqual([
      'batch-report',
      'guestbook',
      'http-echo',
      'nginx-example',
      'stateful-app',
    ]);
    expect(json[1].stacks).toContainEqual({ name: 'prod', path: 'appops/guestbook/prod', cluster: 'sandbox-b' });
    expect(YAML.parse(kdeck(['ls', copy, '--format', 'yaml']).stdout)).toEqual(json);
    const tree = kdeck(['ls', '--format', 'tree'], copy).stdout;
    expect(tree).toContain(
      '├── guestbook (appops/guestbook)\n│   ├── dev      (current context)\n│   ├── prod     sandbox-b\n',
    );
  });

  it('refuses an unknown format and a folder outside a repository', () => {
    expect(kdeck(['ls', '--format', 'xml'], copy)).toMatchObject({ code: 2 });
    const outside = kdeck(['ls', tmpdir()], copy);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('no kcl.mod at or above');
  });

  it('points out a mistyped command instead of reading it as an argument', () => {
    const r = kdeck(['applly'], copy);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("kdeck: unknown command 'applly' — did you mean apply? (kdeck --help lists the commands)\n");
  });

  it('prints its version with --version, -v and version, as kubectl and kusion users type it', () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(HERE, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    for (const args of [['--version'], ['-v'], ['version']]) {
      const r = kdeck(args, copy);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout).toBe(`kdeck ${version} (node ${process.version}, ${process.platform}/${process.arch})\n`);
    }
  });
});
