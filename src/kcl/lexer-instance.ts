import { TokenArrayLexer } from './lexer.js';

/** The lexer object the compiled grammar is bound to; parser.ts loads tokens into it. */
export const grammarLexer = new TokenArrayLexer();
