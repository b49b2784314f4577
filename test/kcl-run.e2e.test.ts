/**
 * `kdeck kcl run` as a user runs it: the built CLI in a child process, reading real files.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bin', 'kdeck.js');
const dir = mkdtempSync(path.join(tmpdir(), 'kdeck-e2e-'));

function kdeck(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function file(name: string, text: string): string {
  writeFileSync(path.join(dir, name), text);
  return name;
}

describe('kdeck kcl run', () => {
  it('prints the YAML of several files compiled as one package, with -D options', () => {
    file('base.k', 'schema App:\n    name: str\n    replicas: int = 1\n');
    file('app.k', 'app = App {name = option("name"), replicas = option("n", type="int")}\n');
    const r = kdeck(['kcl', 'run', 'base.k', 'app.k', '-D', 'name=web', '-D', 'n=3']);
    expect(r).toMatchObject({ code: 0, stderr: '', stdout: 'app:\n  name: web\n  replicas: 3\n' });
  });

  it('reads files and options from a settings file with -Y', () => {
    file('main.k', 'a = option("a")\n');
    file('settings.yaml', 'kcl_cli_configs:\n  files: [main.k]\nkcl_options:\n  - key: a\n    value: 42\n');
    expect(kdeck(['kcl', 'run', '-Y', 'settings.yaml'])).toMatchObject({ code: 0, stdout: 'a: 42\n' });
  });

  it('selects a value with -S and writes to a file with -o', () => {
    file('sel.k', 'config = {server = {port = 80}}\n');
    expect(kdeck(['kcl', 'run', 'sel.k', '-S', 'config.server']).stdout).toBe('port: 80\n');
    expect(kdeck(['kcl', 'run', 'sel.k', '-o', 'out.yaml']).code).toBe(0);
    expect(readFileSync(path.join(dir, 'out.yaml'), 'utf8')).toBe('config:\n  server:\n    port: 80\n');
  });

  it('shows a syntax error as a diagnostic with file:line:col and a caret, exit 2', () => {
    file('bad.k', 'a = 1\nb = [1, 2\n');
    const r = kdeck(['kcl', 'run', 'bad.k']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error[E1001]: InvalidSyntax');
    expect(r.stderr).toContain(`--> ${path.join(dir, 'bad.k')}:2:10`);
    expect(r.stderr).toContain('unexpected end of file');
    expect(r.stderr).not.toMatch(/\n\s+at .*:\d+:\d+/);
  });

  it('shows an evaluation error at its place, never a stack trace', () => {
    file('eval.k', 'schema S:\n    n: int\n\ns = S {n = "x"}\n');
    const r = kdeck(['kcl', 'run', 'eval.k']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('expected int, got str(x)');
    expect(r.stderr).toMatch(/eval\.k:4:/);
    expect(r.stderr).not.toMatch(/\n\s+at .*:\d+:\d+/);
  });

  it('changes and deletes values with -O before running', () => {
    file('ov.k', 'config = {server = {port = 80, debug = True}}\n');
    const r = kdeck([
      'kcl',
      'run',
      'ov.k',
      '-O',
      ':config.server.port=8080',
      '-O',
      'config.server.debug-',
      '-O',
      'config.name="web"',
    ]);
    expect(r).toMatchObject({ code: 0, stdout: 'config:\n  server:\n    port: 8080\n  name: web\n' });
  });

  it('refuses an unsupported option with a sentence instead of ignoring it', () => {
    const r = kdeck(['kcl', 'run', 'sel.k', '-r']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('-r/--strict_range_check is not supported by kdeck kcl run yet');
  });

  it('names a missing file and a malformed -D', () => {
    expect(kdeck(['kcl', 'run', 'missing.k']).stderr).toContain('missing.k');
    const bad = kdeck(['kcl', 'run', 'sel.k', '-D', 'novalue']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Invalid value for top level arguments');
  });
});
