/**
 * Persistent volumes: the PV controller's binding and the sandbox's simulated provisioner. A
 * claim binds to an Available volume that fits it (class, size, access modes), or, when its
 * StorageClass names the sandbox's provisioner, to a volume made for it (`pvc-<claim uid>`); both
 * then read Bound. A volume whose claim is gone is deleted (reclaim policy Delete) or Released
 * (Retain); a new unclaimed volume is Available.
 */
import { clone, isMap } from '../json.js';
import type { KubeObject } from '../api/object.js';
import { parseQuantity } from '../api/quantity.js';
import type { Controller } from './manager.js';
import { create, remove, typeOf, update, writeStatus, type ControllerContext } from './runtime.js';

/** The provisioner of the sandbox's default StorageClass. */
export const SANDBOX_PROVISIONER = 'kdeck.dev/sandbox-provisioner';
export const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';

/** The default StorageClass every sandbox cluster starts with. */
export function defaultStorageClass(): KubeObject {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'standard', annotations: { [DEFAULT_CLASS_ANNOTATION]: 'true' } },
    provisioner: SANDBOX_PROVISIONER,
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'Immediate',
    allowVolumeExpansion: true,
  };
}

interface Claim extends KubeObject {
  spec: {
    storageClassName?: string;
    volumeName?: string;
    accessModes?: string[];
    volumeMode?: string;
    resources?: { requests?: { storage?: string } };
  };
  status?: { phase?: string };
}

interface Volume extends KubeObject {
  spec: {
    storageClassName?: string;
    capacity?: { storage?: string };
    accessModes?: string[];
    persistentVolumeReclaimPolicy?: string;
    claimRef?: { namespace?: string; name?: string; uid?: string };
  };
  status?: { phase?: string };
}

const PV_CONTROLLER = 'persistentvolume-controller';

function fits(pv: Volume, pvc: Claim): boolean {
  if ((pv.spec.storageClassName ?? '') !== (pvc.spec.storageClassName ?? '')) return false;
  const want = parseQuantity(pvc.spec.resources?.requests?.storage) ?? 0;
  const has = parseQuantity(pv.spec.capacity?.storage) ?? 0;
  if (has < want) return false;
  return (pvc.spec.accessModes ?? []).every((m) => (pv.spec.accessModes ?? []).includes(m));
}

export function volumeController(ctx: ControllerContext): Controller {
  const pvcs = typeOf(ctx, '', 'persistentvolumeclaims');
  const pvs = typeOf(ctx, '', 'persistentvolumes');

  const claimOf = (pv: Volume): Claim | undefined => {
    const ref = pv.spec.claimRef;
    if (!ref?.name) return undefined;
    const c = ctx.api.store.get('/persistentvolumeclaims', ref.namespace ?? '', ref.name) as Claim | undefined;
    return c && (!ref.uid || c.metadata.uid === ref.uid) ? c : undefined;
  };

  const bind = (pvc: Claim, pv: Volume): void => {
    const ref = {
      kind: 'PersistentVolumeClaim',
      namespace: pvc.metadata.namespace ?? '',
      name: pvc.metadata.name ?? '',
      uid: pvc.metadata.uid ?? '',
      apiVersion: 'v1',
      resourceVersion: pvc.metadata.resourceVersion ?? '',
    };
    let volume = pv;
    if (pv.spec.claimRef?.uid !== ref.uid) {
      const next = clone(pv);
      next.spec.claimRef = ref;
      volume = update(ctx, pvs, pv, next, PV_CONTROLLER);
    }
    writeStatus(ctx, pvs, volume, { ...volume.status, phase: 'Bound' }, PV_CONTROLLER);
    const claim = clone(pvc);
    claim.spec.volumeName = volume.metadata.name ?? '';
    claim.metadata.annotations = {
      ...claim.metadata.annotations,
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
    };
    const written = update(ctx, pvcs, pvc, claim, PV_CONTROLLER);
    writeStatus(
      ctx,
      pvcs,
      written,
      { phase: 'Bound', accessModes: volume.spec.accessModes ?? [], capacity: volume.spec.capacity ?? {} },
      PV_CONTROLLER,
    );
  };

  const provision = (pvc: Claim, cls: KubeObject): Volume | undefined => {
    const name = `pvc-${pvc.metadata.uid ?? ''}`;
    const existing = ctx.api.store.get('/persistentvolumes', '', name) as Volume | undefined;
    if (existing) return existing;
    const made = create<Volume>(
      ctx,
      pvs,
      {
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name, annotations: { 'pv.kubernetes.io/provisioned-by': SANDBOX_PROVISIONER } },
        spec: {
          capacity: { storage: pvc.spec.resources?.requests?.storage ?? '1Gi' },
          accessModes: pvc.spec.accessModes ?? ['ReadWriteOnce'],
          persistentVolumeReclaimPolicy: typeof cls.reclaimPolicy === 'string' ? cls.reclaimPolicy : 'Delete',
          storageClassName: cls.metadata.name ?? '',
          volumeMode: pvc.spec.volumeMode ?? 'Filesystem',
          hostPath: { path: `/var/lib/kdeck-sandbox/${name}`, type: 'DirectoryOrCreate' },
        },
      },
      SANDBOX_PROVISIONER,
    );
    if (made)
      ctx.events.record(
        pvc,
        'Normal',
        'ProvisioningSucceeded',
        `Successfully provisioned volume ${name}`,
        `${SANDBOX_PROVISIONER}_sandbox`,
      );
    return made;
  };

  const reconcileClaim = (ns: string, name: string): void => {
    const pvc = ctx.api.store.get('/persistentvolumeclaims', ns, name) as Claim | undefined;
    if (!pvc || pvc.metadata.deletionTimestamp) return;
    const all = ctx.api.store.list('/persistentvolumes') as Volume[];
    if (pvc.status?.phase === 'Bound' && all.some((v) => v.metadata.name === pvc.spec.volumeName)) return;
    const named = pvc.spec.volumeName ? all.find((v) => v.metadata.name === pvc.spec.volumeName) : undefined;
    const free = all.filter((v) => !v.metadata.deletionTimestamp && (!v.spec.claimRef || !claimOf(v)));
    const pick =
      (named && (!named.spec.claimRef || named.spec.claimRef.uid === pvc.metadata.uid) ? named : undefined) ??
      free.find((v) => v.spec.claimRef?.uid === pvc.metadata.uid) ??
      free.find((v) => !v.spec.claimRef && fits(v, pvc));
    if (pick) return bind(pvc, pick);
    const className = pvc.spec.storageClassName;
    const cls = className ? ctx.api.store.get('storage.k8s.io/storageclasses', '', className) : undefined;
    if (cls && cls.provisioner === SANDBOX_PROVISIONER) {
      const pv = provision(pvc, cls);
      if (pv) bind(pvc, pv);
    }
  };

  const reconcileVolume = (name: string): void => {
    const pv = ctx.api.store.get('/persistentvolumes', '', name) as Volume | undefined;
    if (!pv || pv.metadata.deletionTimestamp) return;
    if (!pv.spec.claimRef) {
      if (pv.status?.phase !== 'Available') writeStatus(ctx, pvs, pv, { phase: 'Available' }, PV_CONTROLLER);
      return;
    }
    if (claimOf(pv)) return;
    // its claim is gone: the reclaim policy decides
    if ((pv.spec.persistentVolumeReclaimPolicy ?? 'Retain') === 'Delete') return remove(ctx, pvs, pv);
    if (pv.status?.phase !== 'Released') writeStatus(ctx, pvs, pv, { phase: 'Released' }, PV_CONTROLLER);
  };

  return {
    name: 'persistentvolume',
    follows: {
      // a claim's event wakes it, and the volumes it held (a deleted claim releases them)
      '/persistentvolumeclaims': (e) => [
        `pvc:${e.object.metadata.namespace ?? ''}/${e.object.metadata.name ?? ''}`,
        ...volumesOfClaim(ctx, e.object),
      ],
      '/persistentvolumes': (e) => {
        const keys = [`pv:${e.object.metadata.name ?? ''}`];
        const ref = (e.object as Volume).spec?.claimRef;
        if (isMap(ref) && ref.name) keys.push(`pvc:${ref.namespace ?? ''}/${ref.name}`);
        return keys;
      },
      // a new class may let waiting claims be provisioned
      'storage.k8s.io/storageclasses': () =>
        ctx.api.store
          .list('/persistentvolumeclaims')
          .filter((c) => (c as Claim).status?.phase !== 'Bound')
          .map((c) => `pvc:${c.metadata.namespace ?? ''}/${c.metadata.name ?? ''}`),
    },
    initialKeys: () => [
      ...ctx.api.store
        .list('/persistentvolumeclaims')
        .map((c) => `pvc:${c.metadata.namespace ?? ''}/${c.metadata.name ?? ''}`),
      ...ctx.api.store.list('/persistentvolumes').map((v) => `pv:${v.metadata.name ?? ''}`),
    ],
    reconcile(key) {
      if (key.startsWith('pv:')) return reconcileVolume(key.slice(3));
      const rest = key.slice(4);
      const i = rest.indexOf('/');
      reconcileClaim(rest.slice(0, i), rest.slice(i + 1));
    },
  };
}

/** Keys of the volumes a claim holds. */
function volumesOfClaim(ctx: ControllerContext, claim: KubeObject): string[] {
  return (ctx.api.store.list('/persistentvolumes') as Volume[])
    .filter((v) => v.spec.claimRef?.uid === claim.metadata.uid)
    .map((v) => `pv:${v.metadata.name ?? ''}`);
}
