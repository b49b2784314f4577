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
import { helpLines } from './components/HelpView.js';
import { FixtureControl, fixtureState } from './testing/fixture.js';
import { renderTui, type Tui } from './testing/render-tui.js';
import { FIXTURE_PODS, FixturePodTools } from './testing/pod-fixture.js';

process.env.TZ = 'UTC';

const [POD_A, , POD_C] = FIXTURE_PODS as [string, string, string];

let tui: Tui | undefined;
afterEach(() => tui?.unmount());

/** The console on the prod stack, its frontend Deployment selected. */
async function onFrontend(control = new FixtureControl()): Promise<Tui> {
  tui = await renderTui(
    <App control={control} bindings={DEFAULT_BINDINGS} keymapFile="/k.yaml" runbooks={[]} unfinished={[]} />,
  );
  await tui.press(':');
  await tui.type('stack guestbook/prod');
  await tui.press('enter');
  for (let i = 0; i < 4; i++) await tui.press('j');
  await tui.waitFor(/▸ Deployment +frontend/);
  return tui;
}

/** The kubectl command at the bottom of the log view, its rows joined. */
function command(frame: string): string {
  const rows = frame.split('\n').map((l) => /││(.*)│$/.exec(l)?.[1]?.trim() ?? '');
  const first = rows.findIndex((r) => r.startsWith('kubectl '));
  return rows
    .slice(first, first + 2)
    .filter((r) => r && !r.startsWith('╰'))
    .join(' ');
}

const apiOf = (control: FixtureControl) => (control.podTools as FixturePodTools).api;

describe('the log view', () => {
  it("opens on a workload's pods, prefixed as kubectl --prefix, and shows the kubectl command", async () => {
    const t = await onFrontend();
    await t.press('l');
    const f = await t.waitFor(`[pod/${POD_C}/frontend] frontend: GET /healthz 200`);
    expect(f).toContain(`[pod/${POD_A}/frontend] frontend: started on ${POD_A}`);
    expect(f).toContain('Log deployment/frontend (3 pods) · following');
    expect(command(f)).toBe(
      'kubectl --kubeconfig /home/sre/.kube/config --context sandbox-b -n guestbook logs -f --tail=5000 -l app=frontend --prefix',
    );
  });

  it('shows new lines while following, none after f, and reads on from the last line after f again', async () => {
    const control = new FixtureControl();
    const t = await onFrontend(control);
    await t.press('l');
    await t.waitFor('9 lines, following the newest');
    apiOf(control).write(POD_A, 'frontend', 'frontend: GET /cart 200');
    await t.waitFor(`[pod/${POD_A}/frontend] frontend: GET /cart 200`);
    await t.press('f');
    let f = await t.waitFor('not following');
    expect(f).not.toMatch(/logs -f/);
    apiOf(control).write(POD_A, 'frontend', 'frontend: GET /checkout 200');
    await t.press('j');
    expect(t.frame()).not.toContain('/checkout');
    expect(apiOf(control).streaming).toBe(0);
    await t.press('f');
    await t.waitFor('following the newest');
    apiOf(control).write(POD_A, 'frontend', 'frontend: GET /pay 200', Date.UTC(2026, 2, 2, 9, 1));
    f = await t.waitFor('/pay 200');
    // read on after the last line: the opening lines are not taken twice
    expect(f.match(/GET \/healthz/g)).toHaveLength(3);
  });

  it('stays on the lines it shows when scrolled back, while new lines arrive below', async () => {
    const control = new FixtureControl();
    const t = await onFrontend(control);
    await t.press('l');
    await t.waitFor('9 lines, following the newest');
    await t.press('k', 'k');
    const before = await t.waitFor('2 newer lines below');
    const shown = (frame: string) => frame.split('\n').filter((l) => l.includes('[pod/'));
    apiOf(control).write(POD_A, 'frontend', 'frontend: GET /cart 200');
    const after = await t.waitFor('3 newer lines below');
    expect(shown(after)).toEqual(shown(before));
    expect(after).not.toContain('/cart');
  });

  it('p shows the previous runs with the exit code and reason from lastState.terminated', async () => {
    const t = await onFrontend();
    await t.press('l');
    await t.waitFor('following the newest');
    await t.press('p');
    const f = await t.waitFor('frontend: fatal error: cannot reach');
    expect(f).toContain(`pod/${POD_A}/frontend: exit code 1, reason Error · ended 2026-0`);
    expect(f).toContain('previous runs');
    expect(command(f)).toContain('logs --previous --tail=5000 -l app=frontend --prefix');
    await t.press('p');
    await t.waitFor(/following ·|following$/m);
  });

  it('/ highlights the matches and counts the lines that match', async () => {
    const t = await onFrontend();
    await t.press('l');
    await t.waitFor('following the newest');
    await t.press('/');
    await t.type('healthz');
    await t.waitFor('/healthz: 3 lines match');
    await t.press('enter');
    await t.press('esc');
    await t.waitFor((frame) => !frame.includes('lines match'));
    expect(t.frame()).toContain('Log deployment/frontend');
  });

  it('w wraps long lines onto more rows, and t shows the timestamps', async () => {
    const t = await onFrontend();
    await t.press('l');
    let f = await t.waitFor('following the newest');
    expect(f).not.toContain('total 7ms)');
    await t.press('w');
    f = await t.waitFor('total 7ms)');
    expect(f).toContain('wrap');
    await t.press('w', 't');
    f = await t.waitFor('2026-03-02T08:59:35.000000000Z');
    expect(f).toContain(`[pod/${POD_A}/frontend] 2026-03-02T08:59:30.000000000Z frontend`);
  });

  it('c picks the container of every pod, and the kubectl command names it', async () => {
    const t = await onFrontend();
    await t.press('l');
    await t.waitFor('following the newest');
    await t.press('c');
    const picker = await t.waitFor('The container to read in each pod:');
    expect(picker).toContain("▸ each pod's default container");
    await t.press('j', 'j');
    await t.waitFor('▸ log-shipper');
    await t.press('enter');
    const f = await t.waitFor(`[pod/${POD_A}/log-shipper] log-shipper: started`);
    expect(f).toContain('container log-shipper');
    expect(f).not.toContain('/frontend] frontend:');
    expect(command(f)).toContain('--prefix -c log-shipper');
  });

  it('keeps the newest 5,000 lines and says how many older ones it let go', async () => {
    const control = new FixtureControl();
    const t = await onFrontend(control);
    await t.press('l');
    await t.waitFor('9 lines, following the newest');
    const burst = Array.from({ length: 5_010 }, (_, i) => `frontend: request ${i + 1}`);
    apiOf(control).write(POD_C, 'frontend', burst);
    const f = await t.waitFor('19 older lines dropped: the view keeps the newest 5,000');
    expect(f).toContain('5000 lines, following the newest');
    expect(f).toContain('frontend: request 5010');
  });

  it("takes in a new pod's log and lets a deleted pod's stream go", async () => {
    const control = new FixtureControl();
    const t = await onFrontend(control);
    await t.press('l');
    await t.waitFor('Log deployment/frontend (3 pods)');
    apiOf(control).addPod('frontend-7d9-new99');
    await t.waitFor('[pod/frontend-7d9-new99/frontend] frontend: GET /healthz 200');
    expect(t.frame()).toContain('Log deployment/frontend (4 pods)');
    expect(apiOf(control).streaming).toBe(4);
    apiOf(control).deletePod(POD_A);
    await t.waitFor('Log deployment/frontend (3 pods)');
    expect(apiOf(control).streaming).toBe(3);
  });

  it('esc closes the view and every stream it had open', async () => {
    const control = new FixtureControl();
    const t = await onFrontend(control);
    await t.press('l');
    await t.waitFor('following the newest');
    expect(apiOf(control).streaming).toBe(3);
    await t.press('esc');
    await t.waitFor('KIND');
    expect(apiOf(control).streaming).toBe(0);
  });

  it(':logs reads one pod and one container, without prefixes', async () => {
    const t = await onFrontend();
    await t.press(':');
    await t.type(`logs pod/${POD_A} -c log-shipper`);
    await t.press('enter');
    const f = await t.waitFor(`log-shipper: started on ${POD_A}`);
    expect(f).not.toContain('[pod/');
    expect(f).toContain(`Log pod/${POD_A} · following · container log-shipper`);
    expect(command(f)).toContain(`logs -f --tail=5000 pod/${POD_A} -c log-shipper`);
  });
});

describe('a shell in a pod', () => {
  it('s on the sandbox says plainly that it runs no processes, with the kubectl command', async () => {
    const control = new FixtureControl();
    const t = await onFrontend(control);
    await t.press('s');
    await t.waitFor('the sandbox runs no processes: no shell in deployment/frontend');
    // whole in the event log: the status line cuts it to the width
    expect(control.store.get().events.at(-1)?.text).toBe(
      'the sandbox runs no processes: no shell in deployment/frontend (sandbox-b serves no pods/exec; on a real cluster this runs kubectl --kubeconfig /home/sre/.kube/config --context sandbox-b -n guestbook exec -it deployment/frontend -- sh)',
    );
    await t.press('l');
    await t.waitFor('following the newest');
    await t.press('s');
    await t.waitFor('the sandbox runs no processes: no shell in deployment/frontend');
  });

  it('is hidden from the help and the footer, and refused, in --read-only mode', async () => {
    const ctx = { focus: 'main', view: 'resources', running: false, filtered: false, pods: true } as const;
    const help = (readOnly: boolean) => helpLines({ ...ctx, readOnly }, DEFAULT_BINDINGS, '/k.yaml').map((l) => l.text);
    expect(help(false)).toContainEqual(expect.stringMatching(/^ {2}s +shell /));
    expect(help(true)).not.toContainEqual(expect.stringMatching(/^ {2}s +shell /));
    expect(help(true)).toContainEqual(expect.stringMatching(/^ {2}l +logs /));
    const t = await onFrontend(new FixtureControl({ ...fixtureState(), readOnly: true }));
    await t.press('l');
    const f = await t.waitFor('following the newest');
    expect(f).not.toMatch(/\bs shell\b/);
    await t.press('s');
    await t.waitFor('shell may change what runs and is refused in --read-only mode');
  });
});

describe('port-forward', () => {
  it('is refused plainly on the sandbox, which serves no pods/portforward', async () => {
    const t = await onFrontend();
    await t.press(':');
    await t.type('port-forward svc/frontend 8080:80');
    await t.press('enter');
    await t.waitFor('the sandbox runs no processes: nothing listens in service/frontend');
  });

  it('says when none runs, and what a port is not', async () => {
    const t = await onFrontend();
    await t.press(':');
    await t.type('port-forwards');
    await t.press('enter');
    await t.waitFor('no port-forward was started');
    await t.press(':');
    await t.type('pf svc/frontend http');
    await t.press('enter');
    await t.waitFor('http is not a port');
  });
});
