/**
 * Namespaces: a new one gets what every namespace starts with (ServiceAccount `default`,
 * ConfigMap `kube-root-ca.crt`); a deleted one (phase Terminating) has all its content deleted,
 * pods gracefully, and goes once it is empty, when its `kubernetes` finalizer is cleared.
 */
import { clone } from '../json.js';
import type { KubeObject } from '../api/object.js';
import { resourceKey } from '../api/resources.js';
import type { StoreEvent } from '../api/store.js';
import type { Controller } from './manager.js';
import { create, remove, typeOf, update, type ControllerContext } from './runtime.js';

/** A stand-in certificate: the sandbox speaks plain HTTP, but pods expect the file. */
const ROOT_CA =
  '-----BEGIN CERTIFICATE-----\nkdeck sandbox: no TLS, this certificate is a placeholder\n-----END CERTIFICATE-----\n';

export function namespaceController(ctx: ControllerContext): Controller {
  const namespaces = typeOf(ctx, '', 'namespaces');
  const serviceAccounts = typeOf(ctx, '', 'serviceaccounts');
  const configMaps = typeOf(ctx, '', 'configmaps');

  const follows = (e: StoreEvent): string[] => {
    if (e.resource === '/namespaces') return [e.object.metadata.name ?? ''];
    const ns = e.object.metadata.namespace;
    if (!ns) return [];
    // content leaving a terminating namespace, or a default object deleted from a live one
    if (e.type === 'DELETED') return [ns];
    return [];
  };

  const ensureDefaults = (ns: string) => {
    if (!ctx.api.store.get('/serviceaccounts', ns, 'default')) {
      create(
        ctx,
        serviceAccounts,
        { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: ns } },
        'kube-controller-manager',
      );
    }
    if (!ctx.api.store.get('/configmaps', ns, 'kube-root-ca.crt')) {
      const cm: KubeObject = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'kube-root-ca.crt',
          namespace: ns,
          annotations: {
            'kubernetes.io/description':
              'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.',
          },
        },
        data: { 'ca.crt': ROOT_CA },
      };
      create(ctx, configMaps, cm, 'kube-controller-manager');
    }
  };

  return {
    name: 'namespace',
    follows: { '*': follows },
    initialKeys: () => ctx.api.store.list('/namespaces').map((n) => n.metadata.name ?? ''),
    reconcile(name) {
      const ns = ctx.api.store.get('/namespaces', '', name);
      if (!ns) return;
      if (!ns.metadata.deletionTimestamp) return ensureDefaults(name);
      let remaining = 0;
      for (const r of ctx.api.resources.all()) {
        if (!r.namespaced) continue;
        for (const o of ctx.api.store.list(resourceKey(r), name)) {
          remaining++;
          if (!o.metadata.deletionTimestamp) remove(ctx, r, o, { propagationPolicy: 'Background' });
        }
      }
      if (remaining > 0) return;
      const next = clone(ns);
      next.spec = { ...(typeof ns.spec === 'object' && ns.spec !== null ? ns.spec : {}), finalizers: [] };
      update(ctx, namespaces, ns, next);
    },
  };
}
