/**
 * kcl's braced lambda parameters, `lambda {x: int} -> int {...}`: its parser reads a `{` right
 * after `lambda` as the parameter list when an arrow follows the matching `}`, and as the body
 * otherwise. The lexer asks this before it lays the brace out as a block or as brackets; the scan
 * runs only at such a brace, and strings and comments are skipped so their braces do not count.
 */

/** Whether the `{` at `open` is closed by a `}` followed by `->` (blanks, line breaks, comments
 * and line continuations between them). */
export function bracesBeforeArrow(source: string, open: number): boolean {
  let depth = 0;
  let i = open;
  while (i < source.length) {
    const c = source[i];
    if (c === '#') {
      i = lineEnd(source, i);
    } else if (c === '"' || c === "'") {
      i = stringEnd(source, i);
    } else {
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) return source.startsWith('->', afterBlanks(source, i + 1));
      i++;
    }
  }
  return false;
}

function lineEnd(s: string, i: number): number {
  const end = s.indexOf('\n', i);
  return end === -1 ? s.length : end;
}

/** Where the string literal opening at `i` ends (an unterminated one at its line's end). */
function stringEnd(s: string, i: number): number {
  const quote = s.startsWith(s[i].repeat(3), i) ? s[i].repeat(3) : s[i];
  let j = i + quote.length;
  while (j < s.length) {
    if (s[j] === '\\') j += 2;
    else if (s.startsWith(quote, j)) return j + quote.length;
    else if (quote.length === 1 && s[j] === '\n') return j;
    else j++;
  }
  return s.length;
}

function afterBlanks(s: string, i: number): number {
  let j = i;
  while (j < s.length) {
    const c = s[j];
    if (c === '#') j = lineEnd(s, j);
    else if (c === ' ' || c === '\t' || c === '\f' || c === '\r' || c === '\n' || c === '\\') j++;
    else break;
  }
  return j;
}
