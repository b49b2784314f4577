/**
 * Golden frames: whole screens kept in snapshots/tui/<name>.txt and reviewed like code. A test
 * fails when a frame differs and says how to accept the change on purpose:
 * `npm run snapshots:tui:update` (which sets KDECK_UPDATE_GOLDENS=1 for the golden tests).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const GOLDEN_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'snapshots', 'tui');

export function expectGolden(name: string, frame: string): void {
  const file = path.join(GOLDEN_DIR, `${name}.txt`);
  const text = `${frame}\n`;
  if (process.env.KDECK_UPDATE_GOLDENS === '1') {
    fs.mkdirSync(GOLDEN_DIR, { recursive: true });
    fs.writeFileSync(file, text);
    return;
  }
  const golden = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  const how = 'if the change is intended, run `npm run snapshots:tui:update` and review the diff of snapshots/tui';
  expect(golden, `snapshots/tui/${name}.txt does not exist; ${how}`).toBeDefined();
  expect(text, `the ${name} frame differs from snapshots/tui/${name}.txt; ${how}`).toBe(golden);
}
