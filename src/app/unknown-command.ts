/**
 * What both faces say when a command word is not one of theirs: the closest command, when one
 * is close enough to be a typo (the same similarity kcl uses for its "did you mean"), else the
 * list. One wording, so `kdeck applly` and `:applly` read alike.
 */
import { suggestions } from '../kcl/suggestions.js';

export function unknownCommand(word: string, commands: readonly string[], prefix = ''): string {
  const closest = suggestions(word, commands).at(-1);
  return closest === undefined
    ? `unknown command '${word}'; the commands are ${commands.map((c) => prefix + c).join(', ')}`
    : `unknown command '${word}' — did you mean ${prefix}${closest}?`;
}
