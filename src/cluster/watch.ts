/**
 * A watch that survives what real API servers do to watches: it lists first, resumes from the
 * last resourceVersion after a dropped connection (backing off with jitter), and lists again when
 * the server answers 410 Gone because that version is too old. Events arrive as raw JSON, on the
 * cluster's own REST client.
 */
import type { Listed, ObjectClient } from './objects.js';
import type { KubeObject, ObjectRef } from '../model/kube-object.js';
import { errorMessage } from '../diagnostics/user-error.js';
import { DEFAULT_RETRY, retryDelay, type RetryPolicy } from './rest.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject;
}

export interface WatchTarget extends Omit<ObjectRef, 'name'> {
  labelSelector?: string;
  fieldSelector?: string;
}

export interface WatchOptions {
  signal: AbortSignal;
  retry?: RetryPolicy;
  /** Told about every reconnect, for the console's event log. */
  onReconnect?: (why: string) => void;
  /** Told before the objects of a (re)list arrive: what was seen before may be gone. */
  onList?: () => void;
  /** A list of the target made just before: the watch goes on from it instead of listing again. */
  from?: Listed;
}

const rvOf = (o: unknown) => String((o as KubeObject | undefined)?.metadata?.resourceVersion ?? '');

/** Streams events for `target` until `signal` aborts; the current objects come first as ADDED. */
export async function watchObjects(
  client: ObjectClient,
  target: WatchTarget,
  onEvent: (e: WatchEvent) => void,
  options: WatchOptions,
): Promise<void> {
  const retry = options.retry ?? DEFAULT_RETRY;
  const path = await client.pathOf(target, true);
  const selectors = { labelSelector: target.labelSelector, fieldSelector: target.fieldSelector };
  let resourceVersion = '';
  let failures = 0;
  if (options.from?.resourceVersion) {
    options.onList?.();
    for (const object of options.from.items) onEvent({ type: 'ADDED', object });
    resourceVersion = options.from.resourceVersion;
  }
  while (!options.signal.aborted) {
    if (!resourceVersion) {
      try {
        const list = await client.list(target, selectors);
        options.onList?.();
        for (const object of list.items) onEvent({ type: 'ADDED', object });
        resourceVersion = list.resourceVersion;
        failures = 0;
      } catch (e) {
        options.onReconnect?.(`list failed: ${errorMessage(e)}`);
        await retry.sleep(retryDelay(failures++, undefined, retry));
        continue;
      }
    }
    const outcome = await client.rest.watch(
      path,
      { resourceVersion, allowWatchBookmarks: true, ...selectors },
      ({ type, object }) => {
        const rv = rvOf(object);
        if (rv) resourceVersion = rv;
        failures = 0;
        if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED')
          onEvent({ type, object: object as KubeObject });
      },
      options.signal,
    );
    if (options.signal.aborted) return;
    if (outcome === 'gone') {
      options.onReconnect?.('resourceVersion too old (410 Gone): listing again');
      resourceVersion = '';
    } else {
      // a watch the server closed normally resumes at once; a broken one backs off
      if (outcome === 'failed') options.onReconnect?.('watch connection lost: resuming');
      if (outcome === 'failed') await retry.sleep(retryDelay(failures++, undefined, retry));
    }
  }
}
