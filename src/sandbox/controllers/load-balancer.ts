/**
 * A cloud load balancer, simulated: a LoadBalancer Service gets an address in
 * `status.loadBalancer.ingress` a moment after it appears (`timings.loadBalancerMs`), as a cloud
 * controller gives it one once the balancer is provisioned; a Service that stops being a
 * LoadBalancer loses it. Addresses come from the loopback range (127.0.0.2 onwards, the API
 * server itself being on 127.0.0.1), one per Service, unique within the cluster.
 */
import type { Service } from './kinds.js';
import type { Controller } from './manager.js';
import { allKeys, byObject, get, typeOf, wake, writeStatus, type ControllerContext } from './runtime.js';

const CLOUD_CONTROLLER = 'cloud-controller-manager';

interface LoadBalancerStatus {
  ingress?: { ip?: string; hostname?: string; ipMode?: string }[];
}

const statusOf = (s: Service): Record<string, unknown> => (s.status ?? {}) as Record<string, unknown>;
const ingressOf = (s: Service): NonNullable<LoadBalancerStatus['ingress']> =>
  ((statusOf(s).loadBalancer ?? {}) as LoadBalancerStatus).ingress ?? [];

/** The n-th loopback address (n ≥ 2): 127.0.0.2, …, 127.0.0.255, 127.0.1.0, … */
function loopback(n: number): string {
  return `127.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

export function loadBalancerController(ctx: ControllerContext): Controller {
  const services = typeOf(ctx, '', 'services');
  /** When each LoadBalancer Service without an address was first seen: its balancer is "provisioning". */
  const provisioning = new Map<string, number>();

  const freeAddress = (): string => {
    const taken = new Set(
      (ctx.api.store.list('/services') as Service[]).flatMap((s) => ingressOf(s).map((i) => i.ip ?? '')),
    );
    let n = 2;
    while (taken.has(loopback(n))) n++;
    return loopback(n);
  };

  const c: Controller = {
    name: 'load-balancer',
    follows: { '/services': byObject() },
    initialKeys: () => allKeys(ctx, services),
    reconcile(key) {
      const svc = get<Service>(ctx, services, key);
      if (!svc || svc.metadata.deletionTimestamp || svc.spec.type !== 'LoadBalancer') {
        provisioning.delete(key);
        if (svc && !svc.metadata.deletionTimestamp && ingressOf(svc).length > 0)
          writeStatus(ctx, services, svc, { ...statusOf(svc), loadBalancer: {} }, CLOUD_CONTROLLER);
        return;
      }
      if (ingressOf(svc).length > 0) return void provisioning.delete(key);
      const now = ctx.api.clock.now();
      const since = provisioning.get(key) ?? now;
      provisioning.set(key, since);
      const ready = since + ctx.timings.loadBalancerMs;
      if (now < ready) return wake(ctx, c, key, ready - now);
      provisioning.delete(key);
      writeStatus(
        ctx,
        services,
        svc,
        { ...statusOf(svc), loadBalancer: { ingress: [{ ip: freeAddress(), ipMode: 'VIP' }] } },
        CLOUD_CONTROLLER,
      );
    },
  };
  return c;
}
