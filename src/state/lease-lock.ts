/**
 * A stack's lock as a coordination.k8s.io/v1 Lease, the way Kubernetes' own leader election
 * keeps one: holderIdentity (user@host:pid), leaseDurationSeconds, acquireTime, renewTime. The
 * holder renews it while its operation runs; a holder that crashed stops renewing, and once
 * renewTime + leaseDurationSeconds has passed the next operation takes the Lease over. Every
 * change is conditional on the Lease's resourceVersion, so two processes racing for it never
 * both win. Release deletes the Lease, so a stack nobody works on has none.
 *
 * Expiry is judged by this machine's clock against the renewTime the holder wrote: clocks more
 * than a lease duration apart could take a live lock over, which is why durations are tens of
 * seconds, not one.
 */
import { UserError } from '../diagnostics/user-error.js';
import { isExpired, LockedError, LockLostError, type Lock, type LockHolder } from './backend.js';
import { holderFromId } from './holder.js';
import { isStatus, type LeaseObject, type NamespacedApi } from './kube-api.js';
import { ANNOTATION, keyAnnotations, labelsOf } from './kube-names.js';
import { describeKey, type StateKey } from './model.js';

/** Attempts at taking a Lease that others keep changing before giving up. */
const ATTEMPTS = 5;

/** A Lease time (metav1.MicroTime): RFC 3339 with six fractional digits. */
const microTime = (iso: string) => iso.replace(/(\.\d{3})Z$/, '$1000Z');
const isoOf = (time: string | undefined) =>
  time && !Number.isNaN(Date.parse(time)) ? new Date(time).toISOString() : undefined;

/** The holder a Lease names, if it is held. */
function holderOf(lease: LeaseObject | undefined): LockHolder | undefined {
  const spec = lease?.spec;
  if (!spec?.holderIdentity) return undefined;
  const since = isoOf(spec.acquireTime) ?? isoOf(lease?.metadata.creationTimestamp) ?? '';
  const renewed = isoOf(spec.renewTime) ?? since;
  const holder = holderFromId(
    spec.holderIdentity,
    lease?.metadata.annotations?.[ANNOTATION.operation] ?? 'an operation',
    since,
  );
  const seconds = spec.leaseDurationSeconds;
  return seconds && renewed
    ? { ...holder, expires: new Date(Date.parse(renewed) + seconds * 1000).toISOString() }
    : holder;
}

const sameHolder = (lease: LeaseObject | undefined, h: LockHolder) => {
  const current = holderOf(lease);
  return current?.id === h.id && current.since === h.since;
};

export class LeaseLocks {
  constructor(
    private readonly api: NamespacedApi,
    readonly durationSeconds: number,
    private readonly now: () => Date,
  ) {}

  private leaseFor(key: StateKey, name: string, holder: LockHolder, base?: LeaseObject): LeaseObject {
    const now = microTime(this.now().toISOString());
    return {
      metadata: {
        name,
        labels: labelsOf(key, 'state-lock'),
        annotations: { ...keyAnnotations(key), [ANNOTATION.operation]: holder.operation },
        ...(base?.metadata.resourceVersion ? { resourceVersion: base.metadata.resourceVersion } : {}),
      },
      spec: {
        holderIdentity: holder.id,
        leaseDurationSeconds: this.durationSeconds,
        acquireTime: microTime(holder.since),
        renewTime: now,
        leaseTransitions: (base?.spec?.leaseTransitions ?? 0) + (base ? 1 : 0),
      },
    };
  }

  async holder(name: string): Promise<LockHolder | undefined> {
    return holderOf(await this.api.get<LeaseObject>('leases', name));
  }

  async acquire(key: StateKey, name: string, asked: LockHolder): Promise<Lock> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const lease = await this.api.get<LeaseObject>('leases', name);
      const current = holderOf(lease);
      if (current && !isExpired(current, this.now())) throw new LockedError(key, current);
      try {
        const taken = lease
          ? await this.api.replace('leases', this.leaseFor(key, name, asked, lease))
          : await this.api.create('leases', this.leaseFor(key, name, asked));
        return new LeaseLock(this.api, key, taken, this, current);
      } catch (e) {
        // someone else created or changed the Lease first: look again
        if (!isStatus(e, 409)) throw e;
      }
    }
    throw new UserError(
      `the lock of ${describeKey(key)} kept changing while kdeck tried to take it (${ATTEMPTS} attempts); another operation is starting on the stack: run preview to see who holds it`,
      1,
    );
  }

  /** Renews `lease`, held by `holder`; the renewed Lease. */
  async renewed(key: StateKey, lease: LeaseObject, holder: LockHolder): Promise<LeaseObject> {
    const next = {
      ...lease,
      metadata: { ...lease.metadata },
      spec: { ...lease.spec, renewTime: microTime(this.now().toISOString()) },
    };
    try {
      return await this.api.replace('leases', next);
    } catch (e) {
      if (!isStatus(e, 409) && !isStatus(e, 404)) throw e;
      // changed by someone else (kubectl, a force-unlock): still ours only if it names us
      const now = await this.api.get<LeaseObject>('leases', lease.metadata.name);
      if (!now || !sameHolder(now, holder)) throw new LockLostError(key, holderOf(now));
      return this.renewed(key, now, holder);
    }
  }

  /** Deletes `name` if `holder` holds it (at any resourceVersion); the holder it removed. */
  async remove(name: string, holder?: LockHolder): Promise<LockHolder | undefined> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const lease = await this.api.get<LeaseObject>('leases', name);
      const current = holderOf(lease);
      if (!lease || !current || (holder && !sameHolder(lease, holder))) return undefined;
      try {
        return (await this.api.delete('leases', name, lease.metadata.resourceVersion)) ? current : undefined;
      } catch (e) {
        if (!isStatus(e, 409)) throw e;
      }
    }
    return undefined;
  }
}

class LeaseLock implements Lock {
  private released = false;

  constructor(
    private readonly api: NamespacedApi,
    private readonly key: StateKey,
    private lease: LeaseObject,
    private readonly locks: LeaseLocks,
    readonly tookOverFrom: LockHolder | undefined,
  ) {}

  get holder(): LockHolder {
    return holderOf(this.lease)!;
  }

  get durationSeconds(): number {
    return this.locks.durationSeconds;
  }

  async renew(): Promise<void> {
    this.lease = await this.locks.renewed(this.key, this.lease, this.holder);
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    try {
      await this.api.delete('leases', this.lease.metadata.name, this.lease.metadata.resourceVersion);
    } catch (e) {
      if (!isStatus(e, 409)) throw e;
      // renewed or taken since: delete it only if it still names this holder
      await this.locks.remove(this.lease.metadata.name, this.holder);
    }
  }
}
