import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runsLong, VALUE_OPTIONS } from './launch-mode.js';

describe('runsLong', () => {
  it('holds for the console (kdeck ui, a bare kdeck) and a served sandbox, whatever root options come first', () => {
    expect(runsLong([])).toBe(true);
    expect(runsLong(['ui', 'konfig-sample'])).toBe(true);
    expect(runsLong(['--context', 'prod', '--read-only', 'ui'])).toBe(true);
    expect(runsLong(['--sandbox'])).toBe(true);
    expect(runsLong(['sandbox', '--clusters', '3'])).toBe(true);
    // an option's value is not the command, even when it reads like one
    expect(runsLong(['--context', 'apply'])).toBe(true);
  });

  it('does not for every other command, nor for help and the version', () => {
    expect(runsLong(['apply', '--yes', '-w', 'apps/load/pace'])).toBe(false);
    expect(runsLong(['--kubeconfig', 'ui', 'compile'])).toBe(false);
    expect(runsLong(['--context', 'ui', 'preview'])).toBe(false);
    expect(runsLong(['--help'])).toBe(false);
    expect(runsLong(['-v'])).toBe(false);
  });

  it('skips the value of every root option that takes one in src/cli.ts', () => {
    const cli = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'cli.ts'), 'utf8');
    const taking = [...cli.matchAll(/'(--[a-z-]+) <[a-z]+>'/g)].map((m) => m[1]);
    expect(taking.length).toBeGreaterThan(0);
    expect([...VALUE_OPTIONS].sort()).toEqual([...taking].sort());
  });
});
