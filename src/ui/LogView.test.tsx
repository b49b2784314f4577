/**
 * The log view, keys to frames: `l` on a workload opens its pods' logs, prefixed and followed;
 * new lines appear while following and not after `f`; `p` shows the previous runs with their
 * exit code and reason; `/` highlights matches; `w` wraps; `t` shows timestamps; `c` picks a
 * container; the buffer keeps the newest lines and says what it dropped; `esc` closes the view
 * and its streams; `s` on the sandbox says why there is no shell; read-only hides the shell.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { App } from './App.js';
import { DEFAULT_BINDINGS } from './actions.js';
import { FixtureControl, fixtureState } from './testing/fixture.js';
import { renderTui, type Tui } from './testing/render-tui.js';
import { FIXTURE_PODS } from './testing/pod-fixture.js';

process.env.TZ = 'UTC';

let tui: Tui | undefined;
afterEach(() => tui?.unmount());

async function open(control = new FixtureControl(), size = { columns: 100, rows: 30 }): Promise<Tui> {
  tui = await renderTui(
    <App control={control} bindings={DEFAULT_BINDINGS} keymapFile="/k.yaml" runbooks={[]} unfinished={[]} />,
    size,
  );
  await tui.press(':');
  await tui.type('stack guestbook/prod');
  await tui.press('enter');
  for (let i = 0; i < 4; i++) await tui.press('j');
  return tui;
}

describe('the log view', () => {
  it('shows every pod of a workload, prefixed as kubectl --prefix, with the kubectl command', async () => {
    const control = new FixtureControl();
    const t = await open(control);
    await t.press('l');
    const f = await t.waitFor('[pod/frontend-7d9-ghi56/frontend] frontend: GET /healthz 200');
    console.log(f);
  });
});
