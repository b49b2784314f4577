/**
 * What the compiled grammar binds to: the lexer object nearleyc asks about token types, and the
 * terminals that match a class of tokens by a test. A grammar reference `%name` becomes
 * `{type: "name"}` when `has("name")` is true, and the object named `name` below otherwise.
 */
import { TokenArrayLexer, type Token } from './lexer.js';

interface TokenTest {
  test(token: Token): boolean;
}

const QUANTIFIERS = new Set(['all', 'any', 'map', 'filter']);
const PREFIX_OPERATORS = new Set(['-', '+', '~', 'not']);

export const TOKEN_TESTS: Record<string, TokenTest> = {
  /** `all`, `any`, `map`, `filter` stay names elsewhere (`filter` may be a config key). */
  quantifier: { test: (t) => t.type === 'name' && QUANTIFIERS.has(t.text) },
  prefixOp: { test: (t) => t.type !== 'name' && t.type !== 'string' && PREFIX_OPERATORS.has(t.text) },
  /** After a dot every word is a name: `pkg.mixin`, `config.type`. */
  anyName: {
    test: (t) =>
      t.type === 'name' ||
      t.type === 'keyword' ||
      (t.type === 'binop' && /^[a-z]/.test(t.text)) ||
      t.type === 'constant',
  },
  /** Entries of lists, configs and name lists are separated by commas or line breaks. */
  separator: { test: (t) => t.type === 'NEWLINE' || t.text === ',' },
};

class GrammarLexer extends TokenArrayLexer {
  override has(tokenType: string): boolean {
    return !(tokenType in TOKEN_TESTS);
  }
}

export const grammarLexer = new GrammarLexer();
