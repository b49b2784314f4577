import { describe, expect, it } from 'vitest';
import { unknownCommand } from './unknown-command.js';

describe('an unknown command word', () => {
  it('names the closest command when the word is a typo of one', () => {
    expect(unknownCommand('applly', ['apply', 'destroy', 'preview'])).toBe(
      "unknown command 'applly' — did you mean apply?",
    );
    expect(unknownCommand('destory', ['apply', 'destroy'], ':')).toBe(
      "unknown command 'destory' — did you mean :destroy?",
    );
  });

  it('lists the commands when none is close', () => {
    expect(unknownCommand('xyz', ['apply', 'destroy'], ':')).toBe(
      "unknown command 'xyz'; the commands are :apply, :destroy",
    );
  });
});
