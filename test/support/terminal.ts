/**
 * A real terminal for the console's end-to-end tests: a tmux server on a private socket, its
 * screen read with capture-pane and keys sent with send-keys. Every call and every wait is
 * bounded; the test kills the server by its socket when it is done.
 */
import { execFileSync } from 'node:child_process';

export interface Terminal {
  tmux(...args: string[]): string;
  screen(): string;
  keys(...names: string[]): void;
  /** Types `text` literally (no key names). */
  type(text: string): void;
  /** Waits (bounded) for the screen to show `what`; fails with the last screen. */
  until(what: string | RegExp, limitMs?: number): Promise<string>;
}

/** Fails at once, with the reason, where tmux is missing. */
export function requireTmux(): void {
  try {
    execFileSync('tmux', ['-V'], { timeout: 5_000 });
  } catch {
    throw new Error('tmux is needed for the console end-to-end test (it is part of the machine image)');
  }
}

/** The terminal of session `console` on the tmux server at `socket`. */
export function terminal(socket: string): Terminal {
  const tmux = (...args: string[]) =>
    execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', timeout: 10_000 });
  const screen = () => tmux('capture-pane', '-p', '-t', 'console');
  return {
    tmux,
    screen,
    keys: (...names) => void tmux('send-keys', '-t', 'console', ...names),
    type: (text) => void tmux('send-keys', '-t', 'console', '-l', text),
    async until(what, limitMs = 30_000) {
      const deadline = Date.now() + limitMs;
      for (;;) {
        const s = screen();
        if (typeof what === 'string' ? s.includes(what) : what.test(s)) return s;
        if (Date.now() > deadline)
          throw new Error(`the console did not show ${String(what)} within ${limitMs} ms; the screen was:\n${s}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}
