/**
 * The garbage collector: objects whose owners are all gone are deleted (Background
 * propagation, and so on down the chain); an owner deleted in the foreground keeps its
 * `foregroundDeletion` finalizer until the dependents that block it are gone; references to
 * owners that never existed are dropped.
 */
import { clone } from '../json.js';
import type { KubeObject, OwnerReference } from '../api/object.js';
import { resourceKey, type ResourceType } from '../api/resources.js';
import type { StoreEvent } from '../api/store.js';
import type { Controller } from './manager.js';
import { remove, update, type ControllerContext } from './runtime.js';

const FOREGROUND = 'foregroundDeletion';

function keyFor(resource: string, o: KubeObject): string {
  return `${resource}|${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
}

export function garbageCollector(ctx: ControllerContext): Controller {
  const typeByKey = (resource: string): ResourceType | undefined =>
    ctx.api.resources.all().find((r) => resourceKey(r) === resource);

  /** The owner an ownerReference names, if it exists with that uid. */
  const ownerOf = (dependent: KubeObject, ref: OwnerReference): KubeObject | undefined => {
    const r = ctx.api.resources.forKind(ref.apiVersion, ref.kind);
    if (!r) return undefined;
    const o = ctx.api.store.get(resourceKey(r), r.namespaced ? (dependent.metadata.namespace ?? '') : '', ref.name);
    return o && o.metadata.uid === ref.uid ? o : undefined;
  };
  const knownKind = (ref: OwnerReference) => ctx.api.resources.forKind(ref.apiVersion, ref.kind) !== undefined;

  const follows = (e: StoreEvent): string[] => {
    const keys: string[] = [];
    const o = e.object;
    if (e.type === 'DELETED' || o.metadata.finalizers?.includes(FOREGROUND)) {
      for (const d of ctx.api.store.dependents(o.metadata.uid ?? '')) keys.push(keyFor(d.resource, d.object));
    }
    if (o.metadata.finalizers?.includes(FOREGROUND) && o.metadata.deletionTimestamp) keys.push(keyFor(e.resource, o));
    if (e.type === 'ADDED' && o.metadata.ownerReferences?.length) keys.push(keyFor(e.resource, o));
    // a dependent going away may unblock an owner deleted in the foreground
    if (e.type === 'DELETED') {
      for (const ref of o.metadata.ownerReferences ?? []) {
        const owner = ownerOf(o, ref);
        if (owner?.metadata.finalizers?.includes(FOREGROUND)) {
          const r = ctx.api.resources.forKind(ref.apiVersion, ref.kind)!;
          keys.push(keyFor(resourceKey(r), owner));
        }
      }
    }
    return keys;
  };

  return {
    name: 'garbage-collector',
    follows: { '*': follows },
    reconcile(key) {
      const bar = key.indexOf('|');
      const resource = key.slice(0, bar);
      const [ns, name] = [key.slice(bar + 1, key.indexOf('/', bar)), key.slice(key.indexOf('/', bar) + 1)];
      const r = typeByKey(resource);
      const o = r && ctx.api.store.get(resource, ns, name);
      if (!r || !o) return;
      if (o.metadata.deletionTimestamp && o.metadata.finalizers?.includes(FOREGROUND)) {
        const deps = ctx.api.store.dependents(o.metadata.uid ?? '');
        for (const d of deps) {
          const dr = typeByKey(d.resource);
          if (dr && !d.object.metadata.deletionTimestamp)
            remove(ctx, dr, d.object, { propagationPolicy: 'Foreground' });
        }
        const blocking = ctx.api.store
          .dependents(o.metadata.uid ?? '')
          .some((d) =>
            d.object.metadata.ownerReferences?.some(
              (ref) => ref.uid === o.metadata.uid && ref.blockOwnerDeletion === true,
            ),
          );
        if (!blocking) {
          const next = clone(o);
          next.metadata.finalizers = (o.metadata.finalizers ?? []).filter((f) => f !== FOREGROUND);
          update(ctx, r, o, next);
        }
        return;
      }
      const refs = o.metadata.ownerReferences ?? [];
      if (refs.length === 0 || o.metadata.deletionTimestamp) return;
      const owners = refs.map((ref) => ({ ref, owner: ownerOf(o, ref) }));
      const live = owners.filter((x) => x.owner !== undefined || !knownKind(x.ref));
      if (live.length === 0) return remove(ctx, r, o, { propagationPolicy: 'Background' });
      if (live.some((x) => x.owner?.metadata.deletionTimestamp && x.owner.metadata.finalizers?.includes(FOREGROUND))) {
        return remove(ctx, r, o, { propagationPolicy: 'Foreground' });
      }
      if (live.length < refs.length) {
        const next = clone(o);
        next.metadata.ownerReferences = live.map((x) => x.ref);
        update(ctx, r, o, next);
      }
    },
  };
}
