/**
 * The Earley runtime of this folder against nearley's own runtime, which stays here only as the
 * oracle: on the KCL grammar over the test corpus and the upstream grammar suite, and on small
 * grammars built by hand for the cases that are easy to get wrong (nullables, left recursion,
 * ambiguity, reject).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nearley from 'nearley';
import { describe, expect, it } from 'vitest';
import compiled from '../grammar.generated.js';
import { TokenArrayLexer, tokenize, type Token } from '../lexer.js';
import {
  type CompiledGrammar,
  type CompiledRule,
  earleyParse,
  EarleySyntaxError,
  type GrammarSymbol,
  MAX_ALTERNATIVES,
} from './index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The upstream kcl grammar suite; present on development machines, never committed. */
const UPSTREAM = '/work/kcl-grammar/tests/grammar';

/** A syntax error as the index of the token and the terminals expected there. */
type Outcome = { results: unknown[] } | { syntaxError: number; expected: string[] } | { thrown: string };

function describeTerminal(s: unknown): string {
  const t = s as { type?: string; literal?: string; test?: unknown };
  if (typeof t.test === 'function') return `test ${String(t.test)}`;
  return t.type ? `type ${t.type}` : `literal ${t.literal}`;
}

const terminalSet = (symbols: unknown[]): string[] => [...new Set(symbols.map(describeTerminal))].sort();

/** What nearley makes of tokens: its results, or the index of the token it stopped at. */
function viaNearley<T>(grammar: CompiledGrammar<T>, tokens: T[]): Outcome {
  const parser = new nearley.Parser(nearley.Grammar.fromCompiled(grammar as unknown as nearley.CompiledRules), {
    lexer: new TokenArrayLexer(tokens as unknown as Token[]),
  });
  // nearley keeps its chart in `table`; the column of the token it stopped at lists what it expected
  const expected = (): string[] => {
    const { table, current } = parser as unknown as {
      table: { scannable: { rule: { symbols: unknown[] }; dot: number }[] }[];
      current: number;
    };
    return terminalSet(table[current].scannable.map((s) => s.rule.symbols[s.dot]));
  };
  try {
    parser.feed('');
  } catch (e) {
    const offset = (e as { offset?: unknown }).offset;
    if (typeof offset === 'number' && (e as { token?: unknown }).token !== undefined)
      return { syntaxError: offset, expected: expected() };
    return { thrown: String(e) };
  }
  const results = parser.results as unknown[];
  return results.length === 0 ? { syntaxError: tokens.length, expected: expected() } : { results };
}

function viaEarley<T extends { type?: string; text?: string; value?: unknown }>(
  grammar: CompiledGrammar<T>,
  tokens: T[],
): Outcome {
  try {
    return { results: earleyParse(grammar, tokens).results };
  } catch (e) {
    if (e instanceof EarleySyntaxError) return { syntaxError: e.tokenIndex, expected: terminalSet(e.expected) };
    return { thrown: String(e) };
  }
}

function kFiles(dir: string, accept: (file: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (accept(p)) out.push(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out.sort();
}

/**
 * When nearley stops on an exception from a postprocessor, earley may differ: it runs
 * postprocessors only on the parse (a branch that dies later never throws) and only after the
 * whole input is recognised (a later syntax error is reported first). It may not throw another
 * exception.
 */
function agreesOnThrow(actual: Outcome, expected: { thrown: string }): boolean {
  return !('thrown' in actual) || actual.thrown === expected.thrown;
}

/** Compares both runtimes on one KCL file; files the lexer rejects have nothing to compare. */
function compareOn(file: string): 'ok' | 'error' | 'lexical' {
  let tokens: Token[];
  try {
    tokens = tokenize(fs.readFileSync(file, 'utf8'), file);
  } catch {
    return 'lexical';
  }
  const expected = viaNearley(compiled, tokens);
  const actual = viaEarley(compiled, tokens);
  if ('thrown' in expected) {
    expect([file, agreesOnThrow(actual, expected)]).toEqual([file, true]);
    return 'error';
  }
  if ('syntaxError' in expected) {
    expect([file, actual]).toEqual([file, expected]);
    return 'error';
  }
  expect([file, 'results' in actual ? actual.results.length : actual]).toEqual([file, expected.results.length]);
  expect([file, actual]).toEqual([file, expected]);
  return 'ok';
}

describe('earleyParse on the KCL grammar, against nearley', () => {
  it('agrees on every file of the test data', () => {
    const files = kFiles(path.join(here, '..', 'testdata'), (f) => f.endsWith('.k'));
    expect(files.length).toBeGreaterThan(3);
    for (const f of files) expect(compareOn(f)).toBe('ok');
  });

  it('agrees on token-level mutants of the corpus', () => {
    // deleting, repeating and swapping tokens makes syntax errors everywhere, and some odd valid
    // inputs; the seed is fixed so a failure reproduces
    let seed = 0x5eed;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const files = kFiles(path.join(here, '..', 'testdata', 'corpus'), (f) => f.endsWith('.k'));
    const tally = { ok: 0, error: 0 };
    for (const f of files) {
      const tokens = tokenize(fs.readFileSync(f, 'utf8'), f);
      for (let m = 0; m < 60; m++) {
        const mutant = [...tokens];
        const i = random(mutant.length);
        const kind = random(3);
        if (kind === 0) mutant.splice(i, 1);
        else if (kind === 1) mutant.splice(i, 0, mutant[random(mutant.length)]);
        else [mutant[i], mutant[(i + 1) % mutant.length]] = [mutant[(i + 1) % mutant.length], mutant[i]];
        const expected = viaNearley(compiled, mutant);
        const actual = viaEarley(compiled, mutant);
        if ('thrown' in expected) {
          expect([f, m, agreesOnThrow(actual, expected)]).toEqual([f, m, true]);
        } else {
          expect([f, m, actual]).toEqual([f, m, expected]);
        }
        tally['results' in actual ? 'ok' : 'error']++;
      }
    }
    expect(tally.error).toBeGreaterThan(tally.ok);
  });

  it.skipIf(!fs.existsSync(UPSTREAM))('agrees on every main.k of the upstream grammar suite', () => {
    const files = kFiles(UPSTREAM, (f) => path.basename(f) === 'main.k');
    const tally = { ok: 0, error: 0, lexical: 0 };
    for (const f of files) tally[compareOn(f)]++;
    expect(tally.ok).toBeGreaterThan(files.length / 2);
  });
});

// ------------------------------------------------------------------ small grammars by hand

interface Tok {
  type: string;
  text: string;
  value: string;
}

/** One token per character: letters are their own type and text. */
const toks = (s: string): Tok[] => [...s].map((ch) => ({ type: ch, text: ch, value: ch }));

const lit = (literal: string): GrammarSymbol<Tok> => ({ literal });
const rule = (
  name: string,
  symbols: GrammarSymbol<Tok>[],
  postprocess?: CompiledRule<Tok>['postprocess'],
): CompiledRule<Tok> => ({ name, symbols, postprocess });
const grammarOf = (start: string, ...rules: CompiledRule<Tok>[]): CompiledGrammar<Tok> => ({
  ParserRules: rules,
  ParserStart: start,
});

/** A readable tree: the rule's name and its children. */
const tree = (name: string) => (d: unknown[]) => [
  name,
  ...d.map((x) => (typeof x === 'object' && x !== null && 'text' in x ? (x as Tok).text : x)),
];

/** Every string over `alphabet` up to `max` characters. */
function strings(alphabet: string, max: number): string[] {
  const out = [''];
  for (let i = 0; i < out.length; i++) {
    if (out[i].length < max) for (const ch of alphabet) out.push(out[i] + ch);
  }
  return out;
}

function agreeOnAll(g: CompiledGrammar<Tok>, alphabet: string, max: number): void {
  for (const s of strings(alphabet, max)) {
    const expected = viaNearley(g, toks(s));
    const actual = viaEarley(g, toks(s));
    if ('results' in expected && 'results' in actual) {
      // nearley's order among alternatives follows its agenda; the sets must be equal
      const key = (r: unknown[]) => r.map((x) => JSON.stringify(x)).sort();
      expect([s, key(actual.results)]).toEqual([s, key(expected.results)]);
    } else {
      expect([s, actual]).toEqual([s, expected]);
    }
  }
}

describe('earleyParse on small grammars, against nearley', () => {
  it('handles nullable nonterminals at the start, middle and end of rules', () => {
    const g = grammarOf(
      'S',
      rule('S', ['A', 'B', lit('x'), 'A'], tree('S')),
      rule('A', [], tree('A')),
      rule('A', [lit('a')], tree('A')),
      rule('B', ['A', 'C'], tree('B')),
      rule('C', [], tree('C')),
      rule('C', [lit('c'), 'A'], tree('C')),
    );
    agreeOnAll(g, 'acx', 5);
    expect(earleyParse(g, toks('x')).results).toEqual([['S', ['A'], ['B', ['A'], ['C']], 'x', ['A']]]);
  });

  it('counts every derivation of an ambiguous nullable', () => {
    // A derives ε in two ways (directly and through B), so "x" has two parses
    const g = grammarOf(
      'S',
      rule('S', ['A', lit('x')], tree('S')),
      rule('A', [], tree('A')),
      rule('A', ['B'], tree('A')),
      rule('B', [], tree('B')),
    );
    expect(earleyParse(g, toks('x')).results).toHaveLength(2);
    agreeOnAll(g, 'x', 2);
  });

  it('parses a nullable start symbol on empty input', () => {
    const g = grammarOf(
      'L',
      rule('L', [], () => []),
      rule('L', ['L', lit('a')], (d) => [...(d[0] as unknown[]), 'a']),
    );
    expect(earleyParse(g, []).results).toEqual([[]]);
    agreeOnAll(g, 'ab', 4);
  });

  it('handles left and right recursion and counts ambiguous parses', () => {
    const left = grammarOf(
      'E',
      rule('E', ['E', lit('+'), 'N'], tree('E')),
      rule('E', ['N'], tree('E')),
      rule('N', [lit('n')], tree('N')),
    );
    expect(earleyParse(left, toks('n+n+n')).results).toEqual([
      ['E', ['E', ['E', ['N', 'n']], '+', ['N', 'n']], '+', ['N', 'n']],
    ]);
    agreeOnAll(left, 'n+', 6);
    const right = grammarOf(
      'E',
      rule('E', ['N', lit('+'), 'E'], tree('E')),
      rule('E', ['N'], tree('E')),
      rule('N', [lit('n')], tree('N')),
    );
    agreeOnAll(right, 'n+', 6);
    // E -> E + E is ambiguous: Catalan many parses
    const both = grammarOf('E', rule('E', ['E', lit('+'), 'E'], tree('E')), rule('E', [lit('n')], tree('E')));
    expect(earleyParse(both, toks('n+n+n')).results).toHaveLength(2);
    expect(earleyParse(both, toks('n+n+n+n+n')).results).toHaveLength(14);
    agreeOnAll(both, 'n+', 7);
  });

  it('lets reject discard one derivation of an ambiguous input', () => {
    // `n-n-n` has two trees; rejecting a subtraction as right operand leaves the left-leaning one
    const g = grammarOf(
      'E',
      rule('E', ['E', lit('-'), 'E'], (d, _ref, reject) => (Array.isArray(d[2]) ? reject : ['-', d[0], d[2]])),
      rule('E', [lit('n')], () => 'n'),
    );
    expect(earleyParse(g, toks('n-n-n')).results).toEqual([['-', ['-', 'n', 'n'], 'n']]);
    agreeOnAll(g, 'n-', 7);
  });

  it('reports the rejected input as unparseable', () => {
    const g = grammarOf(
      'S',
      rule('S', [lit('a')], (_d, _ref, reject) => reject),
      rule('S', [lit('b')]),
    );
    expect(() => earleyParse(g, toks('a'))).toThrow(EarleySyntaxError);
    expect(earleyParse(g, toks('b')).results).toEqual([[{ type: 'b', text: 'b', value: 'b' }]]);
  });

  it('passes the origin column as the reference', () => {
    const g = grammarOf(
      'S',
      rule('S', [lit('a'), 'T'], (d) => d[1]),
      rule('T', [lit('b'), 'U'], (d, ref) => [ref, d[1]]),
      rule('U', [], (_d, ref) => ref),
    );
    expect(earleyParse(g, toks('ab')).results).toEqual([[1, 2]]);
  });

  it('matches tokens by type, by literal text and by test', () => {
    const g = grammarOf(
      'S',
      rule('S', [{ type: 'd' }, lit('+'), { test: (t: Tok) => /[0-9]/.test(t.text) }], (d) =>
        d.map((t) => (t as Tok).text).join(''),
      ),
    );
    expect(
      earleyParse(g, [{ type: 'd', text: '7', value: '7' }, ...toks('+'), { type: 'x', text: '5', value: '5' }])
        .results,
    ).toEqual(['7+5']);
  });

  it('builds the ebnf lists nearleyc makes, with the same values as concat', () => {
    const append = (d: unknown[]) => (d[0] as unknown[]).concat([d[1]]);
    const g = grammarOf(
      'S',
      rule('S$ebnf$1', []),
      rule('S$ebnf$1', ['S$ebnf$1', 'I'], append),
      rule('S', ['S$ebnf$1'], (d) => d[0]),
      rule('I', [lit('i')], (d) => (d[0] as Tok).text),
    );
    expect(earleyParse(g, toks('iii')).results).toEqual([['i', 'i', 'i']]);
    agreeOnAll(g, 'ij', 4);
  });

  it('gives the values of the postprocessors it evaluates without calling them', () => {
    const append = (d: unknown[]) => (d[0] as unknown[]).concat([d[1]]);
    // a list base that is a shared constant must never be appended to in place
    const shared: unknown[] = [];
    const g = grammarOf(
      'S',
      rule('S', ['W', 'F', 'L$ebnf$1', lit('y'), 'M$ebnf$1'], tree('S')),
      rule('W', ['N'], (d) => [d[0]]),
      rule('F', ['N', lit('x')], (d) => d[0]),
      rule('L$ebnf$1', ['N']),
      rule('L$ebnf$1', ['L$ebnf$1', 'N'], append),
      rule('M$ebnf$1', [], () => shared),
      rule('M$ebnf$1', ['M$ebnf$1', 'N'], append),
      rule('N', [lit('n')], () => 'n'),
    );
    expect(earleyParse(g, toks('nnxnnyn')).results).toEqual([['S', ['n'], 'n', ['n', 'n'], 'y', ['n']]]);
    expect(shared).toEqual([]);
    agreeOnAll(g, 'nxy', 7);
  });

  it('scans a token that several terminals match, as nearley does', () => {
    const isDigit = { test: (t: Tok) => /[0-9]/.test(t.text) };
    const g = grammarOf(
      'S',
      rule('S', ['A'], tree('S')),
      rule('S', ['B', 'S'], tree('S')),
      rule('A', [{ type: '1' }], tree('A')),
      rule('A', [lit('1'), lit('2')], tree('A')),
      rule('B', [isDigit], tree('B')),
      rule('B', [isDigit, lit('2')], tree('B')),
    );
    agreeOnAll(g, '12', 6);
  });

  it('names the offending token and the expected terminals', () => {
    const g = grammarOf('S', rule('S', [lit('a'), 'T']), rule('T', [lit('b')]), rule('T', [{ type: 'c' }]));
    try {
      earleyParse(g, toks('ax'));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(EarleySyntaxError);
      const err = e as EarleySyntaxError<Tok>;
      expect(err.tokenIndex).toBe(1);
      expect(err.token?.text).toBe('x');
      expect(err.expected).toEqual(expect.arrayContaining([{ literal: 'b' }, { type: 'c' }]));
      expect(err.expected).toHaveLength(2);
    }
    try {
      earleyParse(g, toks('a'));
      expect.unreachable();
    } catch (e) {
      const err = e as EarleySyntaxError<Tok>;
      expect([err.tokenIndex, err.token]).toEqual([1, undefined]);
      expect(err.expected).toHaveLength(2);
    }
  });

  it('builds a left-recursive list as long as the stack would not allow recursion for', () => {
    const g = grammarOf(
      'L',
      rule('L', [lit('a')], () => 1),
      rule('L', ['L', lit('a')], (d) => (d[0] as number) + 1),
    );
    expect(earleyParse(g, toks('a'.repeat(200_000))).results).toEqual([200_000]);
  });

  it('caps the alternatives it keeps of a highly ambiguous input', () => {
    const g = grammarOf('E', rule('E', ['E', 'E']), rule('E', [lit('n')]));
    expect(earleyParse(g, toks('n'.repeat(12))).results).toHaveLength(MAX_ALTERNATIVES);
  });

  it('is re-entrant: a postprocessor may parse', () => {
    const inner = grammarOf(
      'S',
      rule('S', [lit('b'), lit('b')], () => 'inner'),
    );
    const outer = grammarOf(
      'S',
      rule('S', [lit('a'), 'T'], (d) => d[1]),
      rule('T', [lit('a')], () => earleyParse(inner, toks('bb')).results[0]),
    );
    expect(earleyParse(outer, toks('aa')).results).toEqual(['inner']);
  });
});
