/**
 * The few API calls the in-cluster state backend makes, on Secrets and Leases of one namespace:
 * get, create, conditional replace and delete, list by label. Conditions are the server's own
 * (resourceVersion on the object for a replace, preconditions for a delete), so a lost race comes
 * back as 409 and is never a silent overwrite. The namespace is created on the first write that
 * finds it missing.
 */
import { ObjectClient } from '../cluster/objects.js';
import { ApiError, type RestClient } from '../cluster/rest.js';

export interface KubeMeta {
  [field: string]: unknown;
  name: string;
  namespace?: string;
  resourceVersion?: string;
  uid?: string;
  creationTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface SecretObject {
  apiVersion?: string;
  kind?: string;
  metadata: KubeMeta;
  type?: string;
  /** base64, as the API carries Secret values. */
  data?: Record<string, string>;
}

export interface LeaseObject {
  apiVersion?: string;
  kind?: string;
  metadata: KubeMeta;
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}

type Kind = 'secrets' | 'leases';

const TYPE: Record<Kind, { apiVersion: string; kind: string }> = {
  secrets: { apiVersion: 'v1', kind: 'Secret' },
  leases: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' },
};

export const isStatus = (e: unknown, status: number, reason?: string): e is ApiError =>
  e instanceof ApiError && e.status === status && (reason === undefined || e.reason === reason);

/** A 404 on a create says the namespace is missing (the object itself cannot be). */
const namespaceMissing = (e: unknown) => isStatus(e, 404);

/** Secrets and Leases of one namespace, through the cluster layer's ObjectClient. */
export class NamespacedApi {
  private namespaceMade = false;
  private readonly objects: ObjectClient;

  constructor(
    readonly rest: RestClient,
    readonly namespace: string,
  ) {
    this.objects = new ObjectClient(rest, namespace);
  }

  private ref(kind: Kind, name: string) {
    return { ...TYPE[kind], namespace: this.namespace, name };
  }

  async get<T>(kind: Kind, name: string): Promise<T | undefined> {
    return (await this.objects.get(this.ref(kind, name))) as T | undefined;
  }

  async list<T>(kind: Kind, labelSelector: string): Promise<T[]> {
    return (await this.objects.list({ ...TYPE[kind], namespace: this.namespace }, { labelSelector })).items as T[];
  }

  /** Creates `o`; 409 AlreadyExists when the name is taken. */
  async create<T extends { metadata: KubeMeta }>(kind: Kind, o: T): Promise<T> {
    const body = { ...TYPE[kind], ...o, metadata: { ...o.metadata, namespace: this.namespace } };
    try {
      return (await this.objects.create(body)) as unknown as T;
    } catch (e) {
      if (!namespaceMissing(e) || this.namespaceMade) throw e;
      await this.ensureNamespace();
      return (await this.objects.create(body)) as unknown as T;
    }
  }

  /** Replaces `o` if it is still at `o.metadata.resourceVersion`; 409 Conflict otherwise. */
  async replace<T extends { metadata: KubeMeta }>(kind: Kind, o: T): Promise<T> {
    return (await this.objects.replace({
      ...TYPE[kind],
      ...o,
      metadata: { ...o.metadata, namespace: this.namespace },
    })) as unknown as T;
  }

  /** Deletes `name` (only at `resourceVersion` when given); false when it was already gone. */
  async delete(kind: Kind, name: string, resourceVersion?: string): Promise<boolean> {
    return this.objects.delete(this.ref(kind, name), 'Background', resourceVersion ? { resourceVersion } : {});
  }

  private async ensureNamespace(): Promise<void> {
    try {
      await this.objects.create({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: this.namespace, labels: { 'app.kubernetes.io/managed-by': 'kdeck' } },
      });
    } catch (e) {
      if (!isStatus(e, 409)) throw e;
    }
    this.namespaceMade = true;
  }
}
