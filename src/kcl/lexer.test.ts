import { describe, expect, it } from 'vitest';
import { KclError } from '../diagnostics/diagnostics.js';
import { dottedNameTokens, lexRuns, tokenize, type Token } from './lexer.js';

const kinds = (src: string) =>
  tokenize(src, 'main.k').map((t) => (['op', 'keyword', 'binop', 'augop'].includes(t.type) ? t.text : t.type));

describe('lexer layout', () => {
  it('emits NEWLINE, INDENT and DEDENT for blocks', () => {
    expect(kinds('schema A:\n    a: int\nb = 1\n')).toEqual([
      'name',
      'name',
      ':',
      'NEWLINE',
      'INDENT',
      'name',
      ':',
      'name',
      'NEWLINE',
      'DEDENT',
      'name',
      '=',
      'number',
      'NEWLINE',
    ]);
  });

  it('joins lines inside brackets after a comma or an operator', () => {
    expect(kinds('a = [1,\n  2 +\n  3]\n')).toEqual([
      'name',
      '=',
      '[',
      'number',
      ',',
      'number',
      '+',
      'number',
      ']',
      'NEWLINE',
    ]);
  });

  it('separates config entries written on their own lines', () => {
    expect(kinds('a = {\n    x = 1\n    y = 2\n}\n')).toEqual([
      'name',
      '=',
      '{',
      'name',
      '=',
      'number',
      'NEWLINE',
      'name',
      '=',
      'number',
      '}',
      'NEWLINE',
    ]);
  });

  it('opens an indented block for an if entry inside a list', () => {
    expect(kinds('a = [\n    if x:\n        1\n    2\n]\n')).toEqual([
      'name',
      '=',
      '[',
      'if',
      'name',
      ':',
      'NEWLINE',
      'INDENT',
      'number',
      'DEDENT',
      'NEWLINE',
      'number',
      ']',
      'NEWLINE',
    ]);
  });

  it('treats a lambda body in braces as a block of statements', () => {
    expect(kinds('f = lambda x {\n    y = x\n    y\n}\n')).toEqual([
      'name',
      '=',
      'lambda',
      'name',
      '{',
      'name',
      '=',
      'name',
      'NEWLINE',
      'name',
      'NEWLINE',
      '}',
      'NEWLINE',
    ]);
  });

  it('skips comments, blank lines and backslash continuations', () => {
    expect(kinds('a = 1 + \\\n  2  # sum\n\n# done\n')).toEqual(['name', '=', 'number', '+', 'number', 'NEWLINE']);
  });

  it('carries file, line and column on every token', () => {
    const t = tokenize('a = 1\nbb = 2\n', 'x.k').find((x) => x.text === 'bb')!;
    expect([t.line, t.col]).toEqual([2, 1]);
  });
});

describe('lexer literals', () => {
  const texts = (src: string) =>
    tokenize(src, 'main.k')
      .filter((t) => t.type !== 'NEWLINE')
      .map((t) => `${t.type}:${t.text}`);

  it('reads every number form, unit suffixes included', () => {
    expect(texts('0x1F 0o17 0b101 017 1_000 1.5 .5 1e3 2.5E-3 1Ki 2M 3m')).toEqual([
      'number:0x1F',
      'number:0o17',
      'number:0b101',
      'number:017',
      'number:1_000',
      'number:1.5',
      'number:.5',
      'number:1e3',
      'number:2.5E-3',
      'number:1Ki',
      'number:2M',
      'number:3m',
    ]);
  });

  it('reads single, double, triple-quoted and raw strings', () => {
    expect(texts(`'a' "b" """c\nd""" r"\\n" '''e'''`)).toEqual([
      "string:'a'",
      'string:"b"',
      'string:"""c\nd"""',
      'string:r"\\n"',
      "string:'''e'''",
    ]);
  });

  it('reads where two tokens could start as kcl does: a float before an operator, a suffix only before a non-letter', () => {
    expect(texts('1. 1..2 1.e5 a.5 1Gix 1mi 10Gi 0x 1e 1_2.5e+3')).toEqual([
      'number:1.',
      'number:1',
      'op:.',
      'number:.2',
      'number:1',
      'op:.',
      'name:e5',
      'name:a',
      'number:.5',
      'number:1',
      'name:Gix',
      'number:1',
      'name:mi',
      'number:10Gi',
      'number:0',
      'name:x',
      'number:1',
      'name:e',
      'number:1_2.5e+3',
    ]);
  });

  it('reads the longest operator, and a quote or prefix that starts no string as kcl does', () => {
    expect(texts('a **= b // c ... d -> e != f << g')).toEqual([
      'name:a',
      'augop:**=',
      'name:b',
      'binop://',
      'name:c',
      'op:...',
      'name:d',
      'op:->',
      'name:e',
      'binop:!=',
      'name:f',
      'binop:<<',
      'name:g',
    ]);
    // an unfinished triple quote is the empty string, and what follows it is read again
    expect(texts('a = """"')).toEqual(['name:a', 'op:=', 'string:""', 'string:""']);
    expect(texts('b"" r')).toEqual(['string:b""', 'name:r']);
  });

  it('continues a line after a backslash and counts the lines inside strings', () => {
    const toks = tokenize('a = 1 + \\\n    2\nb = """x\ny"""\nc = 3\n', 'main.k');
    expect(toks.filter((t) => t.type !== 'NEWLINE').map((t) => `${t.text}@${t.line}:${t.col}`)).toEqual([
      'a@1:1',
      '=@1:3',
      '1@1:5',
      '+@1:7',
      '2@2:5',
      'b@3:1',
      '=@3:3',
      '"""x\ny"""@3:5',
      'c@5:1',
      '=@5:3',
      '3@5:5',
    ]);
  });

  it('keeps `$`-escaped keywords as names', () => {
    const [t] = tokenize('$if = 1', 'main.k');
    expect([t.type, t.value]).toEqual(['name', 'if']);
  });
});

describe('lexer errors', () => {
  const error = (src: string) => {
    try {
      tokenize(src, 'main.k');
    } catch (e) {
      if (e instanceof KclError) return e.diagnostic;
      throw e;
    }
    throw new Error('no error');
  };

  it("refuses a dedent to a level that was never opened, in kcl's words", () => {
    const d = error('if a:\n        b = 1\n    c = 2\n');
    expect(d).toMatchObject({
      kind: 'InvalidSyntax',
      message: 'invalid indentation with 4 spaces, try to align indents by adding or removing spaces',
      position: { line: 3, column: 5 },
    });
  });

  it('goes on past a misaligned line and reports the next one too', () => {
    const d = error('schema P:\n    a: str\n   b: int\n  c: str\n');
    expect([d, ...(d.also ?? [])].map((x) => [x.message.slice(0, 32), x.position?.line, x.position?.column])).toEqual([
      ['invalid indentation with 3 space', 3, 4],
      ['invalid indentation with 2 space', 4, 3],
    ]);
  });

  it('refuses inconsistent tabs and spaces as a syntax error, as kcl does (E1001)', () => {
    const e = error('if a:\n\tb = 1\n        c = 2\n');
    expect([e.kind, e.message]).toEqual(['InvalidSyntax', 'inconsistent use of tabs and spaces in indentation']);
  });

  it('reports an unterminated string at its place', () => {
    expect(error('a = "abc\n').position).toMatchObject({ line: 1, column: 5 });
  });
  it('names a character KCL has no token for, at its place', () => {
    expect(error('a = 1\nb = 2 \\ 3\n')).toMatchObject({
      message: 'invalid character "\\\\"',
      position: { line: 2, column: 7 },
    });
    expect(error('a = é\n').message).toBe('invalid character "é"');
  });
});

describe('lexer runs', () => {
  const runs = (src: string, runTokens: number): string[][] => {
    const out: Token[][] = [];
    const it = lexRuns(src, 'main.k', runTokens);
    for (let r = it.next(); !r.done; r = it.next()) out.push(r.value);
    return out.map((run) => run.map((t) => t.text || t.type));
  };

  it('cuts only where a top-level statement starts, and gives the same tokens as a whole lex', () => {
    const src = [
      'schema A:',
      '    a: int',
      'if x:',
      '    b = 1',
      'else:',
      '    b = 2',
      'c = [',
      '1,',
      ']',
      'f = lambda {',
      '    1',
      '}',
      '',
    ].join('\n');
    const cut = runs(src, 1);
    expect(cut.map((run) => run[0])).toEqual(['schema', 'if', 'c', 'f']);
    expect(cut.flat()).toEqual(tokenize(src, 'main.k').map((t) => t.text || t.type));
  });

  it('keeps a decorator with the statement under it', () => {
    const cut = runs('a = 1\n@deprecated\nschema A:\n    a: int\nb = 2\n', 1);
    expect(cut.map((run) => run[0])).toEqual(['a', '@', 'b']);
  });

  it('makes runs of at least the length asked for', () => {
    const cut = runs('a = 1\nb = 2\nc = 3\nd = 4\n', 8);
    expect(cut.map((run) => run.length)).toEqual([8, 8]);
  });
});

describe('dotted-name tokens (the fast path for `${name}` interpolations)', () => {
  it('gives what tokenize gives for a name or a dotted name', () => {
    for (const text of ['p', 'svc0000.containerPort', '_a.b_1.c2', 'all', 'a.type', 'schema', 'x.filter.map'])
      expect(dottedNameTokens(text)).toEqual(tokenize(text, 'main.k'));
  });

  it('declines anything else, which goes to the lexer', () => {
    for (const text of [
      '',
      'a.',
      '.a',
      'a..b',
      'a .b',
      '$a',
      'a.$b',
      'a[0]',
      'a + b',
      'True',
      'x.if',
      '1a',
      'a-b',
      'é',
    ])
      expect(dottedNameTokens(text)).toBeUndefined();
  });
});
