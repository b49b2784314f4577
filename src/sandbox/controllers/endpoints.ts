/**
 * Service endpoints: for each Service with a selector, the legacy Endpoints object (ready and
 * not-ready addresses; terminating pods left out) and one EndpointSlice (every pod with an IP,
 * with ready/serving/terminating conditions), both following the pods as they come and go.
 */
import { clone, deepEqual } from '../json.js';
import type { KubeObject } from '../api/object.js';
import { isPodReady, isPodTerminal, type Pod, type Service, type ServicePort } from './kinds.js';
import type { Controller } from './manager.js';
import { create, get, keyOf, ownerRef, remove, typeOf, update, type ControllerContext } from './runtime.js';

const SERVICE_NAME = 'kubernetes.io/service-name';
const MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
const SLICE_CONTROLLER = 'endpointslice-controller.k8s.io';

/** A Service port's target on a pod: a number, or a named container port looked up there. */
function targetPort(p: ServicePort, pod: Pod | undefined): number | undefined {
  const t = p.targetPort ?? p.port;
  if (typeof t === 'number') return t;
  if (/^[0-9]+$/.test(t)) return Number(t);
  for (const c of pod?.spec.containers ?? []) {
    const hit = c.ports?.find((cp) => cp.name === t);
    if (hit) return hit.containerPort;
  }
  return undefined;
}

/**
 * The ports of an Endpoints subset or an EndpointSlice. A slice port always carries its name,
 * `""` for an unnamed one, as the EndpointSlice controller writes it (kubectl describe reads the
 * name without checking it is there).
 */
function portsFor(
  svc: Service,
  pod: Pod | undefined,
  alwaysNamed = false,
): { name?: string; port: number; protocol: string }[] {
  return (svc.spec.ports ?? []).flatMap((p) => {
    const port = targetPort(p, pod);
    if (port === undefined) return [];
    const out: { name?: string; port: number; protocol: string } = { port, protocol: p.protocol ?? 'TCP' };
    if (p.name || alwaysNamed) out.name = p.name ?? '';
    return [out];
  });
}

function targetRef(p: Pod): Record<string, string> {
  return { kind: 'Pod', namespace: p.metadata.namespace ?? '', name: p.metadata.name ?? '', uid: p.metadata.uid ?? '' };
}

export function endpointsController(ctx: ControllerContext): Controller {
  const services = typeOf(ctx, '', 'services');
  const endpoints = typeOf(ctx, '', 'endpoints');
  const slices = typeOf(ctx, 'discovery.k8s.io', 'endpointslices');

  const upsert = (r: typeof endpoints, existing: KubeObject | undefined, desired: KubeObject, manager: string) => {
    if (!existing) return void create(ctx, r, desired, manager);
    // unchanged endpoints are not written again, as the endpoints controllers compare first
    const same = (k: string) => k === 'metadata' || deepEqual(existing[k], desired[k]);
    if (
      Object.keys(desired).every(same) &&
      Object.keys(existing).every(same) &&
      deepEqual(existing.metadata.labels, desired.metadata.labels)
    )
      return;
    const next = clone(existing);
    for (const k of Object.keys(desired)) if (k !== 'metadata') next[k] = desired[k];
    for (const k of Object.keys(next)) if (!(k in desired) && k !== 'metadata') delete next[k];
    next.metadata.labels = desired.metadata.labels;
    update(ctx, r, existing, next, manager);
  };

  const c: Controller = {
    name: 'endpoints',
    follows: {
      '/services': (e) => [keyOf(e.object)],
      '/pods': (e) => {
        const ns = e.object.metadata.namespace ?? '';
        const names = new Set(ctx.labels.services.within(ns, e.object.metadata.labels));
        for (const n of ctx.labels.services.within(ns, e.old?.metadata.labels)) names.add(n);
        return [...names].map((n) => `${ns}/${n}`);
      },
    },
    initialKeys: () => ctx.api.store.list('/services').map(keyOf),
    reconcile(key) {
      const [ns, name] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
      const svc = get<Service>(ctx, services, key);
      const existingEp = ctx.api.store.get('/endpoints', ns, name);
      if (!svc || !svc.spec.selector || Object.keys(svc.spec.selector).length === 0) {
        // a Service gone (or without a selector) leaves its endpoints to whoever set them
        if (!svc && existingEp) remove(ctx, endpoints, existingEp);
        return;
      }
      const pods = ctx.labels.pods
        .including(ns, svc.spec.selector)
        .map((n) => ctx.api.store.get('/pods', ns, n) as Pod)
        .filter((p) => p.status?.podIP && !isPodTerminal(p));
      const live = pods.filter((p) => !p.metadata.deletionTimestamp);
      const ready = live.filter(isPodReady);
      const notReady = live.filter((p) => !isPodReady(p));
      const address = (p: Pod) => ({ ip: p.status!.podIP!, nodeName: p.spec.nodeName ?? '', targetRef: targetRef(p) });
      const subset: Record<string, unknown> = { ports: portsFor(svc, live[0]) };
      if (ready.length > 0) subset.addresses = ready.map(address);
      if (notReady.length > 0) subset.notReadyAddresses = notReady.map(address);
      const labels = { ...svc.metadata.labels, 'endpoints.kubernetes.io/managed-by': 'endpoint-controller' };
      const ep: KubeObject = {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name, namespace: ns, labels },
        subsets: live.length > 0 ? [subset] : [],
      };
      if (live.length === 0) delete ep.subsets;
      upsert(endpoints, existingEp, ep, 'endpoint-controller');

      const slice: KubeObject = {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {
          generateName: `${name}-`,
          namespace: ns,
          labels: { ...svc.metadata.labels, [SERVICE_NAME]: name, [MANAGED_BY]: SLICE_CONTROLLER },
          ownerReferences: [ownerRef(svc)],
        },
        addressType: 'IPv4',
        endpoints: pods.map((p) => {
          const terminating = p.metadata.deletionTimestamp !== undefined;
          const isReady = isPodReady(p) && !terminating;
          return {
            addresses: [p.status!.podIP!],
            conditions: { ready: isReady, serving: isPodReady(p), terminating },
            nodeName: p.spec.nodeName ?? '',
            targetRef: targetRef(p),
          };
        }),
        ports: portsFor(svc, pods[0], true),
      };
      const [sliceName] = ctx.labels.endpointSlices.including(ns, {
        [SERVICE_NAME]: name,
        [MANAGED_BY]: SLICE_CONTROLLER,
      });
      const existingSlice =
        sliceName === undefined ? undefined : ctx.api.store.get('discovery.k8s.io/endpointslices', ns, sliceName);
      upsert(slices, existingSlice, slice, SLICE_CONTROLLER);
    },
  };
  return c;
}
