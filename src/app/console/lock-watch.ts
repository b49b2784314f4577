/**
 * Who else holds a stack's lock, looked up every few seconds for the stacks the console has
 * planned: another SRE's apply, a CI job, a crashed process whose lease has not run out yet.
 * The console's own operations are left out (their badge already says applying).
 */
import os from 'node:os';
import { isExpired, type LockHolder, type StateBackend } from '../../state/backend.js';
import type { StateKey } from '../../state/model.js';
import { errorMessage } from '../../diagnostics/user-error.js';

const mine = (h: LockHolder) => h.pid === process.pid && h.host === os.hostname();

export class LockWatch {
  private readonly keys = new Map<string, StateKey[]>();
  private readonly seen = new Map<string, string | undefined>();
  private readonly timer: NodeJS.Timeout;
  private checking = false;

  constructor(
    private readonly backend: StateBackend,
    /** Told when a stack's holder changes (undefined: nobody else holds it now). */
    private readonly onChange: (stack: string, holder: LockHolder | undefined) => void,
    private readonly onError: (text: string) => void,
    intervalMs = 5_000,
  ) {
    this.timer = setInterval(() => void this.check(), intervalMs);
    this.timer.unref();
  }

  /** Follows the lock of `stack` on these state keys (one per cluster), looking at once. */
  track(stack: string, keys: StateKey[]): void {
    this.keys.set(stack, keys);
    void this.checkOne(stack);
  }

  private async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      for (const stack of this.keys.keys()) await this.checkOne(stack);
    } finally {
      this.checking = false;
    }
  }

  private async checkOne(stack: string): Promise<void> {
    let holder: LockHolder | undefined;
    try {
      for (const key of this.keys.get(stack) ?? []) {
        const h = await this.backend.lockHolder(key);
        if (h && !mine(h) && !isExpired(h, new Date())) {
          holder = h;
          break;
        }
      }
    } catch (e) {
      this.onError(`${stack}: cannot read its lock: ${errorMessage(e)}`);
      return;
    }
    const id = holder ? `${holder.id}@${holder.since}` : undefined;
    if (this.seen.get(stack) === id) return;
    this.seen.set(stack, id);
    this.onChange(stack, holder);
  }

  close(): void {
    clearInterval(this.timer);
  }
}
