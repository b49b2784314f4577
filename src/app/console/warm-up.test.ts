import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileStack } from '../../konfig/compile.js';
import { MINIMAL_STACK, tempWorkspace } from '../../konfig/testing.js';
import {
  WARM_UP_BUDGET_MS,
  WARM_UP_IDLE_MS,
  WARM_UP_MAX_PASS_MS,
  WARM_UP_PASSES,
  WarmUp,
  type Schedule,
} from './warm-up.js';

/** A hand-driven timer: `due` holds what is scheduled, `step()` runs the next one. */
function manualSchedule() {
  const due: { ms: number; run: () => void }[] = [];
  const schedule: Schedule = (ms, run) => {
    const entry = { ms, run };
    due.push(entry);
    return () => due.splice(due.indexOf(entry), 1);
  };
  const step = () => due.shift()?.run();
  const drain = () => {
    while (due.length > 0) step();
  };
  return { due, schedule, step, drain };
}

function warmUpWith(compile: (dir: string) => boolean, msPerCompile = 1) {
  const timer = manualSchedule();
  let clock = 0;
  const compiled: string[] = [];
  const warm = new WarmUp(
    (dir) => {
      compiled.push(dir);
      clock += msPerCompile;
      return compile(dir);
    },
    { schedule: timer.schedule, now: () => clock },
  );
  return { warm, timer, compiled };
}

describe('the compile thread warm-up', () => {
  it('compiles the stack again once the thread is idle, a bounded number of times in all', () => {
    const { warm, timer, compiled } = warmUpWith(() => true);
    warm.compiled('a', true, 10);
    expect(timer.due.map((d) => d.ms)).toEqual([WARM_UP_IDLE_MS]);
    timer.step();
    // later passes wait for nothing but a request already queued
    expect(timer.due.map((d) => d.ms)).toEqual([0]);
    timer.drain();
    expect(compiled).toEqual(Array(WARM_UP_PASSES).fill('a'));
    // warm once for the thread, whichever stacks come next
    warm.compiled('b', true, 10);
    expect(timer.due).toEqual([]);
  });

  it('never repeats a compile that reached outside the program', () => {
    const { warm, timer } = warmUpWith(() => true);
    warm.compiled('writes-files', false, 10);
    expect(timer.due).toEqual([]);
  });

  it('gives way to a request, then resumes on the stack compiled last', () => {
    const { warm, timer, compiled } = warmUpWith(() => true);
    warm.compiled('a', true, 10);
    timer.step();
    timer.step();
    warm.interrupt();
    expect(timer.due).toEqual([]);
    warm.compiled('b', true, 10);
    expect(timer.due.map((d) => d.ms)).toEqual([WARM_UP_IDLE_MS]);
    timer.drain();
    expect(compiled).toEqual(['a', 'a', ...Array(WARM_UP_PASSES - 2).fill('b')]);
  });

  it('leaves alone a stack whose compile takes long, and stops at a pass that took long', () => {
    const { warm, timer } = warmUpWith(() => true);
    warm.compiled('slow', true, WARM_UP_MAX_PASS_MS + 1);
    expect(timer.due).toEqual([]);

    const slower = warmUpWith(() => true, WARM_UP_MAX_PASS_MS + 1);
    slower.warm.compiled('a', true, 10);
    slower.timer.drain();
    expect(slower.compiled).toEqual(['a']);
  });

  it('stops when a pass fails or the budget is spent', () => {
    const failing = warmUpWith(() => false);
    failing.warm.compiled('a', true, 10);
    failing.timer.drain();
    expect(failing.compiled).toEqual(['a']);

    const slow = warmUpWith(() => true, 150);
    slow.warm.compiled('a', true, 10);
    slow.timer.drain();
    expect(slow.compiled).toHaveLength(Math.ceil(WARM_UP_BUDGET_MS / 150));
  });
});

describe('whether a stack may be compiled again', () => {
  const stack = (main: string) =>
    path.join(tempWorkspace({ ...MINIMAL_STACK, 'apps/shop/dev/main.k': main }), 'apps/shop/dev');

  it('is so for a program that only computes', () => {
    expect(compileStack(stack(MINIMAL_STACK['apps/shop/dev/main.k'])).repeatable).toBe(true);
  });

  it('is not for a program that prints, writes a file or reads the clock', () => {
    const base = MINIMAL_STACK['apps/shop/dev/main.k'];
    for (const extra of [
      'print("hello")',
      'import file\n_w = file.write("out.txt", "x")',
      'import datetime\n_t = datetime.now()',
    ]) {
      expect(compileStack(stack(`${extra}\n${base}`)).repeatable, extra).toBe(false);
    }
  });
});
