/**
 * One name per key, whatever Ink reports: `j`, `J`, `enter`, `esc`, `tab`, `shift+tab`, `up`,
 * `pgdn`, `ctrl+c`, `alt+x`, `space`, `backspace`. Ink 6 quirks are absorbed here (a lone
 * Escape also sets `meta`; Backspace, byte 0x7F, comes as `delete`), so moving to Ink 7 is a
 * change of this file only. Keymap files use the same names.
 */
import type { Key } from 'ink';

const NAMED_KEYS = [
  'enter',
  'esc',
  'tab',
  'shift+tab',
  'up',
  'down',
  'left',
  'right',
  'pgup',
  'pgdn',
  'home',
  'end',
  'space',
  'backspace',
] as const;

export function keyName(input: string, key: Key): string {
  if (key.escape) return 'esc';
  if (key.return) return 'enter';
  if (key.tab) return key.shift ? 'shift+tab' : 'tab';
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.pageUp) return 'pgup';
  if (key.pageDown) return 'pgdn';
  if (key.home) return 'home';
  if (key.end) return 'end';
  if (key.backspace || key.delete) return 'backspace';
  if (key.ctrl && input.length === 1) return `ctrl+${input.toLowerCase()}`;
  if (key.meta && input.length === 1) return `alt+${input}`;
  if (input === ' ') return 'space';
  return input;
}

/** Whether `name` is a key a keymap may bind. */
export function isKeyName(name: string): boolean {
  if ((NAMED_KEYS as readonly string[]).includes(name)) return true;
  if (/^(ctrl|alt)\+[a-z]$/.test(name)) return true;
  return [...name].length === 1 && name !== ' ' && name >= ' ';
}

/** A key as the footer and help show it. */
export function keyLabel(name: string): string {
  const arrows: Record<string, string> = { up: '↑', down: '↓', left: '←', right: '→' };
  return arrows[name] ?? name;
}
