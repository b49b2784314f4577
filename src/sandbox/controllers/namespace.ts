/**
 * Namespaces: a new one gets what every namespace starts with (ServiceAccount `default`,
 * ConfigMap `kube-root-ca.crt`); a deleted one (phase Terminating) has all its content deleted,
 * pods gracefully, and goes once it is empty, when its `kubernetes` finalizer is cleared.
 */
import { clone, deepEqual, isMap } from '../json.js';
import { rfc3339 } from '../time.js';
import type { KubeObject } from '../api/object.js';
import { resourceKey } from '../api/resources.js';
import type { StoreEvent } from '../api/store.js';
import type { Controller } from './manager.js';
import { create, remove, typeOf, update, writeStatus, type ControllerContext } from './runtime.js';

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

  /** The conditions a terminating namespace shows: what content and finalizers hold it. */
  const reportDeletion = (ns: KubeObject, left: Map<string, number>, finalizers: Map<string, number>): KubeObject => {
    const t = rfc3339(ctx.api.clock.now());
    const old = (isMap(ns.status) && Array.isArray(ns.status.conditions) ? ns.status.conditions : []).filter(isMap);
    const cond = (type: string, status: string, reason: string, message: string) => {
      const prev = old.find((c) => c.type === type);
      const same = prev?.status === status && prev.reason === reason && prev.message === message;
      return same ? prev : { type, status, lastTransitionTime: t, reason, message };
    };
    const list = (m: Map<string, number>, text: (k: string, n: number) => string) =>
      [...m.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, n]) => text(k, n))
        .join(', ');
    const conditions = [
      cond(
        'NamespaceDeletionDiscoveryFailure',
        'False',
        'ResourcesDiscovered',
        'All resources successfully discovered',
      ),
      cond(
        'NamespaceDeletionGroupVersionParsingFailure',
        'False',
        'ParsedGroupVersions',
        'All legacy kube types successfully parsed',
      ),
      cond(
        'NamespaceDeletionContentFailure',
        'False',
        'ContentDeleted',
        'All content successfully deleted, may be waiting on finalization',
      ),
      left.size > 0
        ? cond(
            'NamespaceContentRemaining',
            'True',
            'SomeResourcesRemain',
            `Some resources are remaining: ${list(left, (k, n) => `${k} has ${n} resource instances`)}`,
          )
        : cond('NamespaceContentRemaining', 'False', 'ContentRemoved', 'All content successfully removed'),
      finalizers.size > 0
        ? cond(
            'NamespaceFinalizersRemaining',
            'True',
            'SomeFinalizersRemain',
            `Some content in the namespace has finalizers remaining: ${list(finalizers, (k, n) => `${k} in ${n} resource instances`)}`,
          )
        : cond(
            'NamespaceFinalizersRemaining',
            'False',
            'ContentHasNoFinalizers',
            'All content-preserving finalizers finished',
          ),
    ];
    const status = { ...(isMap(ns.status) ? ns.status : {}), conditions };
    return deepEqual(ns.status, status) ? ns : writeStatus(ctx, namespaces, ns, status, 'namespace-controller');
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
      const left = new Map<string, number>();
      const finalizers = new Map<string, number>();
      const seen = new Set<string>();
      for (const r of ctx.api.resources.all()) {
        // several versions of a type share one storage: count its objects once
        if (!r.namespaced || seen.has(resourceKey(r))) continue;
        seen.add(resourceKey(r));
        for (const o of ctx.api.store.list(resourceKey(r), name)) {
          remaining++;
          const what = `${r.plural}.${r.group}`;
          left.set(what, (left.get(what) ?? 0) + 1);
          for (const f of o.metadata.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
          if (!o.metadata.deletionTimestamp) remove(ctx, r, o, { propagationPolicy: 'Background' });
        }
      }
      const reported = reportDeletion(ns, left, finalizers);
      if (remaining > 0) return;
      const next = clone(reported);
      next.spec = { ...(isMap(reported.spec) ? reported.spec : {}), finalizers: [] };
      update(ctx, namespaces, reported, next);
    },
  };
}
