/**
 * Rendering the console in tests: ink-testing-library at a fixed terminal size, keys sent by
 * name with a macrotask after each (React 19 and Ink 6 need one before the next key is seen),
 * and bounded waits for a frame that shows what the test expects. Frames are compared as text,
 * without colour.
 */
import { stripVTControlCharacters } from 'node:util';
import type { ReactNode } from 'react';
import { render } from 'ink-testing-library';
import { TerminalSizeContext, type TerminalSize } from '../hooks/useTerminalSize.js';

const SEQUENCES: Record<string, string> = {
  enter: '\r',
  esc: '\u001B',
  tab: '\t',
  'shift+tab': '\u001B[Z',
  up: '\u001B[A',
  down: '\u001B[B',
  right: '\u001B[C',
  left: '\u001B[D',
  pgup: '\u001B[5~',
  pgdn: '\u001B[6~',
  backspace: '\u007F',
  'ctrl+c': '\u0003',
  'ctrl+d': '\u0004',
};

/** Lets React and Ink handle what was written: input parsing flushes on setImmediate, effects after. */
export const settle = async () => {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setTimeout(r, 0));
};

export interface Tui {
  frame(): string;
  /** Keys by name (enter, esc, down, …) or as characters; each is let through before the next. */
  press(...keys: string[]): Promise<void>;
  /** Characters typed one at a time, as a person would. */
  type(text: string): Promise<void>;
  waitFor(expected: string | RegExp | ((frame: string) => boolean), limitMs?: number): Promise<string>;
  resize(size: TerminalSize): Promise<void>;
  unmount(): void;
}

export async function renderTui(node: ReactNode, size: TerminalSize = { columns: 100, rows: 30 }): Promise<Tui> {
  const wrap = (s: TerminalSize) => <TerminalSizeContext.Provider value={s}>{node}</TerminalSizeContext.Provider>;
  const r = render(wrap(size));
  // ink-testing-library's stdout is 100 columns whatever the test says; Ink lays out to it
  let columns = size.columns;
  Object.defineProperty(r.stdout, 'columns', { configurable: true, get: () => columns });
  r.stdout.emit('resize');
  r.rerender(wrap(size));
  await settle();
  const frame = () => stripVTControlCharacters(r.lastFrame() ?? '');
  return {
    frame,
    async press(...keys) {
      for (const k of keys) {
        r.stdin.write(SEQUENCES[k] ?? k);
        await settle();
      }
    },
    async type(text) {
      for (const ch of text) {
        r.stdin.write(ch);
        await settle();
      }
    },
    async waitFor(expected, limitMs = 10_000) {
      const ok = (f: string) =>
        typeof expected === 'string'
          ? f.includes(expected)
          : expected instanceof RegExp
            ? expected.test(f)
            : expected(f);
      const deadline = Date.now() + limitMs;
      for (;;) {
        const f = frame();
        if (ok(f)) return f;
        if (Date.now() > deadline)
          throw new Error(`no frame showed ${String(expected)} within ${limitMs} ms; the last frame was:\n${f}`);
        await new Promise((res) => setTimeout(res, 10));
      }
    },
    async resize(next) {
      columns = next.columns;
      r.stdout.emit('resize');
      r.rerender(wrap(next));
      await settle();
    },
    unmount: () => r.unmount(),
  };
}
