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

  /** The server's last answer for this resource, when neither `sent` nor `live` changed since. */
  recall(key: string, sent: KubeObject, live: KubeObject): KubeObject | undefined {
    const entry = this.entries.get(key);
    const liveVersion = versionOf(live);
    if (!entry || liveVersion === undefined || entry.liveVersion !== liveVersion) return undefined;
    if (entry.sent !== JSON.stringify(sent)) return undefined;
    // the plan's change set holds what it is given: a copy, so nothing it does reaches the memo
    return structuredClone(entry.answer);
  }

  remember(key: string, sent: KubeObject, live: KubeObject, answer: KubeObject): void {
    const liveVersion = versionOf(live);
    if (liveVersion === undefined) return;
    this.entries.set(key, { sent: JSON.stringify(sent), liveVersion, answer: structuredClone(answer) });
  }

  /** Forgets the resources the stack no longer has, so the memo holds no more than one plan's worth. */
  retain(keys: ReadonlySet<string>): void {
    for (const key of this.entries.keys()) if (!keys.has(key)) this.entries.delete(key);
  }
}
