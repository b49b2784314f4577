/**
 * Port-forwards the console keeps running in the background: each one a `kubectl port-forward`
 * child process held by its handle, listed with what kubectl last said, stoppable one by one,
 * and all stopped when the console ends (none outlives it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Store } from '../console/state.js';
import { commandLine, kubectlEnv, portForwardArgs, type KubectlBase, type PodTarget } from './target.js';

export interface PortForward {
  id: number;
  target: PodTarget;
  ports: readonly string[];
  /** The command line, as a person would type it. */
  command: string;
  state: 'starting' | 'forwarding' | 'exited';
  /** What kubectl last wrote (`Forwarding from 127.0.0.1:8080 -> 80`, or its error). */
  said: string;
  exitCode?: number | null;
}

/** `8080:80`, `8080`, `:80`: the forms kubectl port-forward takes. */
export const isPortSpec = (p: string): boolean => /^(\d{1,5})?(:\d{1,5})?$/.test(p) && p !== '' && p !== ':';

export class PortForwards {
  readonly store = new Store<readonly PortForward[]>([]);
  private readonly children = new Map<number, ChildProcess>();
  private next = 1;

  constructor(private readonly kubectl = process.env.KDECK_KUBECTL ?? 'kubectl') {}

  start(base: KubectlBase, target: PodTarget, ports: readonly string[]): PortForward {
    const args = portForwardArgs(base, target, ports);
    const pf: PortForward = {
      id: this.next++,
      target,
      ports,
      command: commandLine(base, args),
      state: 'starting',
      said: '',
    };
    this.store.update((all) => [...all, pf]);
    const child = spawn(this.kubectl, args, {
      env: { ...process.env, ...kubectlEnv(base) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.children.set(pf.id, child);
    const said = (chunk: Buffer, forwarding: boolean) => {
      const last = chunk.toString('utf8').trim().split('\n').pop()?.trim();
      if (last)
        this.patch(pf.id, { said: last, ...(forwarding && /^Forwarding/.test(last) ? { state: 'forwarding' } : {}) });
    };
    child.stdout?.on('data', (c: Buffer) => said(c, true));
    child.stderr?.on('data', (c: Buffer) => said(c, false));
    child.on('error', (e) =>
      this.patch(pf.id, { state: 'exited', said: `${this.kubectl}: ${e.message}`, exitCode: null }),
    );
    child.on('exit', (code) => {
      this.children.delete(pf.id);
      this.patch(pf.id, { state: 'exited', exitCode: code });
    });
    return pf;
  }

  private patch(id: number, change: Partial<PortForward>): void {
    this.store.update((all) => all.map((p) => (p.id === id ? { ...p, ...change } : p)));
  }

  /** Stops one; false when it is not running. */
  stop(id: number): boolean {
    const child = this.children.get(id);
    if (!child) return false;
    child.kill('SIGTERM');
    return true;
  }

  /** Stops every one and waits (at most `limitMs`) for them to end; what still runs then is killed. */
  async stopAll(limitMs = 5_000): Promise<void> {
    const running = [...this.children.values()];
    await Promise.all(
      running.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => {
              child.kill('SIGKILL');
              resolve();
            }, limitMs);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  }
}
