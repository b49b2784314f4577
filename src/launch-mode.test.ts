import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startsConsole, VALUE_OPTIONS } from './launch-mode.js';

describe('startsConsole', () => {
  it('is the console for kdeck ui and for a bare kdeck, whatever root options come first', () => {
    expect(startsConsole([])).toBe(true);
    expect(startsConsole(['ui', 'konfig-sample'])).toBe(true);
    expect(startsConsole(['--context', 'prod', '--read-only', 'ui'])).toBe(true);
    expect(startsConsole(['--sandbox'])).toBe(true);
    // an option's value is not the command, even when it reads like one
    expect(startsConsole(['--context', 'apply'])).toBe(true);
  });

  it('is a one-shot command for every other command, and for help and the version', () => {
    expect(startsConsole(['apply', '--yes', '-w', 'apps/load/pace'])).toBe(false);
    expect(startsConsole(['--kubeconfig', 'ui', 'compile'])).toBe(false);
    expect(startsConsole(['--context', 'ui', 'preview'])).toBe(false);
    expect(startsConsole(['--help'])).toBe(false);
    expect(startsConsole(['-v'])).toBe(false);
  });

  it('skips the value of every root option that takes one in src/cli.ts', () => {
    const cli = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'cli.ts'), 'utf8');
    const taking = [...cli.matchAll(/'(--[a-z-]+) <[a-z]+>'/g)].map((m) => m[1]);
    expect(taking.length).toBeGreaterThan(0);
    expect([...VALUE_OPTIONS].sort()).toEqual([...taking].sort());
  });
});
