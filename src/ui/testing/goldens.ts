/**
 * Golden frames: whole screens kept in snapshots/tui/<name>.txt and reviewed like code. A test
 * fails when a frame differs and says how to accept the change on purpose:
 * `npm run snapshots:tui:update` (which sets KDECK_UPDATE_GOLDENS=1 for the golden tests).
 * Beside the comparison, the frame's layout is checked: it has the terminal's height, no line
 * is wider than the terminal, and in a list every item shown is exactly one screen line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { TerminalSize } from '../hooks/useTerminalSize.js';
import { cells } from '../../views/text.js';

export const GOLDEN_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'snapshots', 'tui');

/** The sizes every screen is drawn at: the smallest terminal people keep, a common one, a wide one. */
export const GOLDEN_SIZES: readonly TerminalSize[] = [
  { columns: 80, rows: 24 },
  { columns: 100, rows: 30 },
  { columns: 160, rows: 45 },
];

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

/** The frame fills the terminal less one line (Ink clears the screen on a full one) and no line is wider. */
export function expectFits(frame: string, size: TerminalSize): void {
  const lines = frame.split('\n');
  expect(lines, `the frame has ${lines.length} lines on a ${size.columns}×${size.rows} terminal`).toHaveLength(
    size.rows - 1,
  );
  const wide = lines.filter((l) => cells(l) > size.columns);
  expect(wide, `lines wider than ${size.columns} columns`).toEqual([]);
}

export type PaneName = 'tree' | 'main';

/** The text inside a pane's border, a line per screen line (the two panes meet at `││`). */
export function paneLines(frame: string, pane: PaneName): string[] {
  return frame
    .split('\n')
    .filter((l) => l.startsWith('│') && l.includes('││'))
    .map((l) => {
      const meet = l.indexOf('││');
      return pane === 'tree' ? l.slice(1, meet) : l.slice(meet + 2, -1);
    });
}

/**
 * Each item of a list appears on exactly one line of the pane, and the lines that look like the
 * list's rows are as many as the items: a row that wrapped would push its rest onto a line of its
 * own and an item off the bottom.
 */
export function expectOneLineEach(frame: string, pane: PaneName, row: RegExp, items: readonly RegExp[]): void {
  const lines = paneLines(frame, pane);
  const rows = lines.filter((l) => row.test(l));
  // the rows follow one another: a wrapped row's rest would sit between two of them
  const at = lines.flatMap((l, i) => (row.test(l) ? [i] : []));
  expect(at.at(-1)! - at[0] + 1, `the ${pane} pane's rows are consecutive lines:\n${frame}`).toBe(at.length);
  for (const item of items) {
    const on = rows.filter((l) => item.test(l));
    expect(on, `the row of ${String(item)} in the ${pane} pane:\n${frame}`).toHaveLength(1);
  }
  expect(rows, `the ${pane} pane's rows, one per item:\n${frame}`).toHaveLength(items.length);
}
