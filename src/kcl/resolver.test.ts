/**
 * The resolver's diagnostics: what kcl's checker finds before anything runs, all of it at once,
 * in the order of the file, with kcl's words and suggestions.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../diagnostics/diagnostics.js';
import { runKcl } from './run.js';
import { diagnosticOf } from './testing.js';

const dir = mkdtempSync(path.join(tmpdir(), 'kdeck-resolver-'));

/** Each diagnostic of a failed run of `source` as `kind line:column message`. */
function reported(source: string): string[] {
  const file = path.join(dir, 'main.k');
  writeFileSync(file, source);
  const d = diagnosticOf(() => runKcl({ files: [file] }));
  return [d, ...(d.also ?? [])].map(
    (x: Diagnostic) => `${x.kind} ${x.position?.line}:${x.position?.column} ${x.message}`,
  );
}

describe('the resolver', () => {
  it('reports every unknown name and every missing attribute of a typed parameter, in order, even in code that never runs', () => {
    const source = [
      'schema Frontend:',
      '    name?: str',
      '',
      'schema Wrapper[data: Frontend]:',
      '    label: str = data.nmae',
      '    check:',
      '        data.name == missing',
      '',
      'count = 1',
      'total = cuont + 1',
      '',
    ].join('\n');
    expect(reported(source)).toEqual([
      "TypeError 5:18 attribute 'nmae' not found in 'Frontend'",
      "CompileError 7:22 name 'missing' is not defined",
      `CompileError 10:9 name 'cuont' is not defined, did you mean '["count"]'?`,
    ]);
  });

  it('offers a name bound in several scopes once', () => {
    expect(reported('schema Person:\n    name: str\n\np = Person {}\nn = PersonErr.instances()\n')).toEqual([
      `CompileError 5:5 name 'PersonErr' is not defined, did you mean '["Person"]'?`,
    ]);
  });

  it('lets a schema with an index signature be read for any attribute', () => {
    const source =
      'schema Labels:\n    [str]: str\n\nschema S[l: Labels]:\n    v: str = l.anything\n\ns = S(Labels {anything = "x"}) {}\n';
    const file = path.join(dir, 'open.k');
    writeFileSync(file, source);
    expect(runKcl({ files: [file] }).yaml).toContain('v: x');
  });

  it('reports a broken interpolation with the syntax errors of the file, at its place', () => {
    expect(reported('a = "${}"\nb = 1 +\n')).toEqual([
      'InvalidSyntax 1:8 string interpolation expression can not be empty',
      'InvalidSyntax 2:8 unexpected newline, expected an expression',
    ]);
  });

  it('reports every change of a public global, in a branch that never runs too, with a change by += after it', () => {
    expect(reported('a = 1\nif False:\n    a = 2\nb = 1\nb += 2\n_c = 1\n_c = 2\n')).toEqual([
      "ImmutableError 3:5 Can not change the value of 'a', because it was declared immutable",
      "ImmutableError 5:1 Immutable variable 'b' is modified during compiling",
    ]);
  });

  it('reports a change under an instance of a schema before the instance is checked', () => {
    const source =
      'schema Person:\n    name: str\n    age: int\n\nalice = Person {\n    name: "Alice"\n}\n\nalice.age = 18\n';
    expect(reported(source)).toEqual([
      "ImmutableError 9:1 Can not change the value of 'alice', because it was declared immutable",
    ]);
  });

  it('refuses a second schema of the same name', () => {
    expect(reported('schema P:\n    a: int\n\nschema P:\n    b: int\n')).toEqual([
      "UniqueKeyError 4:1 Unique key error name 'P'",
    ]);
  });

  it('reports a type naming nothing, in a lambda that is never called too, with the other problems of the file', () => {
    const source = 'schema Base:\n    name: ErrOther\n\nf = lambda x: Missing -> [Other] { x }\nv = nope\n';
    expect(reported(source)).toEqual([
      "CompileError 2:11 name 'ErrOther' is not defined",
      "CompileError 4:15 name 'Missing' is not defined",
      "CompileError 4:27 name 'Other' is not defined",
      "CompileError 5:5 name 'nope' is not defined",
    ]);
  });

  it('refuses a positional argument after a keyword argument, in calls and decorators', () => {
    const source =
      'f = lambda a, b { a }\nschema S:\n    @deprecated(strict=False, "1.16")\n    x?: int\n\nv = f(a=1, 2)\n';
    expect(reported(source)).toEqual([
      'InvalidSyntax 3:31 positional argument follows keyword argument',
      'InvalidSyntax 6:12 positional argument follows keyword argument',
    ]);
  });

  it('reports a mixin not named as one before the names its body misses, and offers no inherited attribute', () => {
    const source = [
      'schema Full:',
      '    full = first',
      '',
      'schema P:',
      '    mixin [Full]',
      '    cc: int = 1',
      '',
      'schema C(P):',
      '    check:',
      '        ccc > 2',
      '',
    ].join('\n');
    expect(reported(source)).toEqual([
      "NameError 5:12 a valid mixin name should end with 'Mixin', got 'Full'",
      "IllegalInheritError 5:12 illegal schema mixin object type, expected mixin, got 'Full'",
      "CompileError 2:12 name 'first' is not defined",
      "CompileError 10:9 name 'ccc' is not defined",
    ]);
  });
});
