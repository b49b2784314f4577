/**
 * What one watch sees of the store's events: only its resource, namespace and selectors, with
 * objects that start or stop matching a selector turned into ADDED and DELETED, as the API
 * server's watch cache does. Each event becomes one line of JSON.
 */
import { converterFor, storageKeyOf } from './conversion.js';
import { expired } from './errors.js';
import type { KubeObject } from './object.js';
import type { ResourceType } from './resources.js';
import { apiVersionOf, resourceKey } from './resources.js';
import { matchesFields, matchesLabels, type FieldSelector, type LabelSelector } from './selectors.js';
import { eventJson, expectJson, releaseJson, type EventType, type Store, type StoreEvent } from './store.js';

export interface WatchFilter {
  resource: ResourceType;
  /** Undefined: every namespace. */
  namespace?: string;
  labels: LabelSelector;
  fields: FieldSelector;
}

export type WatchEventType = EventType | 'BOOKMARK' | 'ERROR';

function matches(f: WatchFilter, o: KubeObject | undefined): boolean {
  if (!o) return false;
  if (f.namespace !== undefined && (o.metadata.namespace ?? '') !== f.namespace) return false;
  return matchesLabels(f.labels, o.metadata.labels) && matchesFields(f.fields, o);
}

function line(type: WatchEventType, objectJson: string): string {
  return `{"type":"${type}","object":${objectJson}}\n`;
}

function objectJson(f: WatchFilter, e: StoreEvent): string {
  const conv = converterFor(f.resource);
  if (conv) return JSON.stringify(conv.fromStorage(e.object));
  const v = apiVersionOf(f.resource);
  // custom resources are stored once for all their versions; the watcher sees its own
  return e.object.apiVersion === v ? eventJson(e) : JSON.stringify({ ...e.object, apiVersion: v });
}

/** Where a watched type's objects are stored (a converted version reads its storage version's). */
function storeKey(r: ResourceType): string {
  const conv = converterFor(r);
  return conv ? storageKeyOf(conv, r) : resourceKey(r);
}

/** A store event as one watcher sees it: its type for that watcher, its line made by `eventLine`. */
export interface WatchEvent {
  readonly type: EventType;
  readonly event: StoreEvent;
}

/** What a watcher sees of a store event, or undefined when the event is not for it. */
export function watchEvent(f: WatchFilter, e: StoreEvent): WatchEvent | undefined {
  if (e.resource !== storeKey(f.resource)) return undefined;
  const now = e.type !== 'DELETED' && matches(f, e.object);
  const before = e.type !== 'ADDED' && matches(f, e.type === 'DELETED' ? e.object : e.old);
  if (e.type === 'DELETED') return before ? { type: 'DELETED', event: e } : undefined;
  if (now && before) return { type: 'MODIFIED', event: e };
  if (now) return { type: 'ADDED', event: e };
  if (before) return { type: 'DELETED', event: e };
  return undefined;
}

/** Keeps the text of an event a watcher will make its line of later (see `eventJson`). */
export function expectLine(w: WatchEvent): void {
  expectJson(w.event);
}

/** The line of an expected event; the last of its watchers lets its text go. */
export function eventLine(f: WatchFilter, w: WatchEvent): string {
  try {
    return line(w.type, objectJson(f, w.event));
  } finally {
    releaseJson(w.event);
  }
}

/** An expected line its watcher will not make (it was dropped). */
export function forgetLine(w: WatchEvent): void {
  releaseJson(w.event);
}

/** ADDED lines for the current objects: how a watch without a resourceVersion starts. */
export function initialLines(store: Store, f: WatchFilter): string[] {
  const v = apiVersionOf(f.resource);
  const conv = converterFor(f.resource);
  return store
    .list(storeKey(f.resource), f.namespace)
    .filter((o) => matches(f, o))
    .map((o) => {
      if (conv) return line('ADDED', JSON.stringify(conv.fromStorage(o)));
      return line('ADDED', JSON.stringify(o.apiVersion === v ? o : { ...o, apiVersion: v }));
    });
}

export function bookmarkLine(f: WatchFilter, rv: number, initialEventsEnd = false): string {
  const metadata: Record<string, unknown> = { resourceVersion: String(rv) };
  if (initialEventsEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
  return line('BOOKMARK', JSON.stringify({ kind: f.resource.kind, apiVersion: apiVersionOf(f.resource), metadata }));
}

/** The ERROR event a watch gets when it asks to resume from a resourceVersion long gone. */
export function expiredLine(asked: number, oldest: number): string {
  const status = expired(`too old resource version: ${asked} (${oldest})`).toStatus();
  return line('ERROR', JSON.stringify(status));
}
