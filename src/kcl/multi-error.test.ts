/**
 * kcl reports what each phase finds in one go: the syntax errors of every file, the problems its
 * resolver finds, the problems of a config literal. These check that kdeck reports them all, in
 * kcl's order, with each one's place.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../diagnostics/diagnostics.js';
import { runKcl } from './run.js';
import { diagnosticOf } from './testing.js';

const dir = mkdtempSync(path.join(tmpdir(), 'kdeck-multi-error-'));

/** Each diagnostic of a failed run as `line:column message`, with the file's name when asked. */
function reported(files: Record<string, string>, withFile = false): string[] {
  for (const [name, source] of Object.entries(files)) writeFileSync(path.join(dir, name), source);
  const d = diagnosticOf(() => runKcl({ files: Object.keys(files).map((f) => path.join(dir, f)) }));
  return [d, ...(d.also ?? [])].map((x: Diagnostic) => {
    const where = `${x.position?.line}:${x.position?.column}`;
    return `${withFile ? `${path.basename(x.position?.file ?? '')}:` : ''}${where} ${x.message}`;
  });
}

describe('reporting several errors at once', () => {
  it('reports the syntax errors of every file, and of every statement of a file', () => {
    expect(reported({ 'a.k': 'x = = 1\ny = 2\nz = 3 +\n', 'b.k': 'w = )\n' }, true)).toEqual([
      "a.k:1:5 unexpected token '=', expected an expression",
      'a.k:3:8 unexpected newline, expected an expression',
      "b.k:1:5 unexpected token ')', expected an expression",
    ]);
  });

  it('reports every line indented to no level of its block', () => {
    expect(reported({ 'main.k': 'schema P:\n    name: str\n   age: int\n  info: str\n' })).toEqual([
      '3:4 invalid indentation with 3 spaces, try to align indents by adding or removing spaces',
      '4:3 invalid indentation with 2 spaces, try to align indents by adding or removing spaces',
    ]);
  });

  it('reports every undefined name and parameter list problem the resolver finds', () => {
    expect(reported({ 'main.k': 'schema A[a1 = 1, a2 = 2, a3]:\n    x: int = a1\n\nb = c + d\ne = c\n' })).toEqual([
      '1:23 non-default argument follows default argument',
      '1:15 non-default argument follows default argument',
      "4:5 name 'c' is not defined",
      "4:9 name 'd' is not defined",
      "5:5 name 'c' is not defined",
    ]);
  });

  it("checks the arguments of calls to the package's schemas before running, in kcl's words", () => {
    const schema = 'schema S[a, b = 1]:\n    x: int = a\n\n';
    expect(reported({ 'main.k': `${schema}s = S(1, 2, 3)\nt = S(c = 1)\nu = S {}\n` })).toEqual(
      [
        '"S" takes 2 positional arguments but 3 were given',
        '"S" got an unexpected keyword argument \'c\'',
        'expected 1 positional argument, found 0',
        'expected 1 positional argument, found 0',
      ].map((m, i) => `${['4:13', '5:7', '5:5', '6:5'][i]} ${m}`),
    );
    // a local of the same name is not the schema
    expect(runKcl({ files: [write('local.k', `${schema}f = lambda S { S() }\nv = f(lambda { 7 })\n`)] }).yaml).toBe(
      'v: 7\n',
    );
  });

  it('checks the arguments of calls to imported schemas in the same words, when they run', () => {
    mkdirSync(path.join(dir, 'imported', 'models'), { recursive: true });
    writeFileSync(path.join(dir, 'imported', 'kcl.mod'), '');
    writeFileSync(path.join(dir, 'imported', 'models', 's.k'), 'schema S[a]:\n    x: int = a\n');
    const main = path.join(dir, 'imported', 'main.k');
    writeFileSync(main, 'import models.s\nok = s.S(1) {}\nbad = s.S(b = 1) {}\n');
    const d = diagnosticOf(() => runKcl({ files: [main] }));
    expect([d, ...(d.also ?? [])].map((x) => `${x.position?.line}:${x.position?.column} ${x.message}`)).toEqual([
      '3:11 "S" got an unexpected keyword argument \'b\'',
      '3:7 expected 1 positional argument, found 0',
    ]);
  });

  it('reports every key and value of a config literal that does not fit its schema', () => {
    const src =
      'schema P:\n    name: str\n    ports: {str:int}\n\np = P {\n    nmae = "a"\n    ports = {http: "80", https: 443}\n    age = 1\n}\n';
    expect(reported({ 'main.k': src })).toEqual([
      `6:5 Cannot add member 'nmae' to schema 'P', did you mean '["name"]'?`,
      '7:14 expected int, got str(80)',
      '7:5 expected {str:int}, got {str(http) | str(https):str(80) | int(443)}',
      "8:5 Cannot add member 'age' to schema 'P'",
    ]);
  });
});

function write(name: string, source: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, source);
  return file;
}
