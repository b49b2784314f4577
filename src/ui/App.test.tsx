import { describe, expect, it } from 'vitest';
import { App } from './App.js';
import { DEFAULT_BINDINGS, type Bindings } from './actions.js';
import { parseKeymap } from './keymap.js';
import { FixtureControl, fixtureState } from './testing/fixture.js';
import { renderTui } from './testing/render-tui.js';

process.env.TZ = 'UTC';

const app = (control = new FixtureControl(), bindings: Bindings = DEFAULT_BINDINGS) => (
  <App
    control={control}
    bindings={bindings}
    keymapFile="/work/konfig-sample/.kdeck/keymap.yaml"
    runbooks={['runbooks/AppRecovery.k']}
    unfinished={UNFINISHED}
  />
);
const UNFINISHED = [{ id: '20261122-071500-app-recovery-1a2b', runbook: 'runbooks/AppRecovery.k', last: 'paused' }];
const lines = (frame: string) => frame.split('\n');
const footer = (frame: string) => lines(frame).at(-1)!;
const status = (frame: string) => lines(frame).at(-2)!;

describe('the console', () => {
  it('shows every stack with its badge, the contexts with prod marked, and the first stack selected', async () => {
    const tui = await renderTui(app());
    const frame = tui.frame();
    expect(lines(frame)[0]).toContain('contexts: sandbox-a sandbox-b (prod)');
    for (const badge of ['unhealthy', 'unchanged', 'drift', 'error', '6 changes']) expect(frame).toContain(badge);
    expect(lines(frame)[1]).toContain('batch-report/dev → sandbox-a  ✓ compiled dev in 38 ms');
    expect(footer(frame)).toMatch(
      /^j\/k move {2}enter open {2}1-6 views {2}tab pane {2}a apply {2}D destroy {2}: cmd {2}\/ filter {2}\? help {2}q quit/,
    );
    tui.unmount();
  });

  it('moves through stacks, opens one, then a resource diff, and goes back with esc', async () => {
    const tui = await renderTui(app());
    await tui.press('j', 'j', 'j');
    expect(lines(tui.frame())[1]).toContain('guestbook/prod → sandbox-b');
    await tui.press('enter', 'j', 'j', 'j', 'j');
    // the namespace every row shares is named once, in the heading
    expect(tui.frame()).toMatch(/KIND +NAME \(in guestbook\)/);
    expect(tui.frame()).toMatch(/▸ Deployment +frontend/);
    // enter on a Deployment lists its pods (drill.test.tsx); 3 is its diff
    await tui.press('3');
    await tui.waitFor('Update (drift) apps/v1:Deployment:guestbook:frontend on sandbox-b');
    expect(tui.frame()).toMatch(/spec\.replicas +3 +3 +5/);
    await tui.press('k');
    await tui.waitFor('Create v1:Service:guestbook:redis-leader');
    await tui.press('esc');
    await tui.waitFor('KIND');
    await tui.press('esc', 'j');
    await tui.waitFor((frame) => lines(frame)[1].includes('guestbook/staging'));
    tui.unmount();
  });

  it('takes keys that arrive together (fast typing, a paste) one at a time', async () => {
    const tui = await renderTui(app());
    await tui.press('jjj\rjjjj3');
    await tui.waitFor('Update (drift) apps/v1:Deployment:guestbook:frontend on sandbox-b');
    tui.unmount();
  });

  it('reaches every view with the keys its tab line shows', async () => {
    const tui = await renderTui(app());
    expect(tui.frame()).toContain(' 1 Resources  2 Graph  3 Diff  4 Apply  5 Recovery  6 Events ');
    const marks: [string, string][] = [
      ['2', 'resources in'],
      ['3', 'No field differs: the plan, the state and the cluster agree.'],
      ['4', 'No apply or destroy of batch-report/dev yet: a applies it, D destroys it.'],
      ['5', 'No runbook yet.'],
      ['6', 'following the newest'],
      ['1', 'KIND'],
    ];
    for (const [key, mark] of marks) {
      await tui.press(key);
      await tui.waitFor(mark);
    }
    await tui.press(']');
    await tui.waitFor('resources in');
    tui.unmount();
  });

  it('asks for the production context by name before applying to it, then shows the apply and its health', async () => {
    const control = new FixtureControl();
    const tui = await renderTui(app(control));
    await tui.press('j', 'j', 'j', 'a');
    await tui.waitFor('Type sandbox-b to apply, esc to cancel');
    await tui.type('sandbox-a');
    await tui.press('enter');
    expect(status(tui.frame())).toBe(
      'type sandbox-b to go ahead (every production context it touches), or esc to cancel',
    );
    expect(control.calls).toEqual([]);
    await tui.press('backspace');
    await tui.type('b');
    await tui.press('enter');
    await tui.waitFor('apply guestbook/prod done');
    expect(control.calls).toEqual(['apply guestbook/prod']);
    expect(tui.frame()).toMatch(/Deployment\/guestbook\/frontend Healthy: successfully rolled out/);
    tui.unmount();
  });

  it('offers to stop a running apply, and quits only when asked twice', async () => {
    const control = new FixtureControl(fixtureState(), true);
    const tui = await renderTui(app(control));
    await tui.press('j', 'j', 'j', 'j', 'j', 'a', 'y');
    await tui.waitFor('apply http-echo/dev running');
    expect(footer(tui.frame())).toContain('x stop');
    expect(footer(tui.frame())).not.toContain('a apply');
    await tui.press('q');
    expect(status(tui.frame())).toBe(
      'apply http-echo/dev is running: q again stops it (what is in flight finishes) and quits',
    );
    await tui.press('x');
    await tui.waitFor('apply http-echo/dev interrupted');
    expect(control.calls).toEqual(['apply http-echo/dev', 'interrupt http-echo/dev']);
    expect(footer(tui.frame())).toContain('a apply');
    tui.unmount();
  });

  it('asks y/N elsewhere, and n changes nothing', async () => {
    const control = new FixtureControl();
    const tui = await renderTui(app(control));
    await tui.press('j', 'j', 'D');
    await tui.waitFor('Destroy? y to go ahead, n or esc to cancel');
    await tui.press('n');
    expect(status(tui.frame())).toBe('destroy of guestbook/dev cancelled: nothing was changed');
    expect(control.calls).toEqual([]);
    tui.unmount();
  });

  it('hides apply and destroy in read-only mode and says why a key is refused', async () => {
    const control = new FixtureControl({ ...fixtureState(), readOnly: true });
    const tui = await renderTui(app(control));
    expect(footer(tui.frame())).not.toMatch(/apply|destroy/);
    expect(lines(tui.frame())[0]).toContain('READ-ONLY');
    await tui.press('D');
    expect(status(tui.frame())).toBe(
      'destroy changes clusters and is refused in --read-only mode; restart without it to destroy',
    );
    await tui.press(':');
    await tui.type('apply guestbook/dev');
    await tui.press('enter');
    expect(status(tui.frame())).toMatch(/^apply changes clusters and is refused in --read-only mode/);
    expect(control.calls).toEqual([]);
    tui.unmount();
  });

  it('runs commands from the : line, completes them with tab, and explains a wrong one', async () => {
    const control = new FixtureControl();
    const tui = await renderTui(app(control));
    await tui.press(':');
    await tui.type('sta');
    await tui.press('tab');
    await tui.type('staging');
    await tui.press('enter');
    expect(lines(tui.frame())[1]).toContain('guestbook/staging');
    await tui.press(':');
    await tui.type('ctx sandbox-b');
    await tui.press('enter');
    expect(status(tui.frame())).toBe('stacks that name no cluster now go to sandbox-b');
    await tui.press(':');
    await tui.type('view graph');
    await tui.press('enter');
    await tui.waitFor('resources in');
    await tui.press(':');
    await tui.type('aply');
    await tui.press('enter');
    expect(status(tui.frame())).toBe("unknown command 'aply' — did you mean :apply?");
    await tui.press(':');
    await tui.type('recover runbooks/AppRecovery.k hosts=a-node-1');
    await tui.press('enter');
    await tui.waitFor('Runbook app-recovery: delete 3 targets in 2 clusters');
    expect(control.calls).toEqual(['ctx sandbox-b', 'recover runbooks/AppRecovery.k hosts=a-node-1']);
    tui.unmount();
  });

  it('runs a recovery runbook: prod clusters confirmed by name, then pause, resume and a retry after a failure', async () => {
    const control = new FixtureControl();
    const tui = await renderTui(app(control));
    await tui.press(':');
    await tui.type('recover runbooks/AppRecovery.k hosts=a-node-1,a-node-2,b-node-1');
    await tui.press('enter');
    await tui.waitFor('Plan only, nothing changed yet: enter runs it');
    expect(footer(tui.frame())).toContain('enter run');
    await tui.press('enter');
    await tui.waitFor('Type sandbox-b to run it, esc to cancel');
    await tui.type('sandbox-b');
    await tui.press('enter');
    await tui.waitFor(/sandbox-a +gate/);
    expect(footer(tui.frame())).toMatch(/p pause {2}r resume {2}a abort/);
    await tui.press('p');
    await tui.waitFor('paused (clusters hold before their next batch)');
    control.openGates();
    await tui.waitFor(/sandbox-a +done/);
    expect(tui.frame()).not.toMatch(/sandbox-b +(restarting|verifying|paused)/);
    await tui.press('r');
    await tui.waitFor(/sandbox-b +paused: failure/);
    expect(tui.frame()).toContain('CrashLoopBackOff: pod frontend-7d9-xyz: container php-redis');
    await tui.press('t');
    await tui.waitFor('The run has ended');
    expect(tui.frame()).toMatch(/sandbox-b +done/);
    expect(control.calls).toEqual([
      'recover runbooks/AppRecovery.k hosts=a-node-1,a-node-2,b-node-1',
      'run app-recovery',
      'pause',
      'resume',
      'retry',
    ]);
    tui.unmount();
  });

  it('rehearses the plan before running it: the forecast beside the plan, then the same plan run for real', async () => {
    const control = new FixtureControl();
    const tui = await renderTui(app(control), { columns: 160, rows: 45 });
    await tui.press(':');
    await tui.type('recover runbooks/AppRecovery.k hosts=a-node-1,a-node-2,b-node-1');
    await tui.press('enter');
    await tui.waitFor('h rehearses it');
    expect(footer(tui.frame())).toContain('h rehearse');
    await tui.press('h');
    await tui.waitFor('Rehearsed, nothing changed: enter runs this same plan for real');
    // plan on the left, forecast on the right of the same rows
    expect(tui.frame()).toMatch(/Runbook app-recovery: delete 3 targets in 2 clusters +│ Rehearsal of app-recovery/);
    expect(tui.frame()).toContain('predicted wall time 15.1 s');
    expect(tui.frame()).toContain('Gate decisions (1 held, 2 opened):');
    // the rest of the forecast is a page down
    await tui.press('pgdn');
    await tui.waitFor('What a rehearsal cannot know:');
    expect(tui.frame()).toContain('- image pulls: a replacement');
    await tui.press('enter');
    await tui.waitFor('Type sandbox-b to run it, esc to cancel');
    await tui.type('sandbox-b');
    await tui.press('enter');
    await tui.waitFor(/sandbox-a +gate/);
    expect(control.calls).toEqual([
      'recover runbooks/AppRecovery.k hosts=a-node-1,a-node-2,b-node-1',
      'rehearse runbooks/AppRecovery.k',
      'run app-recovery',
    ]);
    tui.unmount();
  });

  it(':rehearse RUNBOOK plans and rehearses in one go; with nothing planned it says how to plan', async () => {
    const control = new FixtureControl();
    const tui = await renderTui(app(control));
    await tui.press(':');
    await tui.type('rehearse');
    await tui.press('enter');
    await tui.waitFor('there is no recovery plan to rehearse');
    await tui.press(':');
    await tui.type('rehearse runbooks/AppRecovery.k hosts=a-node-1');
    await tui.press('enter');
    await tui.waitFor('Rehearsed, nothing changed');
    // at 100 columns the forecast comes first, the plan below it
    expect(tui.frame()).toContain('Rehearsal of app-recovery (delete) on an embedded copy of 2 clusters');
    expect(control.calls).toEqual(['recover runbooks/AppRecovery.k hosts=a-node-1', 'rehearse runbooks/AppRecovery.k']);
    tui.unmount();
  });

  it('lists the runs an earlier kdeck left unfinished and carries one on with :resume, prod clusters confirmed by name', async () => {
    const control = new FixtureControl();
    const tui = await renderTui(app(control));
    await tui.press('5');
    await tui.waitFor('Unfinished runs (:resume RUN_ID carries one on):');
    expect(tui.frame()).toMatch(
      /20261122-071500-app-recovery-1a2b {2}runbooks\/AppRecovery\.k *│\n.*│ {4}last: paused/,
    );
    await tui.press(':');
    await tui.type('resume 20261122-071500-app-recovery-1a2b');
    await tui.press('enter');
    await tui.waitFor('Saved run 20261122-071500-app-recovery-1a2b');
    expect(tui.frame()).toContain('Last recorded: paused');
    expect(footer(tui.frame())).toContain('enter run');
    await tui.press('enter');
    await tui.waitFor('Type sandbox-b to run it, esc to cancel');
    expect(tui.frame()).toContain('carry on run 20261122-071500-app-recovery-1a2b');
    await tui.type('sandbox-b');
    await tui.press('enter');
    await tui.waitFor(/sandbox-a +(gate|restarting|verifying|done)/);
    expect(control.calls).toEqual(['resume 20261122-071500-app-recovery-1a2b', 'run app-recovery']);
    tui.unmount();
  });

  it('says why a recovery cannot be planned now instead of failing', async () => {
    const control = new FixtureControl();
    control.planRecovery = () =>
      Promise.reject(new Error('the recovery run-1 is running; abort it (a) or let it finish before starting another'));
    const tui = await renderTui(app(control));
    await tui.press(':');
    await tui.type('recover runbooks/AppRecovery.k hosts=a-node-1');
    await tui.press('enter');
    await tui.waitFor('the recovery run-1 is running; abort it (a) or let it finish before starting another');
    tui.unmount();
  });

  it('filters the focused list as the user types, and esc clears it', async () => {
    const tui = await renderTui(app());
    await tui.press('/');
    await tui.type('guest');
    expect(tui.frame()).not.toContain('batch-report');
    await tui.press('enter', 'j', 'enter', '/');
    await tui.type('deploy');
    await tui.press('enter');
    const main = lines(tui.frame()).map((l) => l.slice(l.indexOf('││') + 2));
    const kinds = main
      .filter((l) => /^[▸ ] [A-Z]/.test(l) && !l.startsWith('  KIND'))
      .map((l) => l.slice(2).split(/\s+/)[0]);
    expect(kinds).toEqual(['Deployment', 'Deployment']);
    // a lone esc could start an escape sequence: Ink lets it through a turn of the event loop later
    await tui.press('esc');
    await tui.waitFor('Namespace');
    tui.unmount();
  });

  it('takes its keys from the keymap, in the footer, the help and the keys that work', async () => {
    const { bindings } = parseKeymap('apply: A\n', '/ws/.kdeck/keymap.yaml');
    const tui = await renderTui(app(new FixtureControl(), bindings));
    expect(footer(tui.frame())).toContain('A apply');
    await tui.press('?');
    await tui.waitFor(/ A +apply +apply the selected stack/);
    await tui.press('esc', 'a');
    expect(tui.frame()).not.toContain('Apply batch-report/dev?');
    await tui.press('A');
    await tui.waitFor('Apply batch-report/dev?');
    tui.unmount();
  });

  it('shows a compile error beside the last good plan', async () => {
    const tui = await renderTui(app());
    await tui.press(':');
    await tui.type('stack staging');
    await tui.press('enter');
    const frame = tui.frame();
    expect(lines(frame)[1]).toContain('✗ main.k:12:5 expected int, got str(3)');
    expect(frame).toContain('The last good plan, until the error is fixed:');
    expect(frame).toMatch(/Deployment +frontend/);
    tui.unmount();
  });

  it('keeps the frame inside the terminal and follows a resize', async () => {
    const tui = await renderTui(app());
    expect(lines(tui.frame())).toHaveLength(29);
    await tui.resize({ columns: 80, rows: 20 });
    const small = lines(tui.frame());
    expect(small).toHaveLength(19);
    expect(Math.max(...small.map((l) => l.length))).toBeLessThanOrEqual(80);
    await tui.resize({ columns: 50, rows: 10 });
    expect(tui.frame()).toContain('kdeck needs at least 60×12');
    tui.unmount();
  });
});
