/**
 * Screens that keep their information: long values in the Diff, status messages that go with
 * what made them, the stack tree's filter and view keys, and which pane has the keys.
 */
import { describe, expect, it } from 'vitest';
import { App } from './App.js';
import { DEFAULT_BINDINGS } from './actions.js';
import { FixtureControl, LONG_IMAGE } from './testing/fixture.js';
import { paneLines } from './testing/goldens.js';
import { renderTui, type Tui } from './testing/render-tui.js';
import type { TerminalSize } from './hooks/useTerminalSize.js';
import { withStack } from '../app/console/state.js';

process.env.TZ = 'UTC';

const SMALL: TerminalSize = { columns: 80, rows: 24 };

const open = (control = new FixtureControl(), size?: TerminalSize) =>
  renderTui(
    <App
      control={control}
      bindings={DEFAULT_BINDINGS}
      keymapFile="/work/konfig-sample/.kdeck/keymap.yaml"
      runbooks={['runbooks/AppRecovery.k']}
      unfinished={[]}
    />,
    size,
  );
const lines = (frame: string) => frame.split('\n');
const status = (frame: string) => lines(frame).at(-2)!;
/** The Diff table's row of the image field. */
const imageRow = (frame: string) => paneLines(frame, 'main').find((l) => l.startsWith('spec.templa'))!;

async function stack(tui: Tui, name: string) {
  await tui.press(':');
  await tui.type(`stack ${name}`);
  await tui.press('enter');
}

/** The Diff of guestbook/dev's frontend: only the tag of a long image changed. */
async function longImageDiff(tui: Tui) {
  await stack(tui, 'guestbook/dev');
  // enter on a Deployment lists its pods; 3 is its diff
  await tui.press('j', 'j', 'j', 'j', '3');
  await tui.waitFor('Update apps/v1:Deployment:guestbook:frontend');
}

describe('the Diff of a long value', () => {
  it('shows the changed tags at 80 columns, wraps the whole value with w, and scrolls it with < and >', async () => {
    const tui = await open(new FixtureControl(), SMALL);
    await longImageDiff(tui);
    const row = imageRow(tui.frame());
    expect(row).toMatch(/…\S*:1\.25 +…\S*:1\.27 +…\S*:1\.25/);
    // the field diff below keeps both tags too
    expect(paneLines(tui.frame(), 'main').find((l) => l.startsWith('  ~ spec.'))).toMatch(/:1\.25" → …\S*:1\.27"/);

    await tui.press('w');
    const wrapped = paneLines(tui.frame(), 'main').join('\n');
    expect(wrapped).toContain('w: one line each');
    // every piece of the image shows, over several lines of the table
    for (const piece of ['docker.io/', 'nginxinc', 'unprivileg', '1.25', '1.27']) expect(wrapped).toContain(piece);
    await tui.press('w');
    expect(imageRow(tui.frame())).toContain('1.27');

    await tui.press('>');
    const shifted = imageRow(tui.frame());
    expect(shifted).not.toContain('1.27');
    expect(shifted).toContain('nginx');
    expect(tui.frame()).toContain('(8 in)');
    await tui.press('<');
    expect(imageRow(tui.frame())).toContain('1.27');
    tui.unmount();
  });

  it('keeps left and right for switching views', async () => {
    const tui = await open(new FixtureControl(), SMALL);
    await longImageDiff(tui);
    await tui.press('right');
    await tui.waitFor('No apply or destroy of guestbook/dev yet');
    await tui.press('left');
    await tui.waitFor('Update apps/v1:Deployment:guestbook:frontend');
    tui.unmount();
  });

  it('shows the changed tags at 160 columns too, and the whole image when wrapped', async () => {
    const tui = await open(new FixtureControl(), { columns: 160, rows: 45 });
    await longImageDiff(tui);
    expect(imageRow(tui.frame())).toMatch(/…\S*:1\.25 +…\S*:1\.27 +…\S*:1\.25/);
    await tui.press('w');
    const table = paneLines(tui.frame(), 'main').map((l) => l.replace(/ +/g, ' '));
    expect(table.some((l) => l.includes(`${LONG_IMAGE.slice(0, 20)}`))).toBe(true);
    tui.unmount();
  });
});

describe('status messages', () => {
  it('say an apply started only while it runs', async () => {
    const tui = await open(new FixtureControl(undefined, true));
    await stack(tui, 'guestbook/dev');
    await tui.press('a', 'y');
    await tui.waitFor('apply guestbook/dev started; x stops it');
    await tui.press('x');
    await tui.waitFor('apply guestbook/dev interrupted');
    expect(status(tui.frame())).not.toMatch(/stops it|stopping/);
    tui.unmount();
  });

  it('say a file changed and a stack compiles only until that compile ends', async () => {
    const control = new FixtureControl();
    const tui = await open(control);
    const text = 'appops/guestbook/dev/main.k changed: compiling guestbook/dev';
    control.store.update((s) => ({
      ...s,
      events: [...s.events, { at: 0, level: 'info', text, compiles: { 'guestbook/dev': 0 } }],
    }));
    await tui.waitFor((f) => status(f) === text);
    control.store.update((s) => withStack(s, 'guestbook/dev', (e) => ({ ...e, compiles: 1 })));
    await tui.waitFor((f) => status(f).trim() === '');
    tui.unmount();
  });

  it('drop a compile error once the stack has compiled again', async () => {
    const control = new FixtureControl();
    const tui = await open(control);
    const text = 'guestbook/staging: main.k:12:5 expected int, got str(3)';
    control.store.update((s) => ({
      ...s,
      events: [...s.events, { at: 0, level: 'error', text, compiles: { 'guestbook/staging': 0 } }],
    }));
    await tui.waitFor((f) => status(f) === text);
    control.store.update((s) => withStack(s, 'guestbook/staging', (e) => ({ ...e, compiles: 1 })));
    await tui.waitFor((f) => !status(f).includes('12:5'));
    tui.unmount();
  });

  it('say a refresh compiles only until the compile ends', async () => {
    const control = new FixtureControl();
    const tui = await open(control);
    await tui.press('r');
    await tui.waitFor((f) => status(f) === 'compiling and comparing batch-report/dev again');
    control.store.update((s) => withStack(s, 'batch-report/dev', (e) => ({ ...e, compiles: e.compiles + 1 })));
    await tui.waitFor((f) => !status(f).includes('compiling and comparing'));
    tui.unmount();
  });

  it('stop saying a recovery is aborting once it has ended', async () => {
    const control = new FixtureControl();
    const tui = await open(control);
    await tui.press(':');
    await tui.type('recover runbooks/AppRecovery.k hosts=a-node-1,a-node-2,b-node-1');
    await tui.press('enter');
    await tui.waitFor('Plan only');
    await tui.press('enter');
    await tui.type('sandbox-b');
    await tui.press('enter');
    await tui.waitFor(/sandbox-a +gate/);
    await tui.press('a');
    await tui.waitFor('aborting');
    control.openGates();
    await tui.waitFor(() => {
      const r = control.store.get().recovery;
      return r?.state === 'running' && r.settled;
    });
    await tui.waitFor((f) => !f.includes('aborting') && !status(f).includes('aborts it'));
    tui.unmount();
  });
});

describe('the Resources view', () => {
  it('names the cluster of each row only when the stack spans several', async () => {
    const control = new FixtureControl();
    const tui = await open(control, SMALL);
    await stack(tui, 'guestbook/prod');
    expect(tui.frame()).not.toContain('CLUSTER');
    control.store.update((s) =>
      withStack(s, 'guestbook/prod', (e) => ({
        ...e,
        changeSet: {
          ...e.changeSet!,
          changes: e.changeSet!.changes.map((c) => (c.id.includes('Secret') ? { ...c, cluster: 'sandbox-a' } : c)),
        },
      })),
    );
    await tui.waitFor('CLUSTER');
    expect(tui.frame()).toMatch(/Secret +redis-auth +sandbox-a +Update/);
    expect(tui.frame()).toMatch(/ConfigMap +redis-conf +sandbox-b +UnChanged/);
    tui.unmount();
  });
});

describe('the stack tree', () => {
  it('clears a kept filter with esc, and stays in the tree', async () => {
    const tui = await open();
    await tui.press('/');
    await tui.type('guest');
    await tui.press('enter');
    expect(tui.frame()).not.toContain('batch-report');
    expect(tui.frame()).toContain('Stacks  /guest');
    await tui.press('esc');
    await tui.waitFor('batch-report');
    expect(tui.frame()).toContain('● Stacks');
    tui.unmount();
  });

  it('switches views with [ and ] while it keeps the keys', async () => {
    const tui = await open();
    await tui.press(']');
    await tui.waitFor('L0  ▸ Namespace/batch-report');
    expect(tui.frame()).toContain('● Stacks');
    await tui.press('j');
    expect(lines(tui.frame())[1]).toContain('batch-report/prod');
    await tui.press('[');
    await tui.waitFor(/KIND +NAME/);
    // before the first view comes the last
    await tui.press('[');
    await tui.waitFor('events, following the newest');
    expect(tui.frame()).toContain('● Stacks');
    tui.unmount();
  });

  it('marks the pane that has the keys, not only by its colour', async () => {
    const tui = await open();
    expect(paneLines(tui.frame(), 'tree')[0]).toMatch(/^● Stacks/);
    expect(paneLines(tui.frame(), 'main')[0]).toMatch(/^○ /);
    await tui.press('tab');
    expect(paneLines(tui.frame(), 'tree')[0]).toMatch(/^○ Stacks/);
    expect(paneLines(tui.frame(), 'main')[0]).toMatch(/^● /);
    tui.unmount();
  });
});
