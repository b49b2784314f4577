/**
 * The console rendered for the bench: Ink writing to a stream that keeps the last frame and
 * when it came, and a stdin that takes keys, at a fixed terminal size. Ink renders with the
 * console's own options (its frame rate limit too), and a key's time runs to the last frame it
 * caused: a key whose update takes two renders is on screen only when the second is written.
 */
import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import { stripVTControlCharacters } from 'node:util';
import { createElement, type ReactElement } from 'react';
import { render } from 'ink';
import { TerminalSizeContext } from '../src/ui/hooks/useTerminalSize.js';
import { FRAME_INTERVAL_MS, RENDER_OPTIONS } from '../src/ui/render-options.js';

class FrameSink extends EventEmitter {
  readonly columns = 100;
  readonly rows = 30;
  frames = 0;
  last = '';
  lastAt = 0;

  write = (chunk: string): boolean => {
    this.last = chunk;
    this.frames++;
    this.lastAt = performance.now();
    return true;
  };
}

/** What Ink needs of stdin: raw mode, and `readable` with read() serving one write. */
class KeySource extends EventEmitter {
  readonly isTTY = true;
  private data: string | null = null;

  write(data: string): void {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  }

  read(): string | null {
    const d = this.data;
    this.data = null;
    return d;
  }

  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
}

export interface BenchScreen {
  /** The last frame, without colour. */
  frame(): string;
  /** Sends a key and resolves once a new frame is out: the ms from the key to the frame. */
  press(key: string, limitMs?: number): Promise<number>;
  /** Types keys, without waiting for frames (a key may change nothing on screen). */
  type(text: string): Promise<void>;
  /** Resolves once a frame shows `text`; the ms from `since` (default: now) to that frame. */
  waitFor(text: string, since?: number, limitMs?: number): Promise<number>;
  unmount(): void;
}

export function benchRender(app: ReactElement): BenchScreen {
  const stdout = new FrameSink();
  const stdin = new KeySource();
  const instance = render(
    createElement(TerminalSizeContext.Provider, { value: { columns: stdout.columns, rows: stdout.rows } }, app),
    {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      stderr: new FrameSink() as unknown as NodeJS.WriteStream,
      ...RENDER_OPTIONS,
    },
  );
  const frame = () => stripVTControlCharacters(stdout.last);
  const tick = () => new Promise((r) => setImmediate(r));
  return {
    frame,
    async press(key, limitMs = 5_000) {
      // the console listens once its effects have run
      while (stdin.listenerCount('readable') === 0) await tick();
      await tick();
      const before = stdout.frames;
      const t0 = performance.now();
      stdin.write(key);
      const deadline = t0 + limitMs;
      while (stdout.frames === before) {
        if (performance.now() > deadline)
          throw new Error(`no frame came within ${limitMs} ms after the key ${JSON.stringify(key)}`);
        await tick();
      }
      // more frames of the same key come within Ink's frame interval of each other; the next key
      // then comes no sooner than a terminal repeats one
      for (let seen = stdout.frames; ; seen = stdout.frames) {
        await new Promise((r) => setTimeout(r, 2 * FRAME_INTERVAL_MS));
        if (stdout.frames === seen) break;
      }
      return stdout.lastAt - t0;
    },
    async type(text) {
      while (stdin.listenerCount('readable') === 0) await tick();
      for (const ch of text) {
        stdin.write(ch);
        await tick();
      }
    },
    async waitFor(text, since = performance.now(), limitMs = 30_000) {
      const deadline = performance.now() + limitMs;
      while (!frame().includes(text)) {
        if (performance.now() > deadline)
          throw new Error(`no frame showed ${text} within ${limitMs} ms; the last one was:\n${frame()}`);
        await new Promise((r) => setTimeout(r, 1));
      }
      return stdout.lastAt - since;
    },
    unmount: () => instance.unmount(),
  };
}
