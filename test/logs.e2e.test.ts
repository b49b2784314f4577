/**
 * Logs end to end against a sandbox over HTTP: a Deployment whose image is `:crashloop`, its
 * pod's log read through the console (the real log feed, pods/log streams, the Log view) shows
 * the crash lines while following, `p` shows the previous run with its exit code and reason,
 * closing the view leaves no stream open, and the feed reads what `kubectl logs` reads. The
 * sandbox's refusals of a shell and a port-forward come from its own discovery.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createElement } from 'react';
import { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/index.js';
import { ClusterSet } from '../src/cluster/cluster-set.js';
import { loadKubeconfig } from '../src/cluster/kubeconfig.js';
import { openPodLogStreams } from '../src/cluster/pod-log.js';
import { ClusterPodTools } from '../src/app/pods/pod-tools.js';
import { App } from '../src/ui/App.js';
import { DEFAULT_BINDINGS } from '../src/ui/actions.js';
import { FixtureControl, fixtureState } from '../src/ui/testing/fixture.js';
import { renderTui } from '../src/ui/testing/render-tui.js';
import { eventually } from './support/kube-target.js';

let sandbox: Sandbox;
let tools: ClusterPodTools;

beforeAll(async () => {
  sandbox = await startSandbox({
    clusters: 2,
    timings: { podStartMs: 0, readinessDelayMs: 0, terminationMs: 0, crashAfterMs: 400 },
  });
  const kc = new KubeConfig();
  kc.loadFromFile(sandbox.kubeconfigPath);
  kc.setCurrentContext('sandbox-b');
  await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: 'guestbook' } } });
  await kc.makeApiClient(AppsV1Api).createNamespacedDeployment({
    namespace: 'guestbook',
    body: {
      metadata: { name: 'frontend' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'frontend' } },
        template: {
          metadata: { labels: { app: 'frontend' } },
          spec: { containers: [{ name: 'frontend', image: 'gb-frontend:crashloop' }] },
        },
      },
    },
  });
  tools = new ClusterPodTools(new ClusterSet(loadKubeconfig(sandbox.kubeconfigPath)));
  // the first run has crashed once its pod shows the run before the current one
  const core = kc.makeApiClient(CoreV1Api);
  await eventually('the frontend pod to crash once', async () => {
    const pods = await core.listNamespacedPod({ namespace: 'guestbook' });
    return pods.items.some((p) => p.status?.containerStatuses?.[0]?.lastState?.terminated) || undefined;
  });
}, 60_000);

afterAll(async () => {
  await tools?.close();
  await sandbox?.stop();
});

describe('the log of a crash-looping Deployment on the sandbox', () => {
  it('shows the crash lines, p the previous run with its exit code, and closing leaves no stream', async () => {
    const control = new FixtureControl(fixtureState(), false, tools);
    const tui = await renderTui(
      createElement(App, {
        control,
        bindings: DEFAULT_BINDINGS,
        keymapFile: '/k.yaml',
        runbooks: [],
        unfinished: [],
      }),
      { columns: 160, rows: 45 },
    );
    try {
      await tui.press(':');
      await tui.type('stack guestbook/prod');
      await tui.press('enter');
      for (let i = 0; i < 4; i++) await tui.press('j');
      await tui.waitFor(/▸ Deployment +frontend/);
      await tui.press('l');
      let f = await tui.waitFor('/frontend] frontend: fatal error: simulated failure', 20_000);
      expect(f).toMatch(/\/frontend\] frontend: exiting with code 1/);
      expect(f).toMatch(/\/frontend\] frontend: started from image gb-frontend:crashloop/);
      expect(f).toContain('Log deployment/frontend (1 pod) · following');
      await tui.press('p');
      f = await tui.waitFor(/of the previous runs/);
      f = await tui.waitFor(/\/frontend\] frontend: exiting with code 1/, 20_000);
      expect(f).toMatch(
        /\/frontend: exit code 1, reason Error · ended \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC · \d+ restarts?/,
      );
      await tui.press('p');
      await tui.waitFor('following');
      await tui.press('s');
      await tui.waitFor(
        'the sandbox runs no processes: no shell in deployment/frontend (sandbox-b serves no pods/exec',
      );
      await tui.press('esc');
      await tui.waitFor('KIND');
      await eventually('every log stream to close', () => openPodLogStreams() === 0 || undefined, 5_000);
    } finally {
      tui.unmount();
    }
  });

  it('reads the previous run as kubectl logs --previous -l … --prefix does', async () => {
    const feed = tools.openLogs({ context: 'sandbox-b', namespace: 'guestbook', kind: 'Deployment', name: 'frontend' });
    try {
      feed.setPrevious(true);
      const state = await eventually('the previous run to be read', () => {
        const s = feed.store.get();
        return s.sources.length > 0 && s.sources.every((x) => x.state === 'ended') && s.buffer.lines.length > 0
          ? s
          : undefined;
      });
      const ours = state.buffer.lines.map((l) => `[${l.source}] ${l.text}`);
      // not execFileSync: the sandbox answers from this very process
      const { stdout } = await promisify(execFile)(
        'kubectl',
        [
          '--kubeconfig',
          sandbox.kubeconfigPath,
          '--context',
          'sandbox-b',
          '-n',
          'guestbook',
          'logs',
          '--previous',
          '-l',
          'app=frontend',
          '--prefix',
        ],
        { encoding: 'utf8', timeout: 30_000 },
      );
      const theirs = stdout.trimEnd().split('\n');
      // a later crash may have made another run the previous one between the two reads
      expect(ours.length).toBeGreaterThan(2);
      expect(theirs.slice(0, 1)).toEqual(ours.slice(0, 1).map((l) => l.replace(/ \(run \d+\)$/, '')));
      expect(theirs.at(-1)).toBe(ours.at(-1));
    } finally {
      feed.close();
    }
  });

  it('refuses a port-forward at once: the sandbox serves no pods/portforward', async () => {
    const out = await tools.startPortForward(
      { context: 'sandbox-b', namespace: 'guestbook', kind: 'Service', name: 'frontend' },
      ['8080:80'],
    );
    expect(out).toEqual({
      refused: expect.stringMatching(
        /^the sandbox runs no processes: nothing listens in service\/frontend \(sandbox-b serves no pods\/portforward; on a real cluster this runs kubectl --kubeconfig \S+ --context sandbox-b -n guestbook port-forward service\/frontend 8080:80\)$/,
      ),
    });
    expect(tools.portForwards.store.get()).toEqual([]);
  });
});
