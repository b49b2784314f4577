/**
 * A real terminal for the console's end-to-end tests: a tmux server on a private socket, its
 * screen read with capture-pane and keys sent with send-keys. Every call and every wait is
 * bounded; the test kills the server by its socket when it is done.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export interface Terminal {
  tmux(...args: string[]): string;
  screen(): string;
  keys(...names: string[]): void;
  /** Types `text` literally (no key names). */
  type(text: string): void;
  /** Waits (bounded) for the screen to show `what`; fails with the last screen. */
  until(what: string | RegExp, limitMs?: number): Promise<string>;
  /** Waits (bounded) for the session's command to write its exit code to `file`; fails with the last screen. */
  exitCode(file: string, limitMs?: number): Promise<string>;
}

/** Fails at once, with the reason, where tmux is missing. */
export function requireTmux(): void {
  try {
    execFileSync('tmux', ['-V'], { timeout: 5_000 });
  } catch {
    throw new Error('tmux is needed for the console end-to-end test (it is part of the machine image)');
  }
}

/** The terminal of tmux session `session` on the server at `socket`. */
export function terminal(socket: string, session = 'console'): Terminal {
  const tmux = (...args: string[]) =>
    execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', timeout: 10_000 });
  const screen = () => tmux('capture-pane', '-p', '-t', session);
  const written = (file: string) => fs.existsSync(file) && fs.readFileSync(file, 'utf8').trim() !== '';
  return {
    tmux,
    screen,
    keys: (...names) => void tmux('send-keys', '-t', session, ...names),
    type: (text) => void tmux('send-keys', '-t', session, '-l', text),
    async exitCode(file, limitMs = 30_000) {
      const deadline = Date.now() + limitMs;
      while (!written(file)) {
        if (Date.now() > deadline)
          throw new Error(`${session} did not end within ${limitMs} ms; the screen was:\n${screen()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return fs.readFileSync(file, 'utf8').trim();
    },
    async until(what, limitMs = 30_000) {
      const deadline = Date.now() + limitMs;
      for (;;) {
        const s = screen();
        if (typeof what === 'string' ? s.includes(what) : what.test(s)) return s;
        if (Date.now() > deadline)
          throw new Error(`${session} did not show ${String(what)} within ${limitMs} ms; the screen was:\n${s}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}
