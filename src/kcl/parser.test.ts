import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type * as A from './ast.js';
import { KclError } from '../diagnostics/diagnostics.js';
import { countParses, parseModule } from './parser.js';

const here = path.dirname(fileURLToPath(import.meta.url));

function corpus(): string[] {
  const roots = [path.join(here, 'testdata'), path.join(here, '..', '..', 'konfig-sample')];
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.k')) out.push(p);
    }
  };
  roots.forEach(walk);
  return out;
}

const expr = (src: string): A.Expr => {
  const stmt = parseModule(`x = ${src}\n`, 'main.k').body[0] as A.AssignStmt;
  return stmt.value;
};

/** Renders an expression tree with explicit parentheses, to check precedence. */
function show(e: A.Expr): string {
  switch (e.type) {
    case 'Binary':
      return `(${show(e.left)} ${e.op} ${show(e.right)})`;
    case 'Compare':
      return `(${show(e.left)} ${e.ops.map((op, i) => `${op} ${show(e.comparators[i])}`).join(' ')})`;
    case 'Unary':
      return `(${e.op} ${show(e.operand)})`;
    case 'Identifier':
      return e.names.join('.');
    case 'NumberLit':
      return String(e.value);
    case 'IfExpr':
      return `(${show(e.body)} if ${show(e.cond)} else ${show(e.orelse)})`;
    case 'As':
      return `(${show(e.value)} as ${e.target.type === 'NamedType' ? e.target.name.join('.') : e.target.type})`;
    default:
      return e.type;
  }
}

describe('grammar', () => {
  it('has exactly one parse for every file of the corpus', () => {
    const files = corpus();
    expect(files.length).toBeGreaterThan(3);
    for (const f of files) expect([f, countParses(fs.readFileSync(f, 'utf8'), f)]).toEqual([f, 1]);
  });

  it('applies kcl operator precedence', () => {
    expect(show(expr('a or b and not c == d'))).toBe('(a or (b and ((not c) == d)))');
    expect(show(expr('1 + 2 * 3 ** 2'))).toBe('(1 + (2 * (3 ** 2)))');
    expect(show(expr('a | b ^ c & d << 1'))).toBe('(a | (b ^ (c & (d << 1))))');
    expect(show(expr('a is not b'))).toBe('(a is not b)');
    expect(show(expr('a not in b'))).toBe('(a not in b)');
    expect(show(expr('a < b < c'))).toBe('(a < b < c)');
    expect(show(expr('a if b else c if d else e'))).toBe('(a if b else (c if d else e))');
    expect(show(expr('-a ** 2'))).toBe('((- a) ** 2)');
    expect(show(expr('a as str if b else c as d.R'))).toBe('((a as str) if b else (c as d.R))');
    expect(show(expr('a or b as str'))).toBe('((a or b) as str)');
  });

  it('parses schema statements with every part', () => {
    const src = [
      '@deprecated(version="1.0")',
      'schema Server[name: str](Base) for P:',
      '    """A server."""',
      '    mixin [LabelMixin]',
      '    image: str',
      '    replicas?: int = 1',
      '    [...str]: str',
      '    check:',
      '        replicas > 0 if image, "need replicas"',
      '',
    ].join('\n');
    const s = parseModule(src, 'main.k').body[0] as A.SchemaStmt;
    expect(s).toMatchObject({ type: 'Schema', name: 'Server', doc: 'A server.', params: [{ name: 'name' }] });
    expect(s.parent?.names).toEqual(['Base']);
    expect(s.forProtocol?.names).toEqual(['P']);
    expect(s.mixins.map((m) => m.names[0])).toEqual(['LabelMixin']);
    expect(s.body.map((b) => b.type)).toEqual(['Attr', 'Attr']);
    expect(s.indexSignature).toMatchObject({ anyOther: true });
    expect(s.checks).toHaveLength(1);
    expect(s.checks[0].ifCond).toBeDefined();
    expect(s.decorators[0].name.names).toEqual(['deprecated']);
  });

  it('parses config entries with operators, dotted keys, unpacking and if entries', () => {
    const e = expr(
      '{\n    a.b.c = 1\n    d += [2]\n    **e\n    if f:\n        g: 3\n    elif h: i = 4\n    else:\n        j = 5\n}',
    ) as A.ConfigExpr;
    expect(e.items.map((i) => (i.type === 'ConfigEntry' ? i.op : 'if'))).toEqual(['=', '+=', ':', 'if']);
    const cond = e.items[3] as A.ConfigIfEntry;
    expect((cond.orelse as A.ConfigIfEntry).type).toBe('ConfigIfEntry');
  });

  it('parses comprehensions, quantifiers, lambdas, slices and schema calls', () => {
    expect(expr('[x * y for x in a for y in b if x > y]').type).toBe('ListComp');
    expect(expr('{k: v for k, v in d}').type).toBe('DictComp');
    expect(expr('all x in a { x > 0 }').type).toBe('QuantExpr');
    expect(expr('lambda x: int, y = 1 -> int { x + y }').type).toBe('Lambda');
    expect(expr('a[1:2:-1]')).toMatchObject({ type: 'Subscript', isSlice: true });
    expect(expr('a?.b?[0]')).toMatchObject({ type: 'Subscript', optional: true });
    expect(expr('pkg.Server(1) {name = "x"}')).toMatchObject({ type: 'SchemaExpr', args: [{ type: 'NumberLit' }] });
  });

  it('parses string interpolation with format specs at their place', () => {
    const e = expr('"a ${b + 1} ${c: #json}"') as A.StringLit;
    expect(e.parts?.map((p) => p.spec ?? p.text ?? 'expr')).toEqual(['a ', 'expr', ' ', 'json']);
    expect(e.parts?.[1].expr).toMatchObject({ type: 'Binary', line: 1, column: 10 });
  });

  it('reads a name or dotted name in an interpolation as the same expression written in code', () => {
    // `a.b.c` at column 8 of the interpolation, and at column 5 of the assignment below it
    const [x, y] = parseModule('x = "${a.b.c}"\ny = a.b.c\n', 'main.k').body as A.AssignStmt[];
    const inString = (x.value as A.StringLit).parts?.[0].expr;
    const shifted = (n: unknown): unknown =>
      JSON.parse(JSON.stringify(n), (k, v: unknown) =>
        k === 'line' || k === 'endLine'
          ? (v as number) + 1
          : k === 'column' || k === 'endColumn'
            ? (v as number) - 3
            : v,
      );
    expect(inString).toMatchObject({ type: 'Selector', attr: 'c', line: 1, column: 8, endColumn: 12 });
    expect(shifted(inString)).toEqual(y.value);
  });

  it('names the unexpected token and what was expected', () => {
    try {
      parseModule('a = 1\nb = (2 +\n', 'main.k');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(KclError);
      const d = (e as KclError).diagnostic;
      expect(d.kind).toBe('InvalidSyntax');
      expect(d.position?.file).toBe('main.k');
      expect(d.message).toMatch(/^unexpected/);
    }
    try {
      parseModule('schema A:\n    a: int =\n', 'main.k');
      expect.unreachable();
    } catch (e) {
      const d = (e as KclError).diagnostic;
      expect(d.position).toMatchObject({ line: 2, column: 13 });
      expect(d.message).toBe('unexpected newline, expected an expression');
    }
  });

  it('says only which token came too many where the statement could have ended, as kcl does', () => {
    const message = (src: string) => {
      try {
        parseModule(src, 'main.k');
      } catch (e) {
        const d = (e as KclError).diagnostic;
        return `${d.position?.line}:${d.position?.column} ${d.message}`;
      }
      return 'parsed';
    };
    expect(message('a = 1, 2\n')).toBe("1:6 unexpected token ','");
    expect(message('x = 1\n_a + 1 = 2\n')).toBe("2:1 'BinaryExpression' is an illegal expression for assignment");
    expect(message('_f() += 2\n')).toBe("1:1 'CallExpression' is an illegal expression for assignment");
    expect(message('_a[1:2] = [2, 3]\n')).toBe(
      "1:1 'SubscriptExpression' is an illegal expression for assignment, because the left-hand side of an assignment expression may not be a slice access",
    );
    expect(message('mi = 1mi\n')).toBe('1:6 invalid int binary suffix');
    expect(message('d = [i for k, i.j.k in data]\n')).toBe('1:15 loop variables can only be ordinary identifiers');
    expect(message('if True:\n    a = 1\nelse if False:\n    b = 1\n')).toBe(
      "3:1 'else if' here is invalid in KCL, consider using the 'elif' keyword",
    );
    // in an if expression `else if` is no such mistake to kcl's parser, only an unexpected token
    expect(message('a = 1 if False else if\n')).not.toContain('elif');
    expect(message('schema A:\n    x: int = 1\n    x?.y = 2\n')).toBe(
      "3:5 'SelectorExpression' is an illegal expression for assignment, because the left-hand side of an assignment expression may not be an optional attribute access.",
    );
  });

  it('goes on at the next top-level statement after a syntax error, and reports every one', () => {
    const places = (src: string) => {
      try {
        parseModule(src, 'main.k');
      } catch (e) {
        const d = (e as KclError).diagnostic;
        return [d, ...(d.also ?? [])].map((x) => `${x.position?.line}:${x.position?.column}`);
      }
      return [];
    };
    expect(places('a = = 1\nb = 2\nc = 3 +\nschema S:\n    x: int =\nd = 4 +\n')).toEqual([
      '1:5',
      '3:8',
      '5:13',
      '6:8',
    ]);
    // what follows a block, an `else`, or a line inside brackets is not a statement of its own
    expect(places('if a:\n    b = = 1\nelse:\n    c = 1\n')).toEqual(['2:9']);
    expect(places('x = [\n1 +, 2\n]\ny = 1\n')).toEqual(['2:4']);
    // a bracket that never closes leaves nothing to go on with
    expect(places('x = [1,\ny = = 2\n')).toHaveLength(1);
  });
});

describe('number literals', () => {
  it('reads plain decimals and the other integer forms alike', () => {
    const values = (src: string) =>
      parseModule(src, 'main.k').body.map((s) =>
        s.type === 'Assign' && s.value.type === 'NumberLit' ? s.value.value : undefined,
      );
    expect(values('a = 0\nb = 7\nc = 1234567890123456789012\nd = 017\ne = 1_000\nf = 0x1F\n')).toEqual([
      0n,
      7n,
      1234567890123456789012n,
      15n,
      1000n,
      31n,
    ]);
  });
});
