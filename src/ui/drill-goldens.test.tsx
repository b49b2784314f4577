/**
 * Golden frames of the per-object pages (a workload's pods, describe, live YAML, an action's
 * confirmation) at 80×24, 100×30 and 160×45, kept in snapshots/tui/ and reviewed like code;
 * in each, every line fits the terminal's width and every pod row is one screen line.
 * After an intended change: `npm run snapshots:tui:update`, then read the diff.
 */
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { App } from './App.js';
import { DEFAULT_BINDINGS } from './actions.js';
import { FixtureControl } from './testing/fixture.js';
import { expectGolden } from './testing/goldens.js';
import { renderTui, type Tui } from './testing/render-tui.js';

process.env.TZ = 'UTC';

const SIZES = [
  { columns: 80, rows: 24 },
  { columns: 100, rows: 30 },
  { columns: 160, rows: 45 },
];
/** The fixture's frontend pods. */
const PODS = 3;

/** The prod stack's frontend Deployment, selected in Resources. */
async function onFrontend(tui: Tui): Promise<void> {
  await tui.press(':');
  await tui.type('stack guestbook/prod');
  await tui.press('enter');
  for (let i = 0; i < 4; i++) await tui.press('j');
  await tui.waitFor(/▸ Deployment +frontend/);
}

const frames: [string, (tui: Tui) => Promise<void>][] = [
  ['pods', async (tui) => (await onFrontend(tui), await tui.press('enter'), void (await tui.waitFor('CrashLoop')))],
  [
    'pods-sorted',
    async (tui) => {
      await onFrontend(tui);
      await tui.press('enter');
      await tui.waitFor('CrashLoop');
      await tui.press(':');
      await tui.type('sort -restarts');
      await tui.press('enter');
      await tui.waitFor('by restarts');
    },
  ],
  ['describe', async (tui) => (await onFrontend(tui), await tui.press('d'), void (await tui.waitFor('Replicas:')))],
  [
    'describe-pod',
    async (tui) => {
      await onFrontend(tui);
      await tui.press('enter');
      await tui.waitFor('CrashLoop');
      await tui.press('j', 'd');
      await tui.waitFor('Restart Count');
    },
  ],
  ['yaml', async (tui) => (await onFrontend(tui), await tui.press('y'), void (await tui.waitFor('kind: Deployment')))],
  [
    'confirm-restart',
    async (tui) => (
      await onFrontend(tui),
      await tui.press('o'),
      void (await tui.waitFor('Restart deployment/frontend?'))
    ),
  ],
];

describe('golden frames of the per-object pages', () => {
  for (const size of SIZES)
    for (const [name, reach] of frames) {
      it(`${name} at ${size.columns}×${size.rows}`, async () => {
        // the stack is reached at 100×30, then the terminal takes the size of the frame
        const tui = await renderTui(
          <App
            control={new FixtureControl()}
            bindings={DEFAULT_BINDINGS}
            keymapFile="/work/konfig-sample/.kdeck/keymap.yaml"
            runbooks={[]}
            unfinished={[]}
          />,
        );
        await reach(tui);
        await tui.resize(size);
        const frame = tui.frame();
        const lines = frame.split('\n');
        expect(lines).toHaveLength(size.rows - 1);
        for (const l of lines) expect(stringWidth(l), l).toBeLessThanOrEqual(size.columns);
        if (name.startsWith('pods')) {
          // every pod is on one line of its own, whatever the width does to its name
          const podLines = lines.filter((l) => / (Running|CrashLoopBackOff) /.test(l));
          expect(podLines).toHaveLength(PODS);
        }
        expectGolden(`${name}-${size.columns}x${size.rows}`, frame);
        tui.unmount();
      });
    }
});
