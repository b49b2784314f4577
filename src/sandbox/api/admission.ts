/**
 * The admission plugins a real API server runs on create that the sandbox reproduces:
 * DefaultStorageClass (a claim without a class gets the default one), Priority (a pod's
 * priorityClassName becomes its priority), LimitRanger (container defaults, min and max) and
 * ResourceQuota (a create that would pass a quota is refused with the server's message).
 */
import { isMap, type JsonMap } from '../json.js';
import type { ApiContext } from './context.js';
import { forbidden } from './errors.js';
import type { KubeObject } from './object.js';
import { formatFor, parseQuantity } from './quantity.js';
import { quotaUsage, podResources, countKeys } from './quota-usage.js';
import type { ResourceType } from './resources.js';
import { subjectOf } from './write.js';

const DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';

function containersOf(o: KubeObject): JsonMap[] {
  const spec = isMap(o.spec) ? o.spec : {};
  return [spec.initContainers, spec.containers].flatMap((l) => (Array.isArray(l) ? l.filter(isMap) : []));
}

function defaultStorageClass(ctx: ApiContext, o: KubeObject): void {
  const spec = isMap(o.spec) ? o.spec : undefined;
  if (!spec || spec.storageClassName !== undefined) return;
  const cls = ctx.store
    .list('storage.k8s.io/storageclasses')
    .find((c) => c.metadata.annotations?.[DEFAULT_CLASS] === 'true');
  if (cls) spec.storageClassName = cls.metadata.name;
}

function priority(ctx: ApiContext, o: KubeObject): void {
  const spec = isMap(o.spec) ? o.spec : undefined;
  if (!spec) return;
  const classes = ctx.store.list('scheduling.k8s.io/priorityclasses');
  const name =
    typeof spec.priorityClassName === 'string' && spec.priorityClassName !== '' ? spec.priorityClassName : undefined;
  const cls = name ? classes.find((c) => c.metadata.name === name) : classes.find((c) => c.globalDefault === true);
  // A real server refuses a pod naming a class that does not exist ("no PriorityClass with name
  // X was found"). The sandbox lets it through unprioritised: kdeck's own sample names classes
  // it never defines, and the sandbox has no preemption for a priority to matter to.
  if (!cls) return;
  spec.priorityClassName = cls.metadata.name;
  spec.priority = typeof cls.value === 'number' ? cls.value : 0;
  spec.preemptionPolicy = typeof cls.preemptionPolicy === 'string' ? cls.preemptionPolicy : 'PreemptLowerPriority';
}

/** LimitRange defaulting of its own: default from max, defaultRequest from default. */
function limitRangeDefaults(o: KubeObject): void {
  const limits = isMap(o.spec) && Array.isArray(o.spec.limits) ? o.spec.limits.filter(isMap) : [];
  for (const l of limits) {
    if (l.type !== 'Container') continue;
    if (isMap(l.max)) l.default = { ...l.max, ...(isMap(l.default) ? l.default : {}) };
    if (isMap(l.default)) l.defaultRequest = { ...l.default, ...(isMap(l.defaultRequest) ? l.defaultRequest : {}) };
  }
}

function limitRanger(ctx: ApiContext, r: ResourceType, o: KubeObject): void {
  const ranges = ctx.store.list('/limitranges', o.metadata.namespace ?? '');
  if (ranges.length === 0) return;
  const setRequests: string[] = [];
  const setLimits: string[] = [];
  for (const lr of ranges) {
    const items = isMap(lr.spec) && Array.isArray(lr.spec.limits) ? lr.spec.limits.filter(isMap) : [];
    for (const item of items.filter((i) => i.type === 'Container')) {
      for (const c of containersOf(o)) {
        const res = isMap(c.resources) ? c.resources : (c.resources = {});
        const limits = isMap(res.limits) ? res.limits : {};
        const requests = isMap(res.requests) ? res.requests : {};
        const name = String(c.name);
        const lim = Object.entries(isMap(item.default) ? item.default : {}).filter(([k]) => limits[k] === undefined);
        const req = Object.entries(isMap(item.defaultRequest) ? item.defaultRequest : {}).filter(
          ([k]) => requests[k] === undefined,
        );
        if (lim.length > 0) {
          res.limits = { ...limits, ...Object.fromEntries(lim) };
          setLimits.push(`${lim.map(([k]) => k).join(', ')} limit for container ${name}`);
        }
        if (req.length > 0) {
          res.requests = { ...requests, ...Object.fromEntries(req) };
          setRequests.push(`${req.map(([k]) => k).join(', ')} request for container ${name}`);
        }
        checkBounds(r, o, item, res as JsonMap);
      }
    }
  }
  const set = [...setRequests, ...setLimits];
  if (set.length > 0)
    o.metadata.annotations = {
      ...o.metadata.annotations,
      'kubernetes.io/limit-ranger': `LimitRanger plugin set: ${set.join('; ')}`,
    };
}

function checkBounds(r: ResourceType, o: KubeObject, item: JsonMap, res: JsonMap): void {
  const limits = isMap(res.limits) ? res.limits : {};
  const requests = isMap(res.requests) ? res.requests : {};
  for (const [k, max] of Object.entries(isMap(item.max) ? item.max : {})) {
    const v = parseQuantity(limits[k]);
    const m = parseQuantity(max);
    if (v !== undefined && m !== undefined && v > m)
      throw forbidden(
        subjectOf(r, o.metadata.name ?? ''),
        `maximum ${k} usage per Container is ${String(max)}, but limit is ${String(limits[k])}`,
      );
  }
  for (const [k, min] of Object.entries(isMap(item.min) ? item.min : {})) {
    const v = parseQuantity(requests[k]);
    const m = parseQuantity(min);
    if (v !== undefined && m !== undefined && v < m)
      throw forbidden(
        subjectOf(r, o.metadata.name ?? ''),
        `minimum ${k} usage per Container is ${String(min)}, but request is ${String(requests[k])}`,
      );
  }
}

/** Changes a new object as the mutating admission plugins would. */
export function mutateOnCreate(ctx: ApiContext, r: ResourceType, o: KubeObject): void {
  if (r.group !== '') return;
  if (r.kind === 'PersistentVolumeClaim') defaultStorageClass(ctx, o);
  if (r.kind === 'LimitRange') limitRangeDefaults(o);
  if (r.kind === 'Pod') {
    priority(ctx, o);
    limitRanger(ctx, r, o);
  }
}

/** Refuses a new object that would pass a ResourceQuota of its namespace. */
export function checkQuota(ctx: ApiContext, r: ResourceType, o: KubeObject): void {
  if (!r.namespaced) return;
  const ns = o.metadata.namespace ?? '';
  const quotas = ctx.store.list('/resourcequotas', ns);
  if (quotas.length === 0) return;
  const subject = subjectOf(r, o.metadata.name ?? '');
  const adds = new Map<string, number>(countKeys(r).map((k) => [k, 1]));
  const pod = r.group === '' && r.kind === 'Pod' ? podResources(o) : undefined;
  if (pod) for (const [k, v] of pod.totals) adds.set(k, v);
  if (r.kind === 'PersistentVolumeClaim' && r.group === '') {
    const storage = parseQuantity(
      (o.spec as { resources?: { requests?: { storage?: unknown } } } | undefined)?.resources?.requests?.storage,
    );
    if (storage !== undefined) adds.set('requests.storage', storage);
  }
  for (const q of quotas) {
    const hard = isMap(q.spec) && isMap(q.spec.hard) ? q.spec.hard : {};
    const name = q.metadata.name ?? '';
    if (pod) {
      const missing = Object.keys(hard)
        .filter((k) => /^(requests|limits)\.(cpu|memory)$/.test(k) || k === 'cpu' || k === 'memory')
        .map((k) => ({ k, who: pod.missing(k) }))
        .filter((m) => m.who.length > 0);
      if (missing.length > 0)
        throw forbidden(
          subject,
          `failed quota: ${name}: must specify ${missing.map((m) => `${m.k} for: ${m.who.join(',')}`).join('; ')}`,
        );
    }
    const used = quotaUsage(ctx, ns, Object.keys(hard));
    const exceeded = Object.keys(hard)
      .filter((k) => adds.has(k))
      .filter((k) => (used.get(k) ?? 0) + adds.get(k)! > (parseQuantity(hard[k]) ?? Infinity))
      .sort();
    if (exceeded.length === 0) continue;
    const show = (f: (k: string) => string) => exceeded.map((k) => `${k}=${f(k)}`).join(',');
    throw forbidden(
      subject,
      `exceeded quota: ${name}, requested: ${show((k) => formatFor(k, adds.get(k)!))}, used: ${show((k) => formatFor(k, used.get(k) ?? 0))}, limited: ${show((k) => String(hard[k]))}`,
    );
  }
}
