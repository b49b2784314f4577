/**
 * The dry runs of one stack's plans, kept from one plan to the next: the console plans a stack
 * again after every save, and a save changes a resource or two while every other one would be
 * sent to the server exactly as before. The server's answer to a dry-run apply depends on what is
 * sent and on the live object, and the live object's resourceVersion changes with every write to
 * it, so an answer is reused while both are what they were. A plan without a memo (preview, apply)
 * asks the server every time.
 */
import type { KubeObject } from '../model/kube-object.js';

/** A live object's resourceVersion, which every write to it changes. */
function versionOf(live: KubeObject): string | undefined {
  const v = live.metadata?.resourceVersion;
  return typeof v === 'string' && v !== '' ? v : undefined;
}

interface Entry {
  sent: string;
  liveVersion: string;
  answer: KubeObject;
}

export class DryRunMemo {
  /** By changeKey (cluster and id): one answer per resource, the last one asked. */
  private readonly entries = new Map<string, Entry>();
  /** What was sent, as text: a plan asks holds() and then answer() of the same object, and what it
   * sends (compiled attributes, or their resolved copy) never changes once made. */
  private readonly texts = new WeakMap<KubeObject, string>();

  private textOf(sent: KubeObject): string {
    let text = this.texts.get(sent);
    if (text === undefined) this.texts.set(sent, (text = JSON.stringify(sent)));
    return text;
  }

  /**
   * The server's answer to a dry run of `sent`: the last one for this resource while neither
   * `sent` nor `live` changed since, else `ask`'s, kept for next time. The caller gets a copy
   * either way, so nothing it does to the answer reaches the memo.
   */
  async answer(key: string, sent: KubeObject, live: KubeObject, ask: () => Promise<KubeObject>): Promise<KubeObject> {
    const liveVersion = versionOf(live);
    if (liveVersion === undefined) return ask();
    const text = this.textOf(sent);
    const entry = this.entries.get(key);
    if (entry && entry.liveVersion === liveVersion && entry.sent === text) return structuredClone(entry.answer);
    const answer = await ask();
    this.entries.set(key, { sent: text, liveVersion, answer });
    return structuredClone(answer);
  }

  /** Whether the last answer for this resource was to `sent` (it holds while the live object is unchanged too). */
  holds(key: string, sent: KubeObject): boolean {
    return this.entries.get(key)?.sent === this.textOf(sent);
  }

  /** Forgets the resources the stack no longer has, so the memo holds no more than one plan's worth. */
  retain(keys: ReadonlySet<string>): void {
    for (const key of this.entries.keys()) if (!keys.has(key)) this.entries.delete(key);
  }
}
