/**
 * Versions of one built-in kind served from one storage, converted on the way in and out, as
 * the API server does: HorizontalPodAutoscalers are stored as autoscaling/v2 and also served as
 * autoscaling/v1 (whose one target is CPU utilisation, a v2 metric).
 */
import { clone, getPath, isMap, type JsonMap } from '../json.js';
import type { KubeObject } from './object.js';
import type { ResourceType } from './resources.js';

export interface Converter {
  /** The stored version's apiVersion. */
  storage: string;
  /** A body of the served version → the stored version. */
  toStorage(o: KubeObject): KubeObject;
  /** A stored object → the served version. */
  fromStorage(o: KubeObject): KubeObject;
}

function cpuMetric(metrics: unknown): JsonMap | undefined {
  if (!Array.isArray(metrics)) return undefined;
  return metrics.filter(isMap).find((m) => m.type === 'Resource' && getPath(m, ['resource', 'name']) === 'cpu');
}

const hpaV1: Converter = {
  storage: 'autoscaling/v2',
  toStorage(o) {
    const out = clone(o);
    out.apiVersion = 'autoscaling/v2';
    const spec = isMap(o.spec) ? { ...o.spec } : {};
    const target = spec.targetCPUUtilizationPercentage;
    delete spec.targetCPUUtilizationPercentage;
    if (typeof target === 'number')
      spec.metrics = [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: target } } },
      ];
    out.spec = spec;
    if (isMap(o.status)) {
      const status = { ...o.status };
      const current = status.currentCPUUtilizationPercentage;
      delete status.currentCPUUtilizationPercentage;
      if (typeof current === 'number')
        status.currentMetrics = [
          { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: current } } },
        ];
      out.status = status;
    }
    return out;
  },
  fromStorage(o) {
    const out = clone(o);
    out.apiVersion = 'autoscaling/v1';
    if (isMap(o.spec)) {
      const { metrics, behavior: _behavior, ...rest } = o.spec;
      const spec: JsonMap = rest;
      const target = getPath(cpuMetric(metrics), ['resource', 'target', 'averageUtilization']);
      if (typeof target === 'number') spec.targetCPUUtilizationPercentage = target;
      out.spec = spec;
    }
    if (isMap(o.status)) {
      const { currentMetrics, conditions: _conditions, ...rest } = o.status;
      const status: JsonMap = rest;
      const current = getPath(cpuMetric(currentMetrics), ['resource', 'current', 'averageUtilization']);
      if (typeof current === 'number') status.currentCPUUtilizationPercentage = current;
      out.status = status;
    }
    return out;
  },
};

/** events.k8s.io/v1 Event ↔ core v1 Event: one storage, two field layouts. */
const eventsV1: Converter = {
  storage: 'v1',
  toStorage(o) {
    const {
      regarding,
      note,
      reportingController,
      reportingInstance,
      deprecatedSource,
      deprecatedFirstTimestamp,
      deprecatedLastTimestamp,
      deprecatedCount,
      ...rest
    } = o as JsonMap;
    const out: JsonMap = { ...rest, apiVersion: 'v1' };
    if (regarding !== undefined) out.involvedObject = regarding;
    if (note !== undefined) out.message = note;
    if (reportingController !== undefined) out.reportingComponent = reportingController;
    if (reportingInstance !== undefined) out.reportingInstance = reportingInstance;
    if (deprecatedSource !== undefined) out.source = deprecatedSource;
    if (deprecatedFirstTimestamp !== undefined) out.firstTimestamp = deprecatedFirstTimestamp;
    if (deprecatedLastTimestamp !== undefined) out.lastTimestamp = deprecatedLastTimestamp;
    if (deprecatedCount !== undefined) out.count = deprecatedCount;
    return out as KubeObject;
  },
  fromStorage(o) {
    const { involvedObject, message, reportingComponent, source, firstTimestamp, lastTimestamp, count, ...rest } =
      clone(o) as JsonMap;
    const out: JsonMap = { ...rest, apiVersion: 'events.k8s.io/v1' };
    if (involvedObject !== undefined) out.regarding = involvedObject;
    if (message !== undefined) out.note = message;
    const controller = reportingComponent ?? getPath(source, ['component']);
    if (controller !== undefined && controller !== '') out.reportingController = controller;
    if (source !== undefined) out.deprecatedSource = source;
    if (firstTimestamp !== undefined) out.deprecatedFirstTimestamp = firstTimestamp;
    if (lastTimestamp !== undefined) out.deprecatedLastTimestamp = lastTimestamp;
    if (count !== undefined) out.deprecatedCount = count;
    // eventTime is required in events.k8s.io/v1; a core event without one shows its first time
    if (out.eventTime === undefined || out.eventTime === null)
      out.eventTime = typeof firstTimestamp === 'string' ? firstTimestamp.replace('Z', '.000000Z') : null;
    return out as KubeObject;
  },
};

const CONVERTERS: Record<string, Converter> = {
  'autoscaling/v1/HorizontalPodAutoscaler': hpaV1,
  'events.k8s.io/v1/Event': eventsV1,
};

/** The store key of the objects a converted version serves (its storage version's). */
export function storageKeyOf(c: Converter, r: Pick<ResourceType, 'plural'>): string {
  const slash = c.storage.indexOf('/');
  return `${slash < 0 ? '' : c.storage.slice(0, slash)}/${r.plural}`;
}

/** The converter of a served version that is not the stored one, if any. */
export function converterFor(r: Pick<ResourceType, 'group' | 'version' | 'kind'>): Converter | undefined {
  // asked once per event per watcher: the answer is kept with the (unchanging) type
  let c = known.get(r);
  if (c === undefined) {
    c = CONVERTERS[`${r.group}/${r.version}/${r.kind}`] ?? null;
    known.set(r, c);
  }
  return c ?? undefined;
}

const known = new WeakMap<object, Converter | null>();

/** A reply body (an object, a List of them, or a Status) in the served version. */
export function convertReply(c: Converter, body: unknown, kind: string): unknown {
  if (!isMap(body)) return body;
  if (body.kind === kind) return c.fromStorage(body as KubeObject);
  if (body.kind === `${kind}List` && Array.isArray(body.items)) {
    const apiVersion = c.fromStorage({ apiVersion: c.storage, kind, metadata: {} }).apiVersion;
    const items = body.items.map((i) => {
      if (!isMap(i)) return i;
      const converted: JsonMap = c.fromStorage(i as KubeObject);
      // list items carry no apiVersion of their own
      if (!('apiVersion' in i)) delete converted.apiVersion;
      return converted;
    });
    return { ...body, apiVersion, items };
  }
  return body;
}
