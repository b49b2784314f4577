/**
 * Every pathological input ends in a diagnostic or a correct result, never an internal error,
 * a hang or a V8 abort (times and memory are measured by pathological-report.ts, not here).
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KclError } from '../diagnostics/diagnostics.js';
import { PATHOLOGICAL_INPUTS, type PathologicalRun } from './pathological.js';
import { runKcl } from './run.js';
import { runGuardsFrom } from './run-guards.js';
import { runOptionsFromSettings } from './settings.js';

const root = fs.mkdtempSync(path.join(tmpdir(), 'kdeck-pathological-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function run(spec: PathologicalRun, dir: string): string {
  const opts = runOptionsFromSettings(spec.settings ?? [], dir);
  opts.files = [...spec.files, ...opts.files];
  opts.guards = runGuardsFrom(spec.timeout, '--timeout', spec.readOnly);
  return runKcl(opts).yaml;
}

describe('pathological inputs', () => {
  it.each(PATHOLOGICAL_INPUTS.filter((p) => p.available?.() ?? true).map((p, i) => [p.name, p, i] as const))(
    '%s',
    (_name, input, index) => {
      const dir = path.join(root, String(index));
      fs.mkdirSync(dir);
      const spec = input.make(dir);
      let outcome: { yaml: string } | { error: unknown };
      try {
        outcome = { yaml: run(spec, dir) };
      } catch (error) {
        outcome = { error };
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
      if ('result' in input.expected) {
        if ('error' in outcome) throw outcome.error;
        expect(input.expected.result(outcome.yaml)).toBe(true);
        return;
      }
      expect('error' in outcome, 'a diagnostic').toBe(true);
      const error = (outcome as { error: unknown }).error;
      if (!(error instanceof KclError)) throw error;
      expect(error.diagnostic.message).toMatch(input.expected.diagnostic);
    },
  );

  it('writes no file under --read-only', () => {
    const dir = fs.mkdtempSync(path.join(root, 'ro-'));
    const file = path.join(dir, 'main.k');
    fs.writeFileSync(file, 'import file\nfile.write("out.txt", "x")\n');
    expect(() => runKcl({ files: [file], guards: { readOnly: true } })).toThrow(KclError);
    expect(fs.existsSync(path.join(dir, 'out.txt'))).toBe(false);
  });
});
