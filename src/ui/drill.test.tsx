import { describe, expect, it } from 'vitest';
import { App } from './App.js';
import { DEFAULT_BINDINGS } from './actions.js';
import { FixtureControl, fixtureState } from './testing/fixture.js';
import { fixtureObjects } from './testing/objects-fixture.js';
import { renderTui, type Tui } from './testing/render-tui.js';

process.env.TZ = 'UTC';

const app = (control: FixtureControl) => (
  <App control={control} bindings={DEFAULT_BINDINGS} keymapFile="/k/keymap.yaml" runbooks={[]} unfinished={[]} />
);
const lines = (frame: string) => frame.split('\n');
/** The main pane's text (at 160 columns) with borders and line breaks taken out: a wrapped command reads whole. */
const flat = (frame: string) =>
  lines(frame)
    .map((l) => l.slice(32))
    .join(' ')
    .replace(/[│║\s]+/g, ' ');
const footer = (frame: string) => lines(frame).at(-1)!;
const status = (frame: string) => lines(frame).at(-2)!;

/** The guestbook prod stack, its frontend Deployment selected. */
async function onFrontend(tui: Tui): Promise<void> {
  await tui.press(':');
  await tui.type('stack guestbook/prod');
  await tui.press('enter');
  for (let i = 0; i < 4; i++) await tui.press('j');
  await tui.waitFor(/▸ Deployment +frontend/);
}

describe('pods, describe and YAML of a stack resource', () => {
  it('enter on a Deployment lists its pods as kubectl get pods -o wide does; :sort and / work there; esc goes back', async () => {
    const tui = await renderTui(app(new FixtureControl()), { columns: 160, rows: 45 });
    await onFrontend(tui);
    await tui.press('enter');
    let frame = await tui.waitFor('Pods of deployment/frontend in guestbook on sandbox-b: 3');
    frame = await tui.waitFor('CrashLoopBackOff');
    expect(frame).toMatch(/NAME +READY +STATUS +RESTARTS +AGE +NODE +IP/);
    expect(frame).toMatch(/frontend-7d9-fghij +0\/1 +CrashLoopBackOff +5 \(42s ago\) +9m30s +b-node-2 +10\.1\.0\.12/);
    expect(frame).toMatch(/frontend-7d9-abcde +1\/1 +Running +0 +9m30s/);
    // a name too long for its column keeps both ends
    expect(frame).toMatch(/frontend-7d9-klmnopqrstuvwxyz-long-generated-name/);
    expect(flat(frame)).toContain(
      '$ kubectl --kubeconfig /work/konfig-sample/.kdeck/sandbox/kubeconfig --context sandbox-b -n guestbook get pods -o wide -l app=frontend',
    );
    expect(frame).toMatch(/▸ frontend-7d9-abcde/);

    await tui.press(':');
    await tui.type('sort -restarts');
    await tui.press('enter');
    frame = await tui.waitFor('by restarts (descending)');
    expect(frame).toMatch(/RESTARTS↓/);
    expect(frame).toMatch(/▸ frontend-7d9-fghij/);

    await tui.press('/');
    await tui.type('Running');
    await tui.press('enter');
    frame = await tui.waitFor('Pods of deployment/frontend in guestbook on sandbox-b: 2 of 3');
    expect(frame).not.toContain('CrashLoopBackOff');

    await tui.press('esc');
    await tui.waitFor(': 3, by restarts');
    await tui.press('esc');
    frame = await tui.waitFor(/▸ Deployment +frontend/);
    expect(frame).not.toContain('Pods of');
    tui.unmount();
  });

  it('enter on a Service not yet in the cluster lists no pods and says why', async () => {
    const tui = await renderTui(app(new FixtureControl()));
    await onFrontend(tui);
    await tui.press('k', 'enter');
    await tui.waitFor('Pods of service/redis-leader in guestbook on sandbox-b: 0');
    await tui.waitFor('service/redis-leader is not in guestbook on sandbox-b (not applied yet');
    tui.unmount();
  });

  it('enter on another resource opens its diff as before, and 3 is the diff of a Deployment too', async () => {
    const tui = await renderTui(app(new FixtureControl()));
    await onFrontend(tui);
    await tui.press('k', 'k', 'k');
    await tui.press('enter');
    await tui.waitFor('UnChanged v1:ConfigMap:guestbook:redis-conf on sandbox-b');
    await tui.press('esc', 'j', 'j', 'j', '3');
    await tui.waitFor('Update (drift) apps/v1:Deployment:guestbook:frontend on sandbox-b');
    tui.unmount();
  });

  it("d describes the Deployment: replicas, conditions, the pod template, then its and its pods' events, newest first", async () => {
    const tui = await renderTui(app(new FixtureControl()), { columns: 160, rows: 45 });
    await onFrontend(tui);
    await tui.press('d');
    await tui.waitFor('Describe deployment/frontend in guestbook on sandbox-b');
    const frame = await tui.waitFor('ScalingReplicaSet');
    expect(frame).toMatch(/Replicas: +5 desired \| 3 updated \| 3 total \| 2 available \| 1 unavailable/);
    expect(frame).toMatch(/Image: +gb-frontend:v5/);
    expect(frame).toMatch(/Readiness: +http-get http:\/\/:80\/healthz/);
    expect(frame).toMatch(/Limits: +cpu 500m, memory 128Mi/);
    const events = lines(frame).filter((l) => /(Warning|Normal) {2,}\w/.test(l));
    expect(events.map((l) => /(Warning|Normal) +(\w+)/.exec(l)?.[2])).toEqual([
      'BackOff',
      'Pulled',
      'ScalingReplicaSet',
    ]);
    expect(events[0]).toMatch(/12s \(x14 over 13m\) +pod\/frontend-7d9-fghij +Back-off restarting failed container/);
    expect(flat(frame)).toContain(
      '$ kubectl --kubeconfig /work/konfig-sample/.kdeck/sandbox/kubeconfig --context sandbox-b -n guestbook describe deployment/frontend',
    );
    tui.unmount();
  });

  it('d on a pod of the list describes the pod with its container state and last termination', async () => {
    const tui = await renderTui(app(new FixtureControl()), { columns: 160, rows: 45 });
    await onFrontend(tui);
    await tui.press('enter');
    await tui.waitFor(/▸ frontend-7d9-abcde/);
    await tui.press('j', 'd');
    await tui.waitFor('Describe pod/frontend-7d9-fghij');
    const frame = await tui.waitFor('Restart Count');
    expect(frame).toMatch(/State: +Waiting \(CrashLoopBackOff\)/);
    expect(frame).toMatch(/Last State: +Terminated \(Error, exit code 1\), 42s ago/);
    expect(frame).toMatch(/Restart Count: +5/);
    expect(frame).toMatch(/Controlled By: +ReplicaSet\/frontend-7d9/);
    await tui.press('esc');
    await tui.waitFor(/▸ frontend-7d9-fghij/);
    tui.unmount();
  });

  it('y shows the live object without managedFields until m, and searches it with /', async () => {
    const tui = await renderTui(app(new FixtureControl()), { columns: 160, rows: 45 });
    await onFrontend(tui);
    await tui.press('y');
    await tui.waitFor('YAML of deployment/frontend (managedFields hidden: m) in guestbook on sandbox-b');
    let frame = await tui.waitFor('kind: Deployment');
    expect(frame).not.toContain('managedFields:');
    expect(footer(frame)).toContain('m managed fields');
    await tui.press('m');
    frame = await tui.waitFor('managedFields shown');
    expect(frame).toContain('managedFields:');
    expect(flat(frame)).toContain('get deployment/frontend -o yaml --show-managed-fields');
    await tui.press('/');
    await tui.type('maxSurge');
    await tui.press('enter');
    frame = await tui.waitFor('1 line matches /maxSurge');
    expect(frame).toMatch(/maxSurge: 25%/);
    tui.unmount();
  });

  it('y on a Secret masks its values unless the console shows secrets', async () => {
    const masked = await renderTui(app(new FixtureControl()), { columns: 160, rows: 45 });
    await onFrontend(masked);
    await masked.press('k', 'k');
    await masked.waitFor(/▸ Secret +redis-auth/);
    await masked.press('y');
    let frame = await masked.waitFor('password:');
    expect(frame).toContain('values masked');
    expect(frame).not.toContain(Buffer.from('hunter2').toString('base64'));
    expect(frame).toMatch(/password: "\*+"/);
    masked.unmount();

    const control = new FixtureControl();
    Object.assign(control, { objects: fixtureObjects({ showSecrets: true, source: control.source }) });
    const shown = await renderTui(app(control), { columns: 160, rows: 45 });
    await onFrontend(shown);
    await shown.press('k', 'k', 'y');
    frame = await shown.waitFor('password:');
    expect(frame).toContain(`password: ${Buffer.from('hunter2').toString('base64')}`);
    shown.unmount();
  });
});

describe('per-object actions', () => {
  it('are hidden in read-only mode and refused with a sentence', async () => {
    const control = new FixtureControl({ ...fixtureState(), readOnly: true });
    const tui = await renderTui(app(control), { columns: 160, rows: 45 });
    await onFrontend(tui);
    expect(footer(tui.frame())).toContain('d describe');
    expect(footer(tui.frame())).not.toContain('restart');
    await tui.press('o');
    expect(status(tui.frame())).toBe(
      'restart changes the cluster and is refused in --read-only mode; restart without it to restart',
    );
    await tui.press('S');
    expect(status(tui.frame())).toMatch(/^scale changes the cluster and is refused in --read-only mode/);
    await tui.press('enter');
    await tui.waitFor(/▸ frontend-7d9-abcde/);
    await tui.press('ctrl+d');
    expect(status(tui.frame())).toMatch(/^delete pod changes the cluster and is refused in --read-only mode/);
    expect(control.source.writes).toEqual([]);
    tui.unmount();
  });

  it("a restart on a production context asks for its name, then sends kubectl's restartedAt patch", async () => {
    const control = new FixtureControl();
    const tui = await renderTui(app(control), { columns: 160, rows: 45 });
    await onFrontend(tui);
    expect(footer(tui.frame())).toContain('o restart');
    await tui.press('o');
    const frame = await tui.waitFor('Restart deployment/frontend?');
    expect(frame).toContain('in namespace guestbook on sandbox-b (prod)');
    // the command is wrapped, not cut, in the confirmation
    expect(flat(frame)).toContain(
      'the same as: kubectl --kubeconfig /work/konfig-sample/.kdeck/sandbox/kubeconfig --context sandbox-b -n guestbook rollout restart deployment/frontend',
    );
    expect(frame).toContain('Type sandbox-b to restart, esc to cancel');
    await tui.press('y', 'enter');
    expect(status(tui.frame())).toBe(
      'type sandbox-b to go ahead (every production context it touches), or esc to cancel',
    );
    expect(control.source.writes).toEqual([]);
    await tui.press('backspace');
    await tui.type('sandbox-b');
    await tui.press('enter');
    await tui.waitFor('deployment/frontend restarted on sandbox-b');
    expect(control.source.writes).toEqual([
      `patch Deployment/frontend on sandbox-b: {"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-03-02T09:10:00Z"}}}}}`,
    ]);
    tui.unmount();
  });

  it('scale asks the count on the command line, and ctrl+d deletes the selected pod once confirmed', async () => {
    const control = new FixtureControl();
    const tui = await renderTui(app(control), { columns: 160, rows: 45 });
    await onFrontend(tui);
    await tui.press('S');
    expect(status(tui.frame())).toMatch(/^:scale 5/);
    await tui.press('backspace');
    await tui.type('2');
    await tui.press('enter');
    await tui.waitFor('Scale deployment/frontend?');
    await tui.type('sandbox-b');
    await tui.press('enter');
    await tui.waitFor('deployment/frontend scaled to 2 on sandbox-b');
    await tui.press('enter');
    await tui.waitFor(/▸ frontend-7d9-abcde/);
    await tui.press('ctrl+d');
    await tui.waitFor('Delete pod/frontend-7d9-abcde?');
    await tui.type('sandbox-b');
    await tui.press('enter');
    await tui.waitFor('pod/frontend-7d9-abcde deleted on sandbox-b; its controller makes a new one');
    await tui.waitFor('Pods of deployment/frontend in guestbook on sandbox-b: 2');
    expect(control.source.writes).toEqual([
      'patch Deployment/frontend on sandbox-b: {"spec":{"replicas":2}}',
      'delete Pod/frontend-7d9-abcde on sandbox-b',
    ]);
    tui.unmount();
  });
});
