/**
 * core/v1 Events, as `kubectl describe` and `kubectl get events` show them: repeats of the same
 * event on the same object are counted on one Event, and only the newest `limit` Events are kept
 * (real clusters expire them after an hour).
 */
import type { ApiContext } from '../api/context.js';
import { finishDelete } from '../api/delete.js';
import type { KubeObject, ManagedFieldsEntry } from '../api/object.js';
import { commitCreate, commitUpdate } from '../api/write.js';
import { rfc3339 } from '../time.js';
import { Fifo } from './fifo.js';

export type EventType = 'Normal' | 'Warning';

export class EventRecorder {
  private readonly byKey = new Map<string, { namespace: string; name: string }>();
  /** The keys of byKey, oldest first: the ones to expire. */
  private readonly age = new Fifo<string>();
  private seq = 0;
  /**
   * The fields an Event of each shape gives its component, as the first of that shape was given
   * them: the recorder makes every Event with the same fields, but for whether it names a host
   * and a namespace, and working them out from the object again cost a third of each write.
   */
  private readonly fieldsByShape = new Map<string, ManagedFieldsEntry['fieldsV1']>();

  /**
   * `defer`: where the writes wait, as a real controller's event broadcaster writes its Events
   * from a goroutine of its own: the reconcile that records one goes on without waiting for it.
   */
  constructor(
    private readonly api: ApiContext,
    private readonly defer: (write: () => void) => void,
    private readonly limit = 2000,
  ) {}

  record(about: KubeObject, type: EventType, reason: string, message: string, component: string, host?: string): void {
    // stamped when it happened, written when the broadcaster gets to it
    const now = this.api.clock.now();
    this.defer(() => this.write(about, type, reason, message, component, host, now));
  }

  private write(
    about: KubeObject,
    type: EventType,
    reason: string,
    message: string,
    component: string,
    host: string | undefined,
    now: number,
  ): void {
    const events = this.api.resources.forResource('', 'events');
    if (!events) return;
    const namespace = about.metadata.namespace || 'default';
    const key = `${about.metadata.uid ?? ''}\u0000${reason}\u0000${message}`;
    const seen = this.byKey.get(key);
    const existing = seen ? this.api.store.get('/events', seen.namespace, seen.name) : undefined;
    if (existing) {
      const count = typeof existing.count === 'number' ? existing.count : 1;
      commitUpdate(
        this.api,
        events,
        existing,
        { ...existing, count: count + 1, lastTimestamp: rfc3339(now) },
        { manager: component },
      );
      return;
    }
    const name = `${about.metadata.name ?? 'object'}.${(now * 1000 + this.seq++).toString(16)}`;
    const source: Record<string, string> = { component };
    if (host) source.host = host;
    const involved: Record<string, string> = {
      kind: about.kind,
      name: about.metadata.name ?? '',
      uid: about.metadata.uid ?? '',
      apiVersion: about.apiVersion,
      resourceVersion: about.metadata.resourceVersion ?? '',
    };
    if (about.metadata.namespace) involved.namespace = about.metadata.namespace;
    const shape = `${component}\u0000${host ? 'host' : ''}\u0000${involved.namespace === undefined ? '' : 'ns'}`;
    const known = this.fieldsByShape.get(shape);
    try {
      const made = commitCreate(
        this.api,
        events,
        {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name, namespace },
          involvedObject: involved,
          reason,
          message,
          source,
          firstTimestamp: rfc3339(now),
          lastTimestamp: rfc3339(now),
          count: 1,
          type,
          eventTime: null,
          reportingComponent: component,
          reportingInstance: host ?? '',
        },
        known === undefined
          ? { manager: component }
          : { manager: component, managedFields: [ownedBy(component, rfc3339(this.api.clock.now()), known)] },
      );
      const fields = made.metadata.managedFields;
      if (known === undefined && fields?.length === 1 && fields[0]!.manager === component)
        this.fieldsByShape.set(shape, fields[0]!.fieldsV1);
    } catch {
      // an event for a namespace on its way out is not worth failing the controller for
      return;
    }
    this.byKey.set(key, { namespace, name });
    this.age.push(key);
    if (this.byKey.size > this.limit) this.expireOldest();
  }

  private expireOldest(): void {
    const key = this.age.shift()!;
    const where = this.byKey.get(key)!;
    this.byKey.delete(key);
    const events = this.api.resources.forResource('', 'events');
    const o = this.api.store.get('/events', where.namespace, where.name);
    if (o && events) finishDelete(this.api, events, o);
  }
}

/** The one managedFields entry of an Event its component made. */
function ownedBy(manager: string, time: string, fieldsV1: ManagedFieldsEntry['fieldsV1']): ManagedFieldsEntry {
  return { manager, operation: 'Update', apiVersion: 'v1', time, fieldsType: 'FieldsV1', fieldsV1 };
}
