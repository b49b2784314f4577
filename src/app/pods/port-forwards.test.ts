import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PortForwards, isPortSpec, type PortForward } from './port-forwards.js';

/** A kubectl that says what kubectl port-forward says, with its arguments, and waits to be stopped. */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-pf-'));
const fake = path.join(dir, 'kubectl');
fs.writeFileSync(fake, '#!/bin/sh\necho "Forwarding from 127.0.0.1:8080 -> 80 (args: $*)"\nexec sleep 60\n', {
  mode: 0o755,
});
const forwards = new PortForwards(fake);
afterAll(async () => {
  await forwards.stopAll();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function until(what: string, test: (all: readonly PortForward[]) => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!test(forwards.store.get())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen: ${JSON.stringify(forwards.store.get())}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const base = { kubeconfig: ['/home/sre/.kube/config'], context: 'sandbox-a' };
const web = { context: 'sandbox-a', namespace: 'web', kind: 'Service', name: 'web' };

describe('port-forwards', () => {
  it('runs kubectl port-forward in the background, lists it with what kubectl said, and stops it', async () => {
    const pf = forwards.start(base, web, ['8080:80']);
    expect(pf.command).toBe(
      'kubectl --kubeconfig /home/sre/.kube/config --context sandbox-a -n web port-forward service/web 8080:80',
    );
    await until('forwarding', (all) => all[0]?.state === 'forwarding');
    expect(forwards.store.get()[0]!.said).toContain(
      'args: --kubeconfig /home/sre/.kube/config --context sandbox-a -n web port-forward service/web 8080:80',
    );
    expect(forwards.stop(pf.id)).toBe(true);
    await until('the stop', (all) => all[0]?.state === 'exited');
    expect(forwards.stop(pf.id)).toBe(false);
  });

  it('stops every one still running when the console ends', async () => {
    forwards.start(base, web, ['9090:90']);
    forwards.start(base, { ...web, kind: 'Pod', name: 'web-1' }, [':80']);
    await until('both forwarding', (all) => all.filter((p) => p.state === 'forwarding').length === 2);
    await forwards.stopAll();
    await until('every one ended', (all) => all.every((p) => p.state === 'exited'));
  });

  it('takes the port forms kubectl takes', () => {
    expect(['8080:80', '8080', ':80'].every(isPortSpec)).toBe(true);
    expect(['http', ':', '80:', 'a:b'].some(isPortSpec)).toBe(false);
  });
});
