/**
 * Pieces the workload controllers share: the pod-template hash (FNV-32a, printed in the API
 * server's safe alphabet), int-or-percent fence posts, pods made from a template, and the order
 * in which a controller gives up pods when it scales down.
 */
import { canonicalJson, clone } from '../json.js';
import type { KubeObject, OwnerReference } from '../api/object.js';
import { NAME_ALPHABET } from '../random.js';
import { parseTime } from '../time.js';
import { condition, isPodReady, type Pod, type PodTemplate } from './kinds.js';

export const POD_TEMPLATE_HASH = 'pod-template-hash';

function fnv32a(text: string): number {
  let h = 0x811c9dc5;
  const bytes = Buffer.from(text, 'utf8');
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A pod template without the hash label its controller adds, for comparing templates. */
function withoutHash(t: PodTemplate): PodTemplate {
  const copy = clone(t);
  if (copy.metadata?.labels) {
    delete copy.metadata.labels[POD_TEMPLATE_HASH];
    if (Object.keys(copy.metadata.labels).length === 0) delete copy.metadata.labels;
  }
  return copy;
}

/**
 * Each template's text, made once: a Deployment's controller compares its template with its
 * ReplicaSets' on every change of any of them, and stored templates never change.
 */
const templateTexts = new WeakMap<PodTemplate, string>();

function templateText(t: PodTemplate): string {
  let text = templateTexts.get(t);
  if (text === undefined) templateTexts.set(t, (text = canonicalJson(withoutHash(t))));
  return text;
}

export function sameTemplate(a: PodTemplate, b: PodTemplate): boolean {
  return a === b || templateText(a) === templateText(b);
}

/** The hash of a template (and a collision count), as pod-template-hash and revision names carry it. */
export function templateHash(t: PodTemplate, collisionCount = 0): string {
  const digits = String(fnv32a(canonicalJson(withoutHash(t)) + (collisionCount > 0 ? String(collisionCount) : '')));
  let out = '';
  for (const ch of digits) out += NAME_ALPHABET[ch.charCodeAt(0) % NAME_ALPHABET.length];
  return out;
}

/** An int-or-percent of a total, rounded up or down as the controller asks. */
export function scaled(v: number | string | undefined, total: number, roundUp: boolean): number {
  if (v === undefined) return 0;
  if (typeof v === 'number') return v;
  const m = /^([0-9]+)%$/.exec(v);
  if (!m) return Number.parseInt(v, 10) || 0;
  const x = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/** A new pod from a template, owned by `owner`. */
export function podFromTemplate(
  owner: KubeObject,
  template: PodTemplate,
  extra: {
    name?: string;
    generateName?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ref: OwnerReference;
  },
): KubeObject {
  const labels = { ...(template.metadata?.labels ?? {}), ...(extra.labels ?? {}) };
  const annotations = { ...(template.metadata?.annotations ?? {}), ...(extra.annotations ?? {}) };
  const metadata: KubeObject['metadata'] = { namespace: owner.metadata.namespace ?? '', ownerReferences: [extra.ref] };
  if (extra.name) metadata.name = extra.name;
  else metadata.generateName = extra.generateName ?? `${owner.metadata.name ?? ''}-`;
  if (Object.keys(labels).length > 0) metadata.labels = labels;
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: clone(template.spec) };
}

/** Ready for at least `minReadySeconds`, counted from when it turned Ready. */
export function isPodAvailable(p: Pod, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(p)) return false;
  if (minReadySeconds <= 0) return true;
  const since = parseTime(condition(p.status?.conditions, 'Ready')?.lastTransitionTime);
  return since !== undefined && since + minReadySeconds * 1000 <= now;
}

/** When a ready pod becomes available, if it is not yet. */
export function availableAt(p: Pod, minReadySeconds: number): number | undefined {
  if (!isPodReady(p) || minReadySeconds <= 0) return undefined;
  const since = parseTime(condition(p.status?.conditions, 'Ready')?.lastTransitionTime);
  return since === undefined ? undefined : since + minReadySeconds * 1000;
}

/** The order pods are given up in: unscheduled, pending, not ready, then the newest first. */
export function deletionRank(a: Pod, b: Pod): number {
  const score = (p: Pod) => (!p.spec.nodeName ? 0 : p.status?.phase === 'Pending' ? 1 : !isPodReady(p) ? 2 : 3);
  const d = score(a) - score(b);
  if (d !== 0) return d;
  return (
    (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '') ||
    (b.metadata.name ?? '').localeCompare(a.metadata.name ?? '')
  );
}
