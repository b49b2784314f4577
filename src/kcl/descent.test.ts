/**
 * The recursive-descent reader against the grammar it follows: wherever it reads tokens, the
 * Earley parser over grammar/kcl.ne must find exactly one parse of them, and the same tree. It
 * may give up (the Earley parser then reads), but on the sample repository and the corpus it
 * must not need to, or parsing is slow again without anyone seeing why.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type * as A from './ast.js';
import { readExpression, readStatements } from './descent.js';
import { earleyParse } from './earley/index.js';
import compiled from './grammar.generated.js';
import { lexRuns, tokenize, type Token } from './lexer.js';
import { parseModule } from './parser.js';
import { Random } from '../sandbox/random.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOTS = [path.join(HERE, 'testdata'), path.join(HERE, '..', '..', 'konfig-sample')];

function kclFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return kclFiles(p);
    return p.endsWith('.k') ? [p] : [];
  });
}

const FILES = ROOTS.flatMap(kclFiles);

/** The Earley parser's one parse of the tokens; undefined when it finds none or several. */
function grammarParse(tokens: Token[]): A.Stmt[] | undefined {
  try {
    const parses = earleyParse<Token>(compiled, tokens).results as A.Stmt[][];
    return parses.length === 1 ? parses[0] : undefined;
  } catch {
    return undefined;
  }
}

/** The runs of statements the parser hands over, as it lexes them. */
function runsOf(source: string, file: string): Token[][] {
  try {
    return [...lexRuns(source, file, 512)];
  } catch {
    return [];
  }
}

function statementsOf(source: string): A.Stmt[] | undefined {
  return readStatements(tokenize(source, 'test.k'));
}

describe('the recursive-descent reader', () => {
  it('reads every statement of the sample repository and the corpus, as the grammar does', () => {
    expect(FILES.length).toBeGreaterThan(50);
    const gaveUp: string[] = [];
    for (const file of FILES) {
      for (const tokens of runsOf(readFileSync(file, 'utf8'), file)) {
        const read = readStatements(tokens);
        if (read === undefined) {
          gaveUp.push(path.relative(HERE, file));
          continue;
        }
        expect(read, `${file}:${tokens[0].line}`).toEqual(grammarParse(tokens));
      }
    }
    // `lambda a, b = 2 {...}`: a default followed by the body's brace reads as `2 {...}` first
    expect(gaveUp).toEqual(['testdata/corpus/05_lambdas.k']);
  });

  it('reads a mutated token stream only where the grammar has one parse of it, and the same', () => {
    const random = new Random(0x64_65_73_63); // "desc"
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random.next() * xs.length)];
    const runs = FILES.flatMap((file) => runsOf(readFileSync(file, 'utf8'), file));
    let read = 0;
    let refused = 0;
    for (let i = 0; i < 6000; i++) {
      const tokens = [...pick(runs)];
      // one edit with tokens of the same run: keywords, brackets and layout tokens in places
      // they never are, or (a token for one of its own type) a run that often still parses
      const at = Math.floor(random.next() * tokens.length);
      const op = random.next();
      if (op < 0.2) tokens.splice(at, 1);
      else if (op < 0.4) tokens.splice(at, 0, pick(tokens));
      else if (op < 0.5) [tokens[at], tokens[at - 1]] = [tokens[at - 1] ?? tokens[at], tokens[at]];
      else tokens.splice(at, 1, pick(tokens.filter((t) => t.type === tokens[at].type)));
      const mine = readStatements(tokens);
      const theirs = grammarParse(tokens);
      if (mine === undefined) {
        if (theirs === undefined) refused++;
        continue;
      }
      read++;
      expect(theirs, `tokens the grammar does not read as one parse: mutant ${i}`).toBeDefined();
      expect(mine).toEqual(theirs);
    }
    // both outcomes must be common, or the comparison proves little
    expect(read).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(1000);
  });

  it('tells an attribute from a unification, and an index signature from a list', () => {
    const [attr, unification] = statementsOf('a: S\nb: S {x = 1}\n')!;
    expect(attr).toMatchObject({ type: 'Attr', name: 'a', annotation: { type: 'NamedType', name: ['S'] } });
    expect(unification).toMatchObject({ type: 'Unification', target: { name: 'b' }, value: { type: 'SchemaExpr' } });
    const [schema] = statementsOf('schema S:\n    [k: str]: int\n    [1, 2]\n    x: int = 1\n') as A.SchemaStmt[];
    expect(schema.indexSignature).toMatchObject({ keyName: 'k', valueType: { type: 'NamedType', name: ['int'] } });
    expect(schema.body.map((s) => s.type)).toEqual(['ExprStmt', 'Attr']);
  });

  it('leaves an `if` without `else` to what encloses the expression, as the grammar does', () => {
    const [schema] = statementsOf(
      'schema S:\n    x: int\n    check:\n        x if x > 0 else 1, "m"\n        x > 1 if x\n',
    ) as A.SchemaStmt[];
    expect(schema.checks[0]).toMatchObject({ test: { type: 'IfExpr' }, message: { type: 'StringLit' } });
    expect(schema.checks[1]).toMatchObject({ test: { type: 'Compare' }, ifCond: { type: 'Identifier' } });
  });

  it('gives up where the grammar reads a type in two ways, and the parser still reads it', () => {
    const source = 'f: (int) -> int | str = None\n';
    expect(statementsOf(source)).toBeUndefined();
    expect(parseModule(source, 'test.k').body).toHaveLength(1);
  });

  it('reads an interpolation as one expression and nothing else', () => {
    expect(readExpression(tokenize('a.b[0] + 1', 'test.k'))).toMatchObject({ type: 'Binary', op: '+' });
    expect(readExpression(tokenize('a = 1', 'test.k'))).toBeUndefined();
  });
});
