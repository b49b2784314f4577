/**
 * Golden frames of every screen at 80×24, 100×30 and 160×45, kept in snapshots/tui/ and
 * reviewed like code. After an intended change: `npm run snapshots:tui:update`, then read the
 * diff. Every frame also fits its terminal, and in every list each item is one screen line.
 */
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import type { TerminalSize } from './hooks/useTerminalSize.js';
import { App } from './App.js';
import { DEFAULT_BINDINGS } from './actions.js';
import { FixtureControl } from './testing/fixture.js';
import { expectFits, expectGolden, expectOneLineEach, GOLDEN_SIZES, type PaneName } from './testing/goldens.js';
import { renderTui, type Tui } from './testing/render-tui.js';

process.env.TZ = 'UTC';

const controls: FixtureControl[] = [];
const UNFINISHED = [
  { id: '20261122-071500-app-recovery-1a2b', runbook: 'runbooks/AppRecovery.k', last: 'paused' },
  {
    id: '20261121-231004-rollout-restart-9f0c',
    runbook: 'runbooks/RolloutRestart.k',
    last: 'finished (sandbox-a: done, sandbox-b: stopped)',
  },
];

async function console_(size: TerminalSize): Promise<Tui> {
  const control = new FixtureControl();
  controls.push(control);
  return renderTui(
    <App
      control={control}
      bindings={DEFAULT_BINDINGS}
      keymapFile="/work/konfig-sample/.kdeck/keymap.yaml"
      runbooks={['runbooks/AppRecovery.k', 'runbooks/RolloutRestart.k']}
      unfinished={UNFINISHED}
    />,
    size,
  );
}

/** The prod stack of the fixture, its frontend Deployment selected (drift and an update). */
async function onProd(tui: Tui): Promise<void> {
  await tui.press(':');
  await tui.type('stack guestbook/prod');
  await tui.press('enter');
  for (let i = 0; i < 4; i++) await tui.press('j');
}

/** The dev stack of the fixture, its frontend Deployment selected (a long image, only its tag changed). */
async function onDev(tui: Tui): Promise<void> {
  await tui.press(':');
  await tui.type('stack guestbook/dev');
  await tui.press('enter');
  for (let i = 0; i < 4; i++) await tui.press('j');
}

const frames: [string, (tui: Tui) => Promise<void>][] = [
  ['start', async () => {}],
  ['resources', onProd],
  ['graph', async (tui) => (await onProd(tui), await tui.press('2'))],
  ['diff', async (tui) => (await onProd(tui), await tui.press('3'))],
  ['resources-long-image', onDev],
  ['diff-long-image', async (tui) => (await onDev(tui), await tui.press('3'))],
  ['confirm-prod', async (tui) => (await onProd(tui), await tui.press('a'), await tui.type('sandbox-'))],
  [
    'apply',
    async (tui) => (
      await onProd(tui),
      await tui.press('a'),
      await tui.type('sandbox-b'),
      await tui.press('enter'),
      void (await tui.waitFor('apply guestbook/prod done'))
    ),
  ],
  [
    'recovery',
    async (tui) => (
      await tui.press(':'),
      await tui.type('recover runbooks/AppRecovery.k hosts=a-node-1,a-node-2,b-node-1,c-node-9'),
      await tui.press('enter'),
      void (await tui.waitFor('Plan only'))
    ),
  ],
  [
    'recovery-run',
    async (tui) => {
      await tui.press(':');
      await tui.type('recover runbooks/AppRecovery.k hosts=a-node-1,a-node-2,b-node-1');
      await tui.press('enter');
      await tui.waitFor('Plan only');
      await tui.press('enter');
      await tui.type('sandbox-b');
      await tui.press('enter');
      await tui.waitFor(/sandbox-a +gate/);
      controls.at(-1)!.openGates();
      await tui.waitFor(/sandbox-b +paused: failure/);
    },
  ],
  [
    'recovery-rehearsed',
    async (tui) => (
      await tui.press(':'),
      await tui.type('recover runbooks/AppRecovery.k hosts=a-node-1,a-node-2,b-node-1'),
      await tui.press('enter'),
      await tui.waitFor('Plan only'),
      await tui.press('h'),
      void (await tui.waitFor('Rehearsed, nothing changed'))
    ),
  ],
  ['recovery-unfinished', async (tui) => tui.press('5')],
  [
    'recovery-saved',
    async (tui) => (
      await tui.press(':'),
      await tui.type('resume 20261122-071500-app-recovery-1a2b'),
      await tui.press('enter'),
      void (await tui.waitFor('Saved run'))
    ),
  ],
  ['events', async (tui) => tui.press('6')],
  ['contexts', async (tui) => (await tui.press(':'), await tui.type('ctx'), await tui.press('enter'))],
  ['help', async (tui) => tui.press('?')],
  ['compile-error', async (tui) => (await tui.press(':'), await tui.type('stack staging'), await tui.press('enter'))],
  ['palette', async (tui) => (await tui.press(':'), await tui.type('re'))],
];

/** A list a frame shows: the pane, what its rows look like, and one pattern per item. */
interface List {
  pane: PaneName;
  row: RegExp;
  items: RegExp[];
}

const TREE: List = {
  pane: 'tree',
  // project headings and their stacks, one line each
  row: /^(?![●○] )(\S|[▸ ] \S)/,
  items: [
    /^batch-report/,
    /dev +unhealthy/,
    /prod +unchanged/,
    /^guestbook/,
    /dev +1 change/,
    /prod +drift/,
    /staging +error/,
    /^http-echo/,
    /dev +6 changes/,
    /prod +…/,
  ],
};
const KINDS = /^[▸ ] (Namespace|ConfigMap|Secret|Service|Deployment) /;
const RESOURCES: List = {
  pane: 'main',
  row: KINDS,
  items: [
    /Namespace .*Healthy/,
    /ConfigMap .*Healthy/,
    /Secret .*Update .*Healthy/,
    /Service .*Create .*—/,
    /Deployment +frontend .*Update drift .*Healthy/,
    /Deployment .*er .*UnChanged .*Healthy/,
  ],
};
const EVENTS: List = {
  pane: 'main',
  row: /^\d\d:\d\d:\d\d [·!✗] /,
  items: [/compiled 7 stacks/, /drift: /, /changed: com/, /guestbook\/staging: main/],
};

const GRAPH: List = {
  pane: 'main',
  row: /^(L\d+ {1,2}| {4})[▸▲▼·] /,
  items: [
    /[▸▲▼·] Namespace\//,
    /[▸▲▼·] ConfigMap\//,
    /[▸▲▼·] Secret\//,
    /[▸▲▼·] Service\//,
    /[▸▲▼·] Deployment\/frontend/,
    /[▸▲▼·] Deployment\/redis/,
  ],
};
const PROGRESS: List = {
  pane: 'main',
  row: /^[·◐◑✓✗–◌○] (Create|Update|Delete) /,
  items: [/Secret/, /Service/, /Deployment/],
};
const lists: Record<string, List[]> = {
  start: [TREE],
  resources: [TREE, RESOURCES],
  graph: [TREE, GRAPH],
  'resources-long-image': [TREE],
  apply: [TREE, PROGRESS],
  events: [TREE, EVENTS],
  contexts: [{ pane: 'main', row: /sandbox-[ab]/, items: [/sandbox-a/, /sandbox-b/] }],
};

for (const size of GOLDEN_SIZES) {
  describe(`golden frames at ${size.columns}×${size.rows}`, () => {
    for (const [name, reach] of frames) {
      it(name, async () => {
        const tui = await console_(size);
        await reach(tui);
        const frame = tui.frame();
        expectGolden(`${name}-${size.columns}x${size.rows}`, frame);
        expectFits(frame, size);
        for (const l of lists[name] ?? []) expectOneLineEach(frame, l.pane, l.row, l.items);
        tui.unmount();
      });
    }
  });
}

/** The log view of the prod stack's frontend Deployment (three pods, scripted lines). */
async function onFrontendLog(tui: Tui): Promise<void> {
  await onProd(tui);
  await tui.press('l');
  await tui.waitFor('9 lines, following the newest');
}

const logFrames: [string, (tui: Tui) => Promise<void>][] = [
  ['logs', onFrontendLog],
  [
    'logs-previous',
    async (tui) => {
      await onFrontendLog(tui);
      await tui.press('p');
      await tui.waitFor('9 lines of the previous runs');
    },
  ],
  [
    'logs-search-wrap',
    async (tui) => {
      await onFrontendLog(tui);
      await tui.press('w', '/');
      await tui.type('redis');
      await tui.press('enter');
      await tui.waitFor('/redis: ');
    },
  ],
];

describe('golden frames of the log view at 80×24, 100×30 and 160×45', () => {
  for (const size of GOLDEN_SIZES)
    for (const [name, reach] of logFrames) {
      it(`${name} at ${size.columns}×${size.rows}`, async () => {
        const control = new FixtureControl();
        controls.push(control);
        const tui = await renderTui(
          <App control={control} bindings={DEFAULT_BINDINGS} keymapFile="/k.yaml" runbooks={[]} unfinished={[]} />,
          size,
        );
        await reach(tui);
        const frame = tui.frame();
        // every row is one screen line: as many lines as the frame has rows, none wider than the terminal
        const lines = frame.split('\n');
        expect(lines).toHaveLength(size.rows - 1);
        for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(size.columns);
        expectGolden(`${name}-${size.columns}x${size.rows}`, frame);
        tui.unmount();
      });
    }
});
